package offline

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// LineError is the output for a line that could not be scored.
type LineError struct {
	Line  int    `json:"line"`
	Error string `json:"error"`
}

// MaxLine bounds one input line (16 MiB), so a runaway input fails instead of exhausting memory.
const MaxLine = 16 << 20

// Lines reads JSON lines from r, calls handle for each non-blank line,
// writes the returned value to w as one JSON line, or {"line": N, "error":
// "..."} on error (N counts every line from 1, blank ones included), and
// returns a non-nil error at the end if any line failed, so good lines are
// still scored.
func Lines(r io.Reader, w io.Writer, handle func(line []byte) (any, error)) error {
	return Events(r, w, func(_ int, line []byte) ([]any, error) {
		v, err := handle(line)
		if err != nil {
			return nil, err
		}
		return []any{v}, nil
	})
}

// Events is Lines for handlers that write any number of JSON lines per
// input line (none for some, several for others); handle gets the line's
// number too.
func Events(r io.Reader, w io.Writer, handle func(n int, line []byte) ([]any, error)) error {
	br := bufio.NewReaderSize(r, 64<<10)
	n, failed := 0, 0
	for {
		line, readErr := readLine(br)
		if readErr != nil && !errors.Is(readErr, io.EOF) {
			return fmt.Errorf("reading line %d: %w", n+1, readErr)
		}
		if line != nil {
			n++
			if len(bytes.TrimSpace(line)) > 0 {
				if !emitLines(w, n, line, handle) {
					failed++
				}
			}
		}
		if readErr != nil {
			break
		}
	}
	if failed > 0 {
		return fmt.Errorf("%d of %d lines failed", failed, n)
	}
	return nil
}

// readLine returns the next line without its terminator, nil at a clean end of input.
func readLine(r *bufio.Reader) ([]byte, error) {
	var buf []byte
	for {
		chunk, err := r.ReadSlice('\n')
		buf = append(buf, chunk...)
		if len(buf) > MaxLine {
			return nil, fmt.Errorf("line longer than %d bytes", MaxLine)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err != nil && len(buf) == 0 {
			return nil, err
		}
		return bytes.TrimRight(buf, "\r\n"), err
	}
}

// emitLines handles one line and writes its results, or its error, as JSON
// lines; it reports whether the line succeeded. Output is encoded in full
// before anything is written, so a line never leaves half its output.
func emitLines(w io.Writer, n int, line []byte, handle func(int, []byte) ([]any, error)) bool {
	vs, err := handle(n, line)
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	for _, v := range vs {
		if err != nil {
			break
		}
		err = enc.Encode(v)
	}
	if err != nil {
		out.Reset()
		_ = enc.Encode(LineError{Line: n, Error: err.Error()})
	}
	_, _ = w.Write(out.Bytes())
	return err == nil
}
