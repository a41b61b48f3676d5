package wire

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
)

var bytesType = reflect.TypeOf([]byte(nil))

// hexBytes rewrites jsonpb's output for a message of type t (a pointer to a generated struct)
// so that every bytes field is lower-case hex instead of base64, as in the app's queries. The
// order of the object keys is kept. Keys the type does not name are copied unchanged.
func hexBytes(raw json.RawMessage, t reflect.Type) (json.RawMessage, error) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch {
	case t == bytesType:
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, err
		}
		bz, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			return nil, err
		}
		return json.Marshal(hex.EncodeToString(bz))
	case t.Kind() == reflect.Slice:
		var items []json.RawMessage
		if err := json.Unmarshal(raw, &items); err != nil {
			return nil, err
		}
		var buf bytes.Buffer
		buf.WriteByte('[')
		for i, it := range items {
			out, err := hexBytes(it, t.Elem())
			if err != nil {
				return nil, err
			}
			if i > 0 {
				buf.WriteByte(',')
			}
			buf.Write(out)
		}
		buf.WriteByte(']')
		return buf.Bytes(), nil
	case t.Kind() == reflect.Struct:
		return hexObject(raw, t)
	default:
		return raw, nil
	}
}

// hexObject rewrites one JSON object of the struct type t, key by key.
func hexObject(raw json.RawMessage, t reflect.Type) (json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, fmt.Errorf("want an object for %s", t)
	}
	var buf bytes.Buffer
	buf.WriteByte('{')
	for i := 0; dec.More(); i++ {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := tok.(string)
		var val json.RawMessage
		if err := dec.Decode(&val); err != nil {
			return nil, err
		}
		if ft, ok := protoField(t, key); ok {
			if val, err = hexBytes(val, ft); err != nil {
				return nil, fmt.Errorf("%s.%s: %w", t.Name(), key, err)
			}
		}
		kb, err := json.Marshal(key)
		if err != nil {
			return nil, err
		}
		if i > 0 {
			buf.WriteByte(',')
		}
		buf.Write(kb)
		buf.WriteByte(':')
		buf.Write(val)
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// protoField is the Go type of the field of struct t that jsonpb (OrigName) writes as name,
// looking into oneof wrappers too.
func protoField(t reflect.Type, name string) (reflect.Type, bool) {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if protoName(f.Tag.Get("protobuf")) == name {
			return f.Type, true
		}
	}
	w, ok := reflect.New(t).Interface().(interface{ XXX_OneofWrappers() []interface{} })
	if !ok {
		return nil, false
	}
	for _, wrapper := range w.XXX_OneofWrappers() {
		wt := reflect.TypeOf(wrapper).Elem()
		for i := 0; i < wt.NumField(); i++ {
			f := wt.Field(i)
			if protoName(f.Tag.Get("protobuf")) == name {
				return f.Type, true
			}
		}
	}
	return nil, false
}

// protoName is the name= part of a protobuf struct tag ("" when there is none).
func protoName(tag string) string {
	for _, part := range strings.Split(tag, ",") {
		if n, ok := strings.CutPrefix(part, "name="); ok {
			return n
		}
	}
	return ""
}
