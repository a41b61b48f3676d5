package offline

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/genesis"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/x/receipt"
)

// ErrNotVerified is wrapped by Receipts' error when a receipt did not verify.
var ErrNotVerified = errors.New("receipt did not verify")

// ReceiptLine is the output for one verified (or refuted) receipt, with
// its commit section: the commit and reveal heights and the duplicate
// verdict (for a duplicate, the keeper's uid and commit height).
type ReceiptLine struct {
	Line                    int                `json:"line"`
	Submission              *uint64            `json:"submission"`
	Track                   string             `json:"track"`
	Verified                bool               `json:"verified"`
	Checked                 int                `json:"checked"`
	Mismatches              []receipt.Mismatch `json:"mismatches"`
	Unchecked               []string           `json:"unchecked,omitempty"`
	CommitHeight            int64              `json:"commit_height"`
	RevealHeight            int64              `json:"reveal_height"`
	Duplicate               bool               `json:"duplicate"`
	DuplicateOfUID          *uint32            `json:"duplicate_of_uid,omitempty"`
	DuplicateOfCommitHeight *int64             `json:"duplicate_of_commit_height,omitempty"`
	NearCopy                bool               `json:"near_copy,omitempty"`
}

// Receipts verifies each line of r, a whole `query submission/<id>` answer or
// just its "receipt" object, with receipt.Verify; a stream of pretty-printed
// answers is read as one answer per line. chain, when set, is the chain
// (genesis.AppState.ReceiptChain) the recorded params and powers must
// equal. The error wraps ErrNotVerified when a receipt did not verify.
func Receipts(r io.Reader, w io.Writer, chain *receipt.Chain) error {
	in, err := CompactJSONStream(r)
	if err != nil {
		return err
	}
	failed := 0
	err = Events(in, w, func(n int, line []byte) ([]any, error) {
		res, err := VerifyLine(n, line, chain)
		if err != nil {
			return nil, err
		}
		if !res.Verified {
			failed++
		}
		return []any{res}, nil
	})
	if err == nil && failed > 0 {
		return fmt.Errorf("%d receipt(s) did not verify: %w", failed, ErrNotVerified)
	}
	if err != nil && failed > 0 {
		return fmt.Errorf("%w; %d receipt(s) did not verify", err, failed)
	}
	return err
}

// VerifyLine verifies one line of Receipts (line number n).
func VerifyLine(n int, line []byte, chain *receipt.Chain) (*ReceiptLine, error) {
	obj, err := decodeObject(line)
	if err != nil {
		return nil, err
	}
	raw := json.RawMessage(line)
	var answer *submissionAnswer
	if _, ok := obj["receipt"]; ok {
		if answer, err = decodeAnswer(line, obj); err != nil {
			return nil, err
		}
		raw = answer.Receipt
		if len(raw) == 0 || bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
			return nil, fmt.Errorf("submission %d has no receipt (status %q)", answer.ID, answer.Status)
		}
	}
	rec, commitFields, err := decodeReceipt(raw)
	if err != nil {
		return nil, err
	}
	in := receipt.Input{Receipt: rec, Commit: commitFields, Chain: chain}
	if answer != nil {
		if in.Answer, err = answerFacts(answer, rec.Track); err != nil {
			return nil, err
		}
	}
	res, err := receipt.Verify(in)
	if err != nil {
		return nil, err
	}
	out := &ReceiptLine{Line: n, Submission: res.Submission, Track: res.Track, Verified: res.Verified,
		Checked: res.Checked, Mismatches: res.Mismatches, Unchecked: res.Unchecked,
		CommitHeight: res.Commit.CommitHeight, RevealHeight: res.Commit.RevealHeight, Duplicate: res.Commit.Duplicate,
		NearCopy: res.Commit.NearCopy}
	if res.Commit.Duplicate {
		uid, h := res.Commit.DuplicateOfUID, res.Commit.DuplicateOfCommitHeight
		out.DuplicateOfUID, out.DuplicateOfCommitHeight = &uid, &h
	}
	return out, nil
}

// decodeReceipt reads a receipt object strictly (an unknown member is an
// error): the receipt and its commit section.
func decodeReceipt(raw []byte) (*subnetv1.Receipt, []*subnetv1.Field, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	var doc wire.ReceiptView
	if err := dec.Decode(&doc); err != nil {
		return nil, nil, fmt.Errorf("receipt: %v", err)
	}
	if dec.More() {
		return nil, nil, fmt.Errorf("receipt: trailing data after the JSON object")
	}
	return &subnetv1.Receipt{Height: doc.Height, Track: doc.Track, Status: doc.Status, ReportedPower: doc.ReportedPower,
		TotalPower: doc.TotalPower, Inputs: protoFields(doc.Inputs), Params: protoFields(doc.Params),
		Values: protoFields(doc.Values), Score: doc.Score, Note: doc.Note}, protoFields(doc.Commit), nil
}

func protoFields(fs []wire.FieldView) []*subnetv1.Field {
	if fs == nil {
		return nil
	}
	out := make([]*subnetv1.Field, len(fs))
	for i, f := range fs {
		out[i] = &subnetv1.Field{Name: f.Name, Value: f.Value}
	}
	return out
}

// CompactJSONStream lets `validatord query submission/N | validatord score receipt` work as it
// reads: when the whole input is a stream of JSON values (pretty-printed answers, one after
// another), each value is re-emitted compacted on its own line, so "line" N in the output is the
// Nth answer. Input that is not such a stream (JSON lines with a malformed line among them) is
// passed through unchanged, so each bad line is still reported by its own number.
func CompactJSONStream(r io.Reader) (io.Reader, error) {
	raw, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	var out bytes.Buffer
	for {
		var v json.RawMessage
		if err := dec.Decode(&v); err == io.EOF {
			return &out, nil
		} else if err != nil {
			return bytes.NewReader(raw), nil
		}
		if err := json.Compact(&out, v); err != nil {
			return bytes.NewReader(raw), nil
		}
		out.WriteByte('\n')
	}
}

// DecodeAppState reads an app_state: the "app_state" member of the object
// when it has one (`query params` output, genesis.json), else the whole object.
func DecodeAppState(bz []byte) (genesis.AppState, error) {
	var wrap struct {
		AppState json.RawMessage `json:"app_state"`
	}
	if err := json.Unmarshal(bz, &wrap); err != nil {
		return genesis.AppState{}, err
	}
	if len(wrap.AppState) > 0 {
		bz = wrap.AppState
	}
	return genesis.Decode(bz)
}
