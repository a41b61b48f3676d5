package extcmd

import (
	"errors"
	"fmt"
	"strings"
)

// ErrEmpty is returned by Parse for a line that holds no words.
var ErrEmpty = errors.New("extcmd: empty command line")

// ParseError reports a command line that cannot be split, such as one with
// an unterminated quote.
type ParseError struct {
	Line   string
	Reason string
}

func (e *ParseError) Error() string {
	return fmt.Sprintf("extcmd: cannot split command line %q: %s", e.Line, e.Reason)
}

// Parse splits a command line into a Command's Argv without invoking a shell.
// Words are separated by whitespace; '…' quotes everything literally; "…"
// quotes with backslash escapes (\" \\ and any other escaped character stand
// for themselves); outside quotes a backslash escapes the next character.
// Quotes may join parts of one word, as in a shell: pre'fix'"ed" is one word.
// An empty line (only whitespace) is ErrEmpty.
func Parse(line string) (Command, error) {
	var (
		args   []string
		cur    strings.Builder
		inWord bool
		rs     = []rune(line)
	)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\v' || r == '\f':
			if inWord {
				args = append(args, cur.String())
				cur.Reset()
				inWord = false
			}
		case r == '\'':
			inWord = true
			j := i + 1
			for j < len(rs) && rs[j] != '\'' {
				cur.WriteRune(rs[j])
				j++
			}
			if j == len(rs) {
				return Command{}, &ParseError{Line: line, Reason: "unterminated single quote"}
			}
			i = j
		case r == '"':
			inWord = true
			j := i + 1
			for ; j < len(rs) && rs[j] != '"'; j++ {
				if rs[j] == '\\' {
					if j+1 == len(rs) {
						break
					}
					j++
				}
				cur.WriteRune(rs[j])
			}
			if j >= len(rs) {
				return Command{}, &ParseError{Line: line, Reason: "unterminated double quote"}
			}
			i = j
		case r == '\\':
			if i+1 == len(rs) {
				return Command{}, &ParseError{Line: line, Reason: "trailing backslash"}
			}
			inWord = true
			i++
			cur.WriteRune(rs[i])
		default:
			inWord = true
			cur.WriteRune(r)
		}
	}
	if inWord {
		args = append(args, cur.String())
	}
	if len(args) == 0 {
		return Command{}, ErrEmpty
	}
	return Command{Argv: args}, nil
}
