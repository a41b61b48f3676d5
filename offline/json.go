package offline

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/scoringsubnet/validatord/x/scoring"
)

// jsonObject is one JSON object's members, kept raw so numbers never pass through float64.
type jsonObject map[string]json.RawMessage

// decodeObject reads one JSON object. Anything else (an array, a number, two
// values on one line) is an error.
func decodeObject(raw []byte) (jsonObject, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var f jsonObject
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("not a JSON object: %v", err)
	}
	if f == nil {
		return nil, fmt.Errorf("not a JSON object: null")
	}
	if dec.More() {
		return nil, fmt.Errorf("trailing data after the JSON object")
	}
	return f, nil
}

// only rejects members other than the allowed names (a typo must not silently
// become a default).
func (f jsonObject) only(allowed ...string) error {
	ok := make(map[string]bool, len(allowed))
	for _, a := range allowed {
		ok[a] = true
	}
	var unknown []string
	for k := range f {
		if !ok[k] {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	sort.Strings(unknown)
	return fmt.Errorf("unknown field(s) %s", strings.Join(unknown, ", "))
}

// decimal reads a required decimal member.
func (f jsonObject) decimal(name string) (decimal.Decimal, error) {
	raw, ok := f[name]
	if !ok {
		return scoring.Zero, fmt.Errorf("%s: missing", name)
	}
	return decimalField(name, raw)
}

// int64 reads a required integer member.
func (f jsonObject) int64(name string) (int64, error) {
	raw, ok := f[name]
	if !ok {
		return 0, fmt.Errorf("%s: missing", name)
	}
	return intField(name, raw)
}

// object reads a required nested object member.
func (f jsonObject) object(name string) (jsonObject, error) {
	raw, ok := f[name]
	if !ok {
		return nil, fmt.Errorf("%s: missing", name)
	}
	sub, err := decodeObject(raw)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	return sub, nil
}

// str reads a required string member.
func (f jsonObject) str(name string) (string, error) {
	raw, ok := f[name]
	if !ok {
		return "", fmt.Errorf("%s: missing", name)
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", fmt.Errorf("%s: want a string, got %s", name, raw)
	}
	return s, nil
}

// decimalField reads a JSON number or a JSON string holding a decimal with at
// most 18 places into a decimal; the error names the field. The number's text
// is parsed directly, never through float64.
func decimalField(name string, raw json.RawMessage) (decimal.Decimal, error) {
	text, err := numberText(raw)
	if err != nil {
		return scoring.Zero, fmt.Errorf("%s: %v", name, err)
	}
	d, err := scoring.Parse(text)
	if err != nil {
		return scoring.Zero, fmt.Errorf("%s: %w", name, err)
	}
	return d, nil
}

// intField reads a JSON number or string holding an integer that fits int64.
func intField(name string, raw json.RawMessage) (int64, error) {
	d, err := decimalField(name, raw)
	if err != nil {
		return 0, err
	}
	if !d.IsInteger() {
		return 0, fmt.Errorf("%s: %s is not an integer", name, d.String())
	}
	if !d.BigInt().IsInt64() {
		return 0, fmt.Errorf("%s: %s does not fit in int64", name, d.String())
	}
	return d.IntPart(), nil
}

// numberText returns the text of a JSON number or of a JSON string.
func numberText(raw json.RawMessage) (string, error) {
	t := bytes.TrimSpace(raw)
	if len(t) > 0 && t[0] == '"' {
		var s string
		if err := json.Unmarshal(t, &s); err != nil {
			return "", fmt.Errorf("bad string %s", t)
		}
		return s, nil
	}
	dec := json.NewDecoder(bytes.NewReader(t))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return "", fmt.Errorf("want a number, got %s", t)
	}
	n, ok := v.(json.Number)
	if !ok {
		return "", fmt.Errorf("want a number or a numeric string, got %s", t)
	}
	return n.String(), nil
}

// optionalString reads a string member that may be absent ("" then).
func optionalString(obj jsonObject, name string) (string, error) {
	if _, ok := obj[name]; !ok {
		return "", nil
	}
	return obj.str(name)
}
