package detguard

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/build"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

const decimalPath = "github.com/shopspring/decimal"

// bannedDecimal are decimal methods and functions whose result depends on package globals,
// floating point, or an iteration count chosen with floats.
var bannedDecimal = map[string]bool{
	"Div": true, "Pow": true, "PowInt32": true, "PowBigInt": true, "Sqrt": true, "Avg": true,
	"NewFromFloat": true, "NewFromFloat32": true, "NewFromFloatWithExponent": true,
	"InexactFloat64": true, "Float64": true, "ExpTaylor": true, "ExpHullAbrham": true,
}

// Finding is one construct the guard rejects.
type Finding struct {
	Pos    token.Position
	Reason string
}

func (f Finding) String() string { return fmt.Sprintf("%s: %s", f.Pos, f.Reason) }

// Checker type-checks source files against compiled export data of their imports.
type Checker struct {
	fset    *token.FileSet
	exports map[string]string
}

// NewChecker lists export data for the dependencies of patterns (run in the module root dir).
func NewChecker(dir string, patterns ...string) (*Checker, error) {
	args := append([]string{"list", "-export", "-deps", "-json=ImportPath,Export"}, patterns...)
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list: %v: %s", err, stderr.String())
	}
	exports := map[string]string{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p struct{ ImportPath, Export string }
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			return nil, err
		}
		exports[p.ImportPath] = p.Export
	}
	return &Checker{fset: token.NewFileSet(), exports: exports}, nil
}

func (c *Checker) importer() types.Importer {
	return importer.ForCompiler(c.fset, "gc", func(path string) (io.ReadCloser, error) {
		f, ok := c.exports[path]
		if !ok || f == "" {
			return nil, fmt.Errorf("no export data for %s", path)
		}
		return os.Open(f)
	})
}

// CheckDir type-checks the non-test, non-generated Go files of one package
// directory, once for each build this platform can make of it: the
// default one and the one under the purego tag (where a package has
// assembly, its Go fallback), so that files behind either constraint are
// checked. A finding in a file both builds share is reported once.
func (c *Checker) CheckDir(dir string) ([]Finding, error) {
	var out []Finding
	seen := map[string]bool{}
	for _, tags := range [][]string{nil, {"purego"}} {
		fs, err := c.checkBuild(dir, tags)
		if err != nil {
			return nil, err
		}
		for _, f := range fs {
			if k := f.String(); !seen[k] {
				seen[k] = true
				out = append(out, f)
			}
		}
	}
	return out, nil
}

// checkBuild type-checks the files of dir that the build with the given
// extra tags compiles.
func (c *Checker) checkBuild(dir string, tags []string) ([]Finding, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	ctxt := build.Default
	ctxt.BuildTags = tags
	var files []*ast.File
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") || strings.HasSuffix(n, ".pb.go") {
			continue
		}
		if ok, err := ctxt.MatchFile(dir, n); err != nil || !ok {
			if err != nil {
				return nil, err
			}
			continue
		}
		f, err := parser.ParseFile(c.fset, filepath.Join(dir, n), nil, parser.ParseComments)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	if len(files) == 0 {
		return nil, nil
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Uses: map[*ast.Ident]types.Object{}}
	conf := types.Config{Importer: c.importer(), Error: func(error) {}}
	if _, err := conf.Check(files[0].Name.Name, c.fset, files, info); err != nil {
		return nil, fmt.Errorf("type-check %s: %w", dir, err)
	}
	var out []Finding
	for _, f := range files {
		out = append(out, c.checkFile(f, info)...)
	}
	return out, nil
}

func (c *Checker) checkFile(f *ast.File, info *types.Info) []Finding {
	var out []Finding
	report := func(n ast.Node, format string, args ...any) {
		out = append(out, Finding{Pos: c.fset.Position(n.Pos()), Reason: fmt.Sprintf(format, args...)})
	}
	for _, imp := range f.Imports {
		p := strings.Trim(imp.Path.Value, `"`)
		if p == "math/rand" || p == "math/rand/v2" {
			report(imp, "imports %s", p)
		}
	}
	sortedLines := annotations(c.fset, f, "det: sorted")
	goLines := c.goLines(f)
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Ident:
			if n.Name == "float32" || n.Name == "float64" {
				if _, ok := info.Uses[n].(*types.TypeName); ok {
					report(n, "uses %s", n.Name)
				}
			}
		case *ast.GoStmt:
			if !goLines[c.fset.Position(n.Pos()).Line-1] {
				report(n, "starts a goroutine")
			}
		case *ast.RangeStmt:
			if t, ok := info.Types[n.X]; ok {
				if _, isMap := t.Type.Underlying().(*types.Map); isMap && !sortedLines[c.fset.Position(n.Pos()).Line-1] {
					report(n, "ranges over a map (annotate the line before with // det: sorted if the keys are sorted before use)")
				}
			}
		case *ast.SelectorExpr:
			c.checkSelector(n, info, report)
		}
		return true
	})
	return out
}

func (c *Checker) checkSelector(n *ast.SelectorExpr, info *types.Info, report func(ast.Node, string, ...any)) {
	obj := info.Uses[n.Sel]
	if obj == nil || obj.Pkg() == nil {
		return
	}
	switch obj.Pkg().Path() {
	case "time":
		if obj.Name() == "Now" {
			report(n, "calls time.Now (block time is an argument)")
		}
	case decimalPath:
		if bannedDecimal[obj.Name()] {
			report(n, "calls decimal %s (use an explicit-precision call: DivRound, PowWithPrecision, SqrtRound, Ln(places))", obj.Name())
		}
		// decimal.Zero is a value, not a setting; every other package variable is a process-wide knob.
		if v, ok := obj.(*types.Var); ok && !v.IsField() && v.Parent() == obj.Pkg().Scope() && v.Name() != "Zero" {
			report(n, "uses decimal package variable %s (process-wide setting)", obj.Name())
		}
	}
}

// goAllowed are the packages allowed a go statement, each only on the line
// after its own annotation. They are under app/: nothing under x/ or
// genesis/ is allowed one.
var goAllowed = []struct{ dir, tag string }{
	// Tasks computing pure functions of immutable inputs into their own
	// outputs, read by the caller in task order.
	{"app/parallel", "det: pure parallel"},
	// The state-sync snapshot writer, started after Commit on a committed
	// badger transaction: block execution neither waits for it nor reads
	// what it writes.
	{"app/snapshot", "det: after commit"},
}

// goLines are the lines of f after which a go statement is allowed (nil
// outside goAllowed's packages).
func (c *Checker) goLines(f *ast.File) map[int]bool {
	dir := filepath.ToSlash(filepath.Dir(c.fset.Position(f.Pos()).Filename))
	for _, a := range goAllowed {
		if strings.HasSuffix(dir, "/"+a.dir) {
			return annotations(c.fset, f, a.tag)
		}
	}
	return nil
}

func annotations(fset *token.FileSet, f *ast.File, tag string) map[int]bool {
	lines := map[int]bool{}
	for _, cg := range f.Comments {
		for _, cm := range cg.List {
			if strings.Contains(cm.Text, tag) {
				lines[fset.Position(cm.Pos()).Line] = true
			}
		}
	}
	return lines
}

// ConsensusDirs lists the package directories under root/app, root/x and root/genesis.
func ConsensusDirs(root string) ([]string, error) {
	var dirs []string
	for _, top := range []string{"app", "x", "genesis"} {
		base := filepath.Join(root, top)
		if _, err := os.Stat(base); os.IsNotExist(err) {
			continue
		}
		err := filepath.WalkDir(base, func(p string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) {
				return filepath.SkipDir
			}
			if d.IsDir() {
				dirs = append(dirs, p)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	sort.Strings(dirs)
	return dirs, nil
}

// CheckProtos reports map and floating-point fields in .proto files under dir: gogoproto
// marshals maps in random order, and floats have no place in consensus state.
func CheckProtos(dir string) ([]Finding, error) {
	var out []Finding
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".proto") {
			return err
		}
		bz, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(bz), "\n") {
			code := strings.TrimSpace(strings.SplitN(line, "//", 2)[0])
			fields := strings.Fields(code)
			if strings.HasPrefix(code, "map<") || strings.Contains(code, " map<") {
				out = append(out, Finding{Pos: token.Position{Filename: p, Line: i + 1}, Reason: "proto map field"})
			}
			for _, w := range fields {
				if w == "double" || w == "float" {
					out = append(out, Finding{Pos: token.Position{Filename: p, Line: i + 1}, Reason: "proto floating-point field"})
				}
			}
		}
		return nil
	})
	return out, err
}
