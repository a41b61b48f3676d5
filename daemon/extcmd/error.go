package extcmd

import (
	"fmt"
	"strings"
)

// Reasons an *Error gives for a failed run.
const (
	ReasonStart          = "start"
	ReasonExit           = "exit"
	ReasonTimeout        = "timeout"
	ReasonOutputTooLarge = "output_too_large"
	// ReasonCanceled: the caller's ctx ended (canceled, or its own
	// deadline passed) before the command finished.
	ReasonCanceled = "canceled"
)

// Error is a failed run of a Command.
type Error struct {
	Argv []string
	// Reason is one of the Reason constants.
	Reason string
	// ExitCode is the exit status for ReasonExit, -1 otherwise.
	ExitCode int
	// Stderr is the last 2 KiB (at most) of what the command wrote to stderr.
	Stderr string
	// Err is the underlying error, if any (e.g. the start failure).
	Err error
}

func (e *Error) Unwrap() error { return e.Err }

func (e *Error) Error() string {
	name := strings.Join(e.Argv, " ")
	var b strings.Builder
	fmt.Fprintf(&b, "command %q failed: %s", name, e.Reason)
	switch e.Reason {
	case ReasonStart:
		if e.Err != nil {
			fmt.Fprintf(&b, " (%v)", e.Err)
		}
		b.WriteString("; check that the program exists, is executable and its path is right")
	case ReasonExit:
		if e.ExitCode >= 0 {
			fmt.Fprintf(&b, " with status %d", e.ExitCode)
		} else {
			b.WriteString(" (killed by a signal)")
		}
		b.WriteString("; run the command by hand with the same stdin to see why it fails")
	case ReasonTimeout:
		b.WriteString("; it ran past its time limit and was killed: make it faster or raise the timeout")
	case ReasonOutputTooLarge:
		b.WriteString("; it wrote more to stdout than allowed and was killed: make its output smaller or raise the output limit")
	case ReasonCanceled:
		b.WriteString("; the daemon stopped waiting for it (shutting down) and killed it")
	}
	if last := lastLine(e.Stderr); last != "" {
		fmt.Fprintf(&b, "; stderr: %s", last)
	}
	return b.String()
}

// lastLine returns the last non-blank line of s, trimmed.
func lastLine(s string) string {
	s = strings.TrimRight(s, " \t\r\n")
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	return strings.TrimSpace(s)
}
