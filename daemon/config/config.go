package config

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"time"

	toml "github.com/pelletier/go-toml/v2"
)

// Duration is a time.Duration written as Go writes one ("500ms", "2m0s")
// in TOML and in flags.
type Duration time.Duration

// D is the time.Duration.
func (d Duration) D() time.Duration { return time.Duration(d) }

func (d Duration) String() string { return time.Duration(d).String() }

// MarshalText writes the duration as time.Duration.String does.
func (d Duration) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// UnmarshalText reads a duration as time.ParseDuration does.
func (d *Duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(string(b))
	if err != nil {
		return fmt.Errorf("%q is not a duration (write e.g. \"500ms\", \"30s\", \"2m\")", b)
	}
	*d = Duration(v)
	return nil
}

// ErrExists: Write would overwrite a file.
var ErrExists = errors.New("config: the file exists")

// option is one leaf of a configuration: its TOML section and key, its
// help and the value it lives in.
type option struct {
	section, key, help string
	v                  reflect.Value
}

// flagName is the option's flag: <section>-<key>, '_' as '-'.
func (o option) flagName() string {
	n := o.key
	if o.section != "" {
		n = o.section + "-" + n
	}
	return strings.ReplaceAll(n, "_", "-")
}

// options lists the options of cfg (a pointer to a struct of sections) in
// declaration order.
func options(cfg any) []option {
	rv := reflect.ValueOf(cfg)
	if rv.Kind() != reflect.Pointer || rv.Elem().Kind() != reflect.Struct {
		panic("config: want a pointer to a struct")
	}
	var out []option
	var walk func(section string, v reflect.Value)
	walk = func(section string, v reflect.Value) {
		t := v.Type()
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
			if name == "" || name == "-" || !f.IsExported() {
				continue
			}
			fv := v.Field(i)
			if fv.Kind() == reflect.Struct && fv.Type() != reflect.TypeOf(Duration(0)) {
				if section != "" {
					panic("config: sections do not nest")
				}
				walk(name, fv)
				continue
			}
			out = append(out, option{section: section, key: name, help: f.Tag.Get("help"), v: fv})
		}
	}
	walk("", rv.Elem())
	return out
}

// Encode renders cfg as a commented TOML file: header (each line a
// comment), then each section with its options, each option's help as
// comment lines above it.
func Encode(cfg any, header string) ([]byte, error) {
	var b bytes.Buffer
	for _, l := range strings.Split(strings.TrimRight(header, "\n"), "\n") {
		b.WriteString(strings.TrimRight("# "+l, " ") + "\n")
	}
	section := ""
	for _, o := range options(cfg) {
		if o.section != section {
			section = o.section
			fmt.Fprintf(&b, "\n[%s]\n", section)
		} else {
			b.WriteString("\n")
		}
		for _, l := range strings.Split(o.help, "\n") {
			b.WriteString(strings.TrimRight("# "+l, " ") + "\n")
		}
		val, err := tomlValue(o.v)
		if err != nil {
			return nil, fmt.Errorf("config: %s: %w", o.flagName(), err)
		}
		fmt.Fprintf(&b, "%s = %s\n", o.key, val)
	}
	return b.Bytes(), nil
}

// tomlValue is v as a TOML value.
func tomlValue(v reflect.Value) (string, error) {
	if d, ok := v.Interface().(Duration); ok {
		return tomlString(d.String()), nil
	}
	switch v.Kind() {
	case reflect.String:
		return tomlString(v.String()), nil
	case reflect.Bool:
		return strconv.FormatBool(v.Bool()), nil
	case reflect.Int, reflect.Int64, reflect.Int32:
		return strconv.FormatInt(v.Int(), 10), nil
	case reflect.Uint, reflect.Uint64, reflect.Uint32:
		return strconv.FormatUint(v.Uint(), 10), nil
	case reflect.Slice:
		parts := make([]string, v.Len())
		for i := range parts {
			p, err := tomlValue(v.Index(i))
			if err != nil {
				return "", err
			}
			parts[i] = p
		}
		return "[" + strings.Join(parts, ", ") + "]", nil
	}
	return "", fmt.Errorf("unsupported type %s", v.Type())
}

// tomlString is s as a TOML basic string.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// Write writes Encode(cfg, header) to path (its directory created), and
// refuses (ErrExists) to replace a file unless force.
func Write(path string, cfg any, header string, force bool) error {
	bz, err := Encode(cfg, header)
	if err != nil {
		return err
	}
	if _, err := os.Stat(path); err == nil && !force {
		return fmt.Errorf("%w: %s (edit it, or pass --force to write the defaults over it)", ErrExists, path)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	return os.WriteFile(path, bz, 0o600)
}

// Load reads the TOML file at path over cfg. An unknown key or a value
// of the wrong type is an error naming the file, the line and the key.
func Load(path string, cfg any) error {
	bz, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	return Decode(path, bz, cfg)
}

// Decode is Load of bz (name is what errors call the file).
func Decode(name string, bz []byte, cfg any) error {
	dec := toml.NewDecoder(bytes.NewReader(bz)).DisallowUnknownFields().EnableUnmarshalerInterface()
	err := dec.Decode(cfg)
	var strict *toml.StrictMissingError
	if errors.As(err, &strict) && len(strict.Errors) > 0 {
		var lines []string
		for _, e := range strict.Errors {
			row, _ := e.Position()
			lines = append(lines, fmt.Sprintf("%s:%d: unknown key %q (see the keys `init` writes; a typo never keeps a default silently)", name, row, strings.Join(e.Key(), ".")))
		}
		return errors.New(strings.Join(lines, "\n"))
	}
	var de *toml.DecodeError
	if errors.As(err, &de) {
		row, col := de.Position()
		return fmt.Errorf("%s:%d:%d: %s", name, row, col, de.Error())
	}
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

// Binding ties a configuration's options to the flags of a FlagSet.
type Binding struct {
	fs   *flag.FlagSet
	opts map[string]option
	raw  map[string]string
}

// Bind defines a flag for every option of cfg, whose default is the
// option's current value and whose usage is its help's first line.
func Bind(fs *flag.FlagSet, cfg any) *Binding {
	b := &Binding{fs: fs, opts: map[string]option{}, raw: map[string]string{}}
	for _, o := range options(cfg) {
		name := o.flagName()
		def, _ := tomlValue(o.v)
		def = strings.Trim(def, `"`)
		help, _, _ := strings.Cut(o.help, "\n")
		b.opts[name] = o
		fs.Func(name, fmt.Sprintf("%s (file: [%s] %s; default %s)", help, o.section, o.key, def), func(s string) error {
			if err := setValue(o.v, s); err != nil { // checked now, so a bad flag fails at parsing
				return err
			}
			b.raw[name] = s
			return nil
		})
	}
	return b
}

// Apply writes the value of every flag the user set over cfg: call it
// after Load, so that flags win over the file.
func (b *Binding) Apply() error {
	for name, s := range b.raw {
		if err := setValue(b.opts[name].v, s); err != nil {
			return fmt.Errorf("--%s: %w", name, err)
		}
	}
	return nil
}

// Set reports whether the flag of an option was given.
func (b *Binding) Set(flagName string) bool {
	_, ok := b.raw[flagName]
	return ok
}

// setValue parses s into v by v's type; a list is comma-separated.
func setValue(v reflect.Value, s string) error {
	if d, ok := v.Addr().Interface().(*Duration); ok {
		return d.UnmarshalText([]byte(s))
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString(s)
	case reflect.Bool:
		x, err := strconv.ParseBool(s)
		if err != nil {
			return fmt.Errorf("%q is not true or false", s)
		}
		v.SetBool(x)
	case reflect.Int, reflect.Int64, reflect.Int32:
		x, err := strconv.ParseInt(s, 10, v.Type().Bits())
		if err != nil {
			return fmt.Errorf("%q is not an integer", s)
		}
		v.SetInt(x)
	case reflect.Uint, reflect.Uint64, reflect.Uint32:
		x, err := strconv.ParseUint(s, 10, v.Type().Bits())
		if err != nil {
			return fmt.Errorf("%q is not a non-negative integer", s)
		}
		v.SetUint(x)
	case reflect.Slice:
		var parts []string
		if s != "" {
			parts = strings.Split(s, ",")
		}
		out := reflect.MakeSlice(v.Type(), len(parts), len(parts))
		for i, p := range parts {
			if err := setValue(out.Index(i), strings.TrimSpace(p)); err != nil {
				return err
			}
		}
		v.Set(out)
	default:
		return fmt.Errorf("unsupported type %s", v.Type())
	}
	return nil
}
