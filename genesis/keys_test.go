package genesis

import (
	"encoding/json"
	"errors"
	"regexp"
	"strings"
	"testing"
)

// TestGenesisKeysAreSnakeCase: every key the genesis (and so the stored
// params and a params patch) is written with is snake_case, the chain's,
// validators' and tracks' as much as the seeds' constants (the
// genesis mixed max_tx_bytes with WSuccess).
func TestGenesisKeysAreSnakeCase(t *testing.T) {
	g := valid()
	g.Mirror = &MirrorParams{} // the optional section too
	bz, err := g.Encode()
	if err != nil {
		t.Fatal(err)
	}
	var doc any
	if err := json.Unmarshal(bz, &doc); err != nil {
		t.Fatal(err)
	}
	snake := regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)
	var walk func(v any, path string)
	walk = func(v any, path string) {
		switch v := v.(type) {
		case map[string]any:
			for k, e := range v {
				if !snake.MatchString(k) {
					t.Errorf("%s.%s: not snake_case", path, k)
				}
				walk(e, path+"."+k)
			}
		case []any:
			for _, e := range v {
				walk(e, path+"[]")
			}
		}
	}
	walk(doc, "app_state")
}

// TestOldKeysRefusedWithAHint: a genesis or a params patch written with the
// keys the genesis used to have (the Go field names) or with a key in the
// wrong case — which encoding/json alone would take, since it matches keys
// case-insensitively — is refused, naming the key, its line and column, and
// the key to write.
func TestOldKeysRefusedWithAHint(t *testing.T) {
	bz, err := valid().Encode()
	if err != nil {
		t.Fatal(err)
	}
	doc := string(bz)
	line := func(key string) int { // the line of the first `"key":` in doc
		return strings.Count(doc[:strings.Index(doc, `"`+key+`":`)], "\n") + 1
	}
	cases := []struct {
		name, from, to, field, want string
		line                        int
	}{
		{"a seed constant's old name", `"w_success"`, `"WSuccess"`, "app_state.workflow.WSuccess", `write "w_success"`, line("w_success")},
		{"a window param's old name", `"window_size"`, `"WindowSize"`, "app_state.window.WindowSize", `write "window_size"`, line("window_size")},
		{"inside an array of objects", `"multiplier"`, `"Multiplier"`, "app_state.arena.difficulties[0].Multiplier", `write "multiplier"`, line("multiplier")},
		{"upper case, which encoding/json would take", `"cap"`, `"CAP"`, "app_state.window.CAP", `write "cap"`, line("cap")},
		{"a chain key with its underscore dropped", `"max_uids"`, `"maxuids"`, "app_state.chain.maxuids", `write "max_uids"`, line("max_uids")},
		{"a key nobody had", `"gate"`, `"threshold"`, "app_state.workflow.threshold", "this object's keys are failure_penalty, gate, retry_penalty", line("gate")},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := strings.Replace(doc, c.from, c.to, 1)
			if in == doc {
				t.Fatalf("%s is not in the genesis", c.from)
			}
			_, err := Decode([]byte(in))
			var fe *FieldError
			if !errors.As(err, &fe) || !errors.Is(err, ErrInvalidGenesis) {
				t.Fatalf("want a *FieldError, got %v", err)
			}
			if fe.Field != c.field || !strings.Contains(fe.Reason, c.want) {
				t.Fatalf("got %v\nwant field %s and %q", err, c.field, c.want)
			}
			// the key's opening quote: its line, and the column of the quote on it
			wantCol := strings.Index(strings.Split(in, "\n")[c.line-1], c.to) + 1
			if want := "line " + itoa(c.line) + ", column " + itoa(wantCol) + ":"; !strings.Contains(fe.Reason, want) {
				t.Fatalf("got %v\nwant %q", err, want)
			}
		})
	}

	t.Run("a params patch", func(t *testing.T) {
		base := valid()
		for patch, want := range map[string]string{
			`{"window":{"Cap":"0.2"}}`:                        `params.window.Cap = (key): line 1, column 12: unknown key: genesis and params keys are snake_case, write "cap"`,
			`{"workflow":{"w_success":"0.4","WCost":"0.35"}}`: `params.workflow.WCost = (key): line 1, column 32: unknown key: genesis and params keys are snake_case, write "w_cost"`,
		} {
			_, err := Upgrade(base.Params(), []byte(patch), base.Validators)
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%s: got %v, want %q", patch, err, want)
			}
		}
		if _, err := Upgrade(base.Params(), []byte(`{"window":{"cap":"0.2"}}`), base.Validators); err != nil {
			t.Fatalf("the snake_case patch: %v", err)
		}
	})

	t.Run("syntax errors stay the decoder's", func(t *testing.T) {
		in := strings.Replace(doc, `"w_success": "0.5"`, `"WSuccess" "0.5"`, 1)
		_, err := Decode([]byte(in))
		var pe *PositionError
		if err == nil || !strings.Contains(err.Error(), "invalid character") || errors.As(err, &pe) && pe.Line == 0 {
			t.Fatalf("got %v, want the decoder's syntax error", err)
		}
	})
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }
