package genesis

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// PositionError is a JSON error at a place in a document: the line and
// column (both from 1, the column in bytes) of the byte where the decoder
// stopped.
type PositionError struct {
	Line, Column int
	Err          error
}

func (e *PositionError) Error() string {
	return fmt.Sprintf("line %d, column %d: %v", e.Line, e.Column, e.Err)
}

func (e *PositionError) Unwrap() error { return e.Err }

// At places a JSON syntax or type error of doc at its line and column; any
// other error (nil included) is returned as it is.
func At(doc []byte, err error) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	var off int64
	switch {
	case errors.As(err, &se):
		off = se.Offset
	case errors.As(err, &te):
		off = te.Offset
	default:
		return err
	}
	line, col := Position(doc, off)
	return &PositionError{Line: line, Column: col, Err: err}
}

// Position is the line and column of byte offset off of doc. A decoder's
// offset is just past the byte it stopped at, so the column counts it.
func Position(doc []byte, off int64) (line, col int) {
	off = min(max(off, 0), int64(len(doc)))
	before := doc[:off]
	line = bytes.Count(before, []byte{'\n'}) + 1
	col = int(off) - (bytes.LastIndexByte(before, '\n') + 1)
	return line, max(col, 1)
}

// CheckSyntax reports the first JSON syntax error of a whole document (a
// genesis.json) with its line and column; nil when doc is valid JSON.
func CheckSyntax(doc []byte) error {
	var v json.RawMessage
	if err := json.Unmarshal(doc, &v); err != nil {
		return At(doc, err)
	}
	return nil
}
