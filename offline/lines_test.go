package offline

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// Lines: blank lines are skipped but counted, a bad line gets its number
// and error, good lines after it are still scored, and the end result is an error.
func TestLines(t *testing.T) {
	in := "ok 1\n\n  \nbad\r\nok 2" // no final newline, one CRLF
	var out bytes.Buffer
	err := Lines(strings.NewReader(in), &out, func(line []byte) (any, error) {
		if s := string(line); strings.HasPrefix(s, "ok") {
			return map[string]string{"echo": s}, nil
		}
		return nil, errors.New(`cannot score "` + string(line) + `"`)
	})
	want := `{"echo":"ok 1"}` + "\n" + `{"line":4,"error":"cannot score \"bad\""}` + "\n" + `{"echo":"ok 2"}` + "\n"
	if out.String() != want {
		t.Fatalf("output\n%s\nwant\n%s", out.String(), want)
	}
	if err == nil || !strings.Contains(err.Error(), "1 of 5 lines failed") {
		t.Fatalf("err = %v, want 1 of 5 lines failed", err)
	}
}

func TestLinesLongLineAndAllGood(t *testing.T) {
	long := strings.Repeat("x", 300_000)
	var out bytes.Buffer
	err := Lines(strings.NewReader(long+"\n"+long+"\n"), &out, func(line []byte) (any, error) {
		return len(line), nil
	})
	if err != nil || out.String() != "300000\n300000\n" {
		t.Fatalf("err %v, output %q", err, out.String())
	}
}

func TestDecimalAndIntFields(t *testing.T) {
	good := []struct{ raw, want string }{
		{`1.5`, "1.5"}, {`"1.5"`, "1.5"}, {`0.000000000000000001`, "0.000000000000000001"}, {`"7"`, "7"},
		{`1e-18`, "0.000000000000000001"}, {`12345678901234567890.123456789012345678`, "12345678901234567890.123456789012345678"},
	}
	for _, g := range good {
		d, err := decimalField("f", []byte(g.raw))
		if err != nil || d.String() != g.want {
			t.Errorf("decimalField(%s) = %s, %v; want %s", g.raw, d.String(), err, g.want)
		}
	}
	for _, raw := range []string{`0.0000000000000000001`, `"0.1234567890123456789"`, `true`, `null`, `"abc"`, `[1]`, `{}`, `"1e40"`} {
		if _, err := decimalField("quality", []byte(raw)); err == nil || !strings.HasPrefix(err.Error(), "quality: ") {
			t.Errorf("decimalField(%s): err = %v, want an error naming the field", raw, err)
		}
	}
	for raw, want := range map[string]int64{`3`: 3, `"3"`: 3, `1e3`: 1000, `-2`: -2, `3.0`: 3} {
		if v, err := intField("n", []byte(raw)); err != nil || v != want {
			t.Errorf("intField(%s) = %d, %v; want %d", raw, v, err, want)
		}
	}
	for _, raw := range []string{`3.5`, `"x"`, `99999999999999999999`, `null`} {
		if _, err := intField("steps", []byte(raw)); err == nil || !strings.HasPrefix(err.Error(), "steps: ") {
			t.Errorf("intField(%s): err = %v, want an error naming the field", raw, err)
		}
	}
}
