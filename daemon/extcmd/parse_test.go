package extcmd

import (
	"errors"
	"slices"
	"testing"
)

func TestParse(t *testing.T) {
	for _, c := range []struct {
		line string
		want []string
	}{
		{"solver", []string{"solver"}},
		{"  ./solver   -quality 0.5\t", []string{"./solver", "-quality", "0.5"}},
		{`sh -c 'echo "hi there" | cat'`, []string{"sh", "-c", `echo "hi there" | cat`}},
		{`say "a \"quoted\" word" 'it\'`, []string{"say", `a "quoted" word`, `it\`}},
		{`say "back\\slash" "\n"`, []string{"say", `back\slash`, "n"}},
		{`pre'fix'"ed" x`, []string{"prefixed", "x"}},
		{`a\ b c`, []string{"a b", "c"}},
		{`'' ""`, []string{"", ""}},
		{"über ñ", []string{"über", "ñ"}},
	} {
		cmd, err := Parse(c.line)
		if err != nil {
			t.Errorf("Parse(%q): %v", c.line, err)
			continue
		}
		if !slices.Equal(cmd.Argv, c.want) {
			t.Errorf("Parse(%q) = %q, want %q", c.line, cmd.Argv, c.want)
		}
	}
}

func TestParseRefuses(t *testing.T) {
	for _, line := range []string{"", "   \t\n"} {
		if _, err := Parse(line); !errors.Is(err, ErrEmpty) {
			t.Errorf("Parse(%q) = %v, want ErrEmpty", line, err)
		}
	}
	for _, line := range []string{`a 'b`, `a "b`, `a "b\"`, `a\`} {
		var pe *ParseError
		if _, err := Parse(line); !errors.As(err, &pe) {
			t.Errorf("Parse(%q) = %v, want a *ParseError", line, err)
		}
	}
}
