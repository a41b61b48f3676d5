package app

import (
	"bytes"
	"encoding/json"
	"reflect"
	"sort"
	"strings"
)

// fullJSON turns a query answer into a tree that encoding/json renders with
// every field present: the wire types' `omitempty` tags are ignored, so zero
// values appear as 0, "", false, [] and {} (a nil pointer as null). Struct
// fields keep their declaration order and json names; proto bookkeeping
// fields (XXX_*, oneof wrappers) are left out; values that marshal
// themselves (json.RawMessage, decimals) are kept as they are.
func fullJSON(v any) any {
	if v == nil {
		return nil
	}
	return fullValue(reflect.ValueOf(v))
}

var marshalerType = reflect.TypeOf((*json.Marshaler)(nil)).Elem()

func fullValue(v reflect.Value) any {
	if v.Type().Implements(marshalerType) && (v.Kind() != reflect.Pointer || !v.IsNil()) {
		return v.Interface()
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return nil
		}
		return fullValue(v.Elem())
	case reflect.Struct:
		return fullStruct(v)
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return v.Bytes() // base64, as encoding/json renders bytes ("" when empty)
		}
		out := make([]any, v.Len())
		for i := range out {
			out[i] = fullValue(v.Index(i))
		}
		return out
	case reflect.Array:
		out := make([]any, v.Len())
		for i := range out {
			out[i] = fullValue(v.Index(i))
		}
		return out
	case reflect.Map:
		return fullMap(v)
	}
	return v.Interface()
}

func fullStruct(v reflect.Value) jsonObject {
	t := v.Type()
	out := jsonObject{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() || strings.HasPrefix(f.Name, "XXX_") || f.Tag.Get("protobuf_oneof") != "" {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out = append(out, jsonField{name, fullValue(v.Field(i))})
	}
	return out
}

// fullMap renders a map with string keys in key order (as encoding/json does).
func fullMap(v reflect.Value) jsonObject {
	keys := make([]string, 0, v.Len())
	vals := make(map[string]reflect.Value, v.Len())
	iter := v.MapRange()
	for iter.Next() {
		k := iter.Key().String()
		keys = append(keys, k)
		vals[k] = iter.Value()
	}
	sort.Strings(keys)
	out := make(jsonObject, len(keys))
	for i, k := range keys {
		out[i] = jsonField{k, fullValue(vals[k])}
	}
	return out
}

type jsonField struct {
	key string
	val any
}

// jsonObject is a JSON object whose keys keep their order.
type jsonObject []jsonField

func (o jsonObject) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, f := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, err := json.Marshal(f.key)
		if err != nil {
			return nil, err
		}
		v, err := json.Marshal(f.val)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}
