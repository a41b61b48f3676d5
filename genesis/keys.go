package genesis

import (
	"bytes"
	"encoding"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
)

// CheckKeys walks a JSON document written by a person (a genesis
// app_state, a params patch) against the Go type it decodes into and
// refuses the first object key that is not exactly one of that object's
// JSON names, with its line and column. encoding/json alone would take
// "CAP" for "cap" (it matches keys case-insensitively), and a key the
// genesis used to have (the Go field names, "WSuccess", before the keys
// were made snake_case) would only be "unknown": here such a key names the
// key to write instead. Syntax and type errors are left to the decoder
// that runs after (it reports them with their position), so a document
// CheckKeys cannot tokenize passes it. prefix names the document's root
// in errors ("app_state", "params").
func CheckKeys(doc []byte, t reflect.Type, prefix string) error {
	if !json.Valid(doc) {
		return nil // the decoder's syntax error, with its position, comes first
	}
	w := keyWalker{doc: doc, dec: json.NewDecoder(bytes.NewReader(doc))}
	w.dec.UseNumber()
	err := w.value(t, prefix)
	if ke, ok := err.(*keyError); ok {
		return ke.err
	}
	return nil // a token error: the decoder reports it with its position
}

// keyError carries a refused key out of the walk, apart from token errors.
type keyError struct{ err error }

func (e *keyError) Error() string { return e.err.Error() }

type keyWalker struct {
	doc []byte
	dec *json.Decoder
}

var (
	jsonUnmarshaler = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// leaf reports whether values of t decode themselves (decimal.Decimal,
// json.RawMessage...) or are not objects or arrays of objects: their keys,
// if any, are not the genesis's.
func leaf(t reflect.Type) bool {
	if t.Implements(jsonUnmarshaler) || reflect.PointerTo(t).Implements(jsonUnmarshaler) ||
		t.Implements(textUnmarshaler) || reflect.PointerTo(t).Implements(textUnmarshaler) {
		return true
	}
	switch t.Kind() {
	case reflect.Struct, reflect.Map:
		return false
	case reflect.Slice, reflect.Array:
		return t.Elem().Kind() == reflect.Uint8 // []byte is a base64 string
	}
	return true
}

// value reads one JSON value expected to decode into t.
func (w *keyWalker) value(t reflect.Type, path string) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	tok, err := w.dec.Token()
	if err != nil {
		return err
	}
	d, isDelim := tok.(json.Delim)
	if !isDelim {
		return nil // a scalar: its type is the decoder's to check
	}
	if leaf(t) {
		return w.skip(d)
	}
	switch {
	case d == '{' && t.Kind() == reflect.Struct:
		return w.object(t, path)
	case d == '{' && t.Kind() == reflect.Map:
		for w.dec.More() {
			k, err := w.dec.Token()
			if err != nil {
				return err
			}
			if err := w.value(t.Elem(), fmt.Sprintf("%s.%v", path, k)); err != nil {
				return err
			}
		}
		_, err := w.dec.Token()
		return err
	case d == '[' && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array):
		for i := 0; w.dec.More(); i++ {
			if err := w.value(t.Elem(), fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
		_, err := w.dec.Token()
		return err
	}
	return w.skip(d) // the wrong kind of value: the decoder names it
}

// object reads the members of an object that decodes into struct t.
func (w *keyWalker) object(t reflect.Type, path string) error {
	names := jsonNames(t)
	for w.dec.More() {
		tok, err := w.dec.Token()
		if err != nil {
			return err
		}
		key, _ := tok.(string)
		field, ok := names[key]
		if !ok {
			// the key's opening quote: Position counts the byte before the offset it is given
			end := w.dec.InputOffset()
			line, col := Position(w.doc, int64(bytes.LastIndexByte(w.doc[:max(end-1, 0)], '"'))+1)
			return &keyError{fieldErr(path+"."+key, "(key)", fmt.Sprintf("line %d, column %d: %s", line, col, unknownKey(key, names)))}
		}
		if err := w.value(field.Type, path+"."+key); err != nil {
			return err
		}
	}
	_, err := w.dec.Token()
	return err
}

// unknownKey says what is wrong with key among the object's names: a
// key that differs from one of them only in case or underscores (the old
// Go field names, "WSuccess" for "w_success") names the one to write.
func unknownKey(key string, names map[string]reflect.StructField) string {
	fold := func(s string) string { return strings.ToLower(strings.ReplaceAll(s, "_", "")) }
	known := make([]string, 0, len(names))
	for _, name := range sortedKeys(names) {
		if fold(name) == fold(key) {
			return fmt.Sprintf("unknown key: genesis and params keys are snake_case, write %q", name)
		}
		known = append(known, name)
	}
	return "unknown key; this object's keys are " + strings.Join(known, ", ")
}

func sortedKeys(m map[string]reflect.StructField) []string {
	return slices.Sorted(maps.Keys(m))
}

// jsonNames maps the JSON names of t's exported fields (their tag's name,
// else the Go name, as encoding/json does) to the fields; embedded structs
// without a tag lend their fields.
func jsonNames(t reflect.Type) map[string]reflect.StructField {
	names := map[string]reflect.StructField{}
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" || (!f.IsExported() && !f.Anonymous) {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" {
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				maps.Copy(names, jsonNames(ft))
				continue
			}
		}
		if name == "" {
			name = f.Name
		}
		names[name] = f
	}
	return names
}

// skip reads the rest of a value whose opening delimiter d was read.
func (w *keyWalker) skip(d json.Delim) error {
	if d != '{' && d != '[' {
		return nil
	}
	for depth := 1; depth > 0; {
		tok, err := w.dec.Token()
		if err != nil {
			return err
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
	}
	return nil
}
