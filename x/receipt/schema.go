package receipt

import (
	"errors"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"

	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/x/scoring"
)

// binding ties a receipt name to the value it records: exactly one of dec,
// i64, str or bl is set. A track's schema is a list of bindings; the builders
// format it (build) and the verifier parses into it (bind), so the name, the
// order and the format live in one place.
type binding struct {
	name string
	dec  *decimal.Decimal
	i64  *int64
	str  *string
	bl   *bool
}

func bDec(name string, d *decimal.Decimal) binding { return binding{name: name, dec: d} }
func bInt(name string, n *int64) binding           { return binding{name: name, i64: n} }
func bStr(name string, s *string) binding          { return binding{name: name, str: s} }
func bBool(name string, b *bool) binding           { return binding{name: name, bl: b} }

// text formats the bound value as the app records it: decimals with
// scoring.Format (18 places), integers and booleans with strconv.
func (b binding) text() string { return b.want().text }

// want is the bound value as a recomputed value to compare with.
func (b binding) want() expected {
	switch {
	case b.dec != nil:
		return expDec(*b.dec)
	case b.i64 != nil:
		return expInt(*b.i64)
	case b.bl != nil:
		return expBool(*b.bl)
	default:
		return expected{text: *b.str}
	}
}

// build formats a schema as receipt fields, in its order.
func build(bs []binding) []*subnetv1.Field {
	return buildPrefixed("", bs)
}

// buildPrefixed is build with prefix before every name.
func buildPrefixed(prefix string, bs []binding) []*subnetv1.Field {
	out := make([]*subnetv1.Field, len(bs))
	for i, b := range bs {
		out[i] = &subnetv1.Field{Name: prefix + b.name, Value: b.text()}
	}
	return out
}

// names lists a schema's names.
func names(bs []binding) []string {
	out := make([]string, len(bs))
	for i, b := range bs {
		out[i] = b.name
	}
	return out
}

// field is one {name, value} of a receipt; a missing value is "" (the app's
// JSON omits empty strings, e.g. an empty category).
type field struct {
	Name  string
	Value string
}

// fieldsOf copies proto fields; a nil entry is an empty field.
func fieldsOf(fs []*subnetv1.Field) []field {
	out := make([]field, len(fs))
	for i, f := range fs {
		if f != nil {
			out[i] = field{Name: f.Name, Value: f.Value}
		}
	}
	return out
}

func fieldMap(fs []field) map[string]string {
	m := make(map[string]string, len(fs))
	for _, f := range fs {
		m[f.Name] = f.Value
	}
	return m
}

// bind fills every binding from the section's fields by name. Duplicate,
// unknown and missing names are one *NameError naming them all.
func bind(section string, fs []field, bs []binding) error {
	given := make(map[string]string, len(fs))
	var dups, unknown, missing []string
	known := make(map[string]bool, len(bs))
	for _, b := range bs {
		known[b.name] = true
	}
	for _, f := range fs {
		if _, dup := given[f.Name]; dup {
			dups = append(dups, f.Name)
		}
		given[f.Name] = f.Value
		if !known[f.Name] {
			unknown = append(unknown, f.Name)
		}
	}
	for _, b := range bs {
		if _, ok := given[b.name]; !ok {
			missing = append(missing, b.name)
		}
	}
	if err := nameError(section, dups, unknown, missing); err != nil {
		return err
	}
	for _, b := range bs {
		if err := b.parse(section, given[b.name]); err != nil {
			return err
		}
	}
	return nil
}

// parse sets the bound value from its recorded text.
func (b binding) parse(section, v string) error {
	at := section + "." + b.name
	switch {
	case b.dec != nil:
		d, err := parseValue(v)
		if err != nil {
			return fieldErr(at, err)
		}
		*b.dec = d
	case b.i64 != nil:
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return fieldErrf(at, "%q is not an integer", v)
		}
		*b.i64 = n
	case b.bl != nil:
		if v != "true" && v != "false" {
			return fieldErrf(at, "%q is not true or false", v)
		}
		*b.bl = v == "true"
	default:
		*b.str = v
	}
	return nil
}

// expected is one recomputed value: a decimal (compared numerically) or a text
// (integers and booleans, compared exactly).
type expected struct {
	text  string
	dec   bool
	value decimal.Decimal
}

func expDec(d decimal.Decimal) expected {
	return expected{text: scoring.Format(d), dec: true, value: d}
}
func expInt(n int64) expected   { return expected{text: strconv.FormatInt(n, 10)} }
func expBool(b bool) expected   { return expected{text: strconv.FormatBool(b)} }
func expText(s string) expected { return expected{text: s} }

// maxStoredDigits bounds the integer digits of a receipt value: stored
// values have no input limit (a relative gas overpayment over a tiny minimum
// price reaches 10^33), but a receipt is still untrusted input.
const maxStoredDigits = 60

// parseValue reads a receipt's decimal like scoring.Parse (at most 18
// places), accepting the magnitudes the chain stores beyond scoring's input
// range.
func parseValue(s string) (decimal.Decimal, error) {
	d, err := scoring.Parse(s)
	if !errors.Is(err, scoring.ErrOutOfRange) {
		return d, err
	}
	big, perr := decimal.NewFromString(strings.TrimSpace(s))
	if perr != nil || int64(big.NumDigits())+int64(big.Exponent()) > maxStoredDigits || big.Exponent() < -scoring.Places {
		return d, err
	}
	return big, nil
}
