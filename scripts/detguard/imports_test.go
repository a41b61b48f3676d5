package detguard

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// module is the repo's module path.
const module = "github.com/scoringsubnet/validatord"

// consensusPackages are the packages whose code runs in block execution.
var consensusPackages = []string{"./app/...", "./x/...", "./genesis/..."}

// sidecarImports are module paths consensus code must never depend on, even
// indirectly: the EVM client the gas oracle sidecar uses, the TOML reader
// of the daemons' configurations, and the repo's own client-side packages (a consensus package importing one would make
// a node's state depend on code written for users, not for replay).
var sidecarImports = []string{
	"github.com/ethereum/go-ethereum",
	"github.com/pelletier/go-toml",
	module + "/client",
	module + "/daemon",
	module + "/cmd",
	module + "/scripts",
	module + "/offline",
	module + "/internal",
	module + "/oracle",
}

// xAboveRepo are the repo's packages above x/: the schema, the shell, the
// node and the CLI.
var xAboveRepo = []string{module + "/genesis", module + "/app", module + "/node", module + "/cmd"}

// xAbove are xAboveRepo and the libraries of the shell (consensus engine,
// storage).
var xAbove = append(append([]string{}, xAboveRepo...), "github.com/cometbft/", "github.com/dgraph-io/badger")

// under reports whether import path p is pkg or below it; a pkg ending in
// "/" is a path prefix ("github.com/cometbft/": every module of the org).
func under(p, pkg string) bool {
	if strings.HasSuffix(pkg, "/") {
		return strings.HasPrefix(p, pkg)
	}
	return p == pkg || strings.HasPrefix(p, pkg+"/")
}

func underAny(p string, pkgs []string) bool {
	for _, pkg := range pkgs {
		if under(p, pkg) {
			return true
		}
	}
	return false
}

// goList runs `go list` at the repo root and returns its output lines; it
// fails the test if it named fewer than min, too few to prove anything.
func goList(t *testing.T, min int, args ...string) []string {
	t.Helper()
	cmd := exec.Command("go", append([]string{"list"}, args...)...)
	cmd.Dir = repoRoot(t)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list %v: %v", args, err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) < min {
		t.Fatalf("go list %v named %d packages: the check saw too little to prove anything", args, len(lines))
	}
	return lines
}

// TestConsensusImportsNoSidecar: no consensus package depends, directly or
// through any chain of imports, on a sidecar module (`go list -deps`).
func TestConsensusImportsNoSidecar(t *testing.T) {
	for _, dep := range goList(t, 50, append([]string{"-deps", "-f", "{{.ImportPath}}"}, consensusPackages...)...) {
		if underAny(dep, sidecarImports) {
			t.Errorf("a consensus package depends on %s", dep)
		}
	}
}

// TestXIsPure: x/ is pure by construction. Its code depends on nothing of
// genesis/, app/, node/, cmd/, CometBFT or badger, directly or through any
// chain of imports, and its tests on no package of the repo above it (they
// may use CometBFT to compare a rule with CometBFT's); no file of x/
// outside tests holds a go statement, and neither does any repo package x/
// depends on. Files are parsed whatever their build tags.
func TestXIsPure(t *testing.T) {
	pure := map[string]bool{} // x/'s packages and the repo's packages x/ depends on
	for _, dep := range goList(t, 10, "-deps", "-f", "{{.ImportPath}}", "./x/...") {
		if underAny(dep, xAbove) {
			t.Errorf("x/ depends on %s", dep)
		}
		pure[dep] = under(dep, module)
	}
	for _, dep := range goList(t, 10, "-deps", "-test", "-f", "{{.ImportPath}}", "./x/...") {
		dep, _, _ = strings.Cut(dep, " ") // "p [x/budget.test]": p as built for a test
		if underAny(dep, xAboveRepo) {
			t.Errorf("a test of x/ depends on %s", dep)
		}
	}
	files := 0
	for _, f := range parseRepo(t) {
		if f.test || !(pure[f.pkg] || under(f.pkg, module+"/x")) {
			continue
		}
		files++
		for _, pos := range f.goStmts {
			t.Errorf("%s: a go statement in %s, which x/ is or depends on", pos, f.pkg)
		}
	}
	if files < 20 {
		t.Fatalf("parsed %d files of x/ and its repo dependencies: too few to prove anything", files)
	}
}

// TestNodeImportedOnlyByCmd: node plumbing (node/...) is what `start` runs
// around the app, so only cmd/ imports it (and node/ itself); a library
// importing it would pull a node into every program built on the library.
// internal/testnode is exempt: it builds, in a test's process, the node
// `start` builds, out of the same plumbing; in exchange it is imported by
// tests only, so through it node/ reaches test binaries and nothing else.
// Test files may import node/ (scripts/e2e starts nodes).
func TestNodeImportedOnlyByCmd(t *testing.T) {
	const testnode = module + "/internal/testnode"
	files := parseRepo(t)
	for _, f := range files {
		if f.test {
			continue
		}
		for _, imp := range f.imports {
			if under(imp, module+"/node") && !under(f.pkg, module+"/cmd") && !under(f.pkg, module+"/node") && f.pkg != testnode {
				t.Errorf("%s (%s) imports %s: only cmd/ may", f.name, f.pkg, imp)
			}
			if imp == testnode {
				t.Errorf("%s imports %s outside a test", f.name, imp)
			}
		}
	}
}

// TestClientImportsNoInternal: client/ is what users import, and Go forbids
// them internal/, so client/'s code depends on nothing under internal/,
// directly or through any chain of imports. Its tests may (they drive an
// internal/testnode node).
func TestClientImportsNoInternal(t *testing.T) {
	for _, dep := range goList(t, 10, "-deps", "-f", "{{.ImportPath}}", "./client/...") {
		if under(dep, module+"/internal") {
			t.Errorf("client/ depends on %s", dep)
		}
	}
	for _, f := range parseRepo(t) {
		if f.test || !under(f.pkg, module+"/client") {
			continue
		}
		for _, imp := range f.imports {
			if under(imp, module+"/internal") {
				t.Errorf("%s imports %s", f.name, imp)
			}
		}
	}
}

// goFile is one parsed source file: its package's import path (by
// directory), whether it is a test file, its imports and the positions of
// its go statements.
type goFile struct {
	name, pkg string
	test      bool
	imports   []string
	goStmts   []token.Position
}

// parseRepo parses every .go file of the repo (testdata and hidden
// directories aside), whatever its build tags.
func parseRepo(t *testing.T) []goFile {
	t.Helper()
	root := repoRoot(t)
	var out []goFile
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p != root && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) {
			return filepath.SkipDir
		}
		if d.IsDir() {
			out = append(out, parseDir(t, root, p)...)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) < 200 {
		t.Fatalf("parsed %d files: too few to prove anything", len(out))
	}
	return out
}

// parseDir parses the .go files of one directory (not its subdirectories).
func parseDir(t *testing.T, root, dir string) []goFile {
	t.Helper()
	rel, err := filepath.Rel(root, dir)
	if err != nil {
		t.Fatal(err)
	}
	pkg := module
	if rel != "." {
		pkg += "/" + filepath.ToSlash(rel)
	}
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var out []goFile
	for _, name := range names {
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		g := goFile{name: name, pkg: pkg, test: strings.HasSuffix(name, "_test.go")}
		for _, imp := range f.Imports {
			p, err := strconv.Unquote(imp.Path.Value)
			if err != nil {
				t.Fatal(err)
			}
			g.imports = append(g.imports, p)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if s, ok := n.(*ast.GoStmt); ok {
				g.goStmts = append(g.goStmts, fset.Position(s.Pos()))
			}
			return true
		})
		out = append(out, g)
	}
	return out
}
