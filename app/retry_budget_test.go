package app

import (
	"bytes"
	"crypto/ed25519"
	"fmt"
	"strings"
	"testing"

	"github.com/scoringsubnet/validatord/app/kernel"
	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// The workflow retry budget used to be the miner's word. With 50
// retries measured, a miner declaring 0 scored 0.7575 and one declaring
// 10^12 scored 0.8575. The seed derives the budget from the workflow's own
// retry_count values, which validators read: it is now a measured field of
// their reports, aggregated by power-weighted median like the others.

// budgetM is a measurement with 50 retries of a workflow whose retry_count
// values sum to budget.
func budgetM(budget int64) *subnetv1.WorkflowMeasurement {
	m := workflowM()
	m.Retries, m.DeclaredRetryBudget = 50, budget
	return m
}

// v1WorkflowSubmit is a workflow Submit as a client of the v1 format encodes
// it: Msg.submit (field 3) of WorkflowSubmit{task_id, declared_retry_budget
// (field 2), artifact_hash}; with budget 0, as a v2 client encodes it. Its
// bytes are built by hand because neither field exists any more.
func v1WorkflowSubmit(task uint64, budget int64, hash []byte) []byte {
	return appendBytesField(nil, 3, craWorkflowSubmitRaw(task, budget, hash)) // Msg.submit{workflow}
}

// craWorkflowSubmitRaw is the MsgSubmit of a workflow in the v1 encoding:
// MsgSubmit.workflow (field 1) of WorkflowSubmit{task_id, declared_retry_budget
// (field 2, omitted when 0), artifact_hash}; with budget 0 it is this
// format's encoding.
func craWorkflowSubmitRaw(task uint64, budget int64, hash []byte) []byte {
	var ws []byte
	if task != 0 {
		ws = appendVarintField(ws, 1, uint64(task))
	}
	if budget != 0 {
		ws = appendVarintField(ws, 2, uint64(budget))
	}
	ws = appendBytesField(ws, 3, hash)
	return appendBytesField(nil, 1, ws)
}

// craRevealRaw is Msg.reveal (field 7) of MsgReveal{submit (the raw
// MsgSubmit), salt}.
func craRevealRaw(submit, salt []byte) []byte {
	return appendBytesField(nil, 7, appendBytesField(appendBytesField(nil, 1, submit), 2, salt))
}

func appendVarint(b []byte, v uint64) []byte {
	for v >= 0x80 {
		b = append(b, byte(v)|0x80)
		v >>= 7
	}
	return append(b, byte(v))
}

func appendVarintField(b []byte, field int, v uint64) []byte {
	return appendVarint(appendVarint(b, uint64(field)<<3), v)
}

func appendBytesField(b []byte, field int, v []byte) []byte {
	b = appendVarint(appendVarint(b, uint64(field)<<3|2), uint64(len(v)))
	return append(b, v...)
}

// signRawMsg signs a TxBody whose msg (field 4) is the given bytes, over
// domain ‖ body, with the signer's next nonce.
func (s *signer) signRawMsg(t *testing.T, domain string, msg []byte) []byte {
	t.Helper()
	head, err := (&subnetv1.TxBody{ChainId: testChainID, Sender: s.pub(), Nonce: s.nonce}).Marshal()
	if err != nil {
		t.Fatal(err)
	}
	body := appendBytesField(head, 4, msg)
	sig := ed25519.Sign(s.key, append([]byte(domain), body...))
	out, err := (&subnetv1.Tx{Body: body, Signature: sig}).Marshal()
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestMinerCannotDeclareRetryBudget is the finding. A miner that sends the
// budget field of the old format (10^12, signed for this chain) is refused
// and changes nothing, whether as the plaintext Submit of the v1 and v2
// formats or inside a reveal of its commit; two miners whose workflows
// the validators measure identically (50 retries, budget 0) score the
// same 0.7575, whoever they are and whatever they would have declared.
func TestMinerCannotDeclareRetryBudget(t *testing.T) {
	n := newNode(t, "", testGenesis(3))
	a, b := newMiner("miner-a", 1), newMiner("miner-b", 2)
	r := []*signer{reporter(0), reporter(1), reporter(2)}
	// task 0: commits h1..h2, reveal h3, reports h4..h6
	mustOK(t, n.block(a.tx(t, msgRegister()), b.tx(t, msgRegister()), r[0].tx(t, msgWorkflowTask(4, 1, 3))))
	pa, pb := wfPayloadOf(a, 0), wfPayloadOf(b, 0)
	mustOK(t, n.block(a.commit(t, pa), b.commit(t, pb)))

	// h3, the reveal window: a's artifact and salt, with the budget field
	salt := a.salt(pa)
	for _, tc := range []struct {
		name string
		msg  []byte
	}{
		{"plaintext submit", v1WorkflowSubmit(0, 1_000_000_000_000, artifact("declared"))},
		{"reveal", craRevealRaw(craWorkflowSubmitRaw(0, 1_000_000_000_000, pa.GetWorkflow().ArtifactHash), salt[:])},
	} {
		declared := a.signRawMsg(t, wire.SignDomain, tc.msg)
		resp := finalizeOnly(t, n, n.height+1, [][]byte{declared})
		if got := resp.TxResults[0].Code; got != wire.CodeNonCanonical {
			t.Fatalf("a %s declaring a retry budget: code %d (%s) %s, want %d (non_canonical): the field is gone",
				tc.name, got, wire.CodeName(got), resp.TxResults[0].Log, wire.CodeNonCanonical)
		}
	}
	// the same reveal without the field is the one the commitment opens
	if raw := craRevealRaw(craWorkflowSubmitRaw(0, 0, pa.GetWorkflow().ArtifactHash), salt[:]); !bytes.Equal(raw, mustMarshal(t, client.Reveal(pa, salt))) {
		t.Fatalf("the hand-built reveal is not the client's: the refusal above proves nothing")
	}

	mustOK(t, n.block(a.reveal(t, pa), b.reveal(t, pb)))
	var txs [][]byte
	for _, v := range r {
		txs = append(txs, v.tx(t, msgWorkflowReport(0, budgetM(0))), v.tx(t, msgWorkflowReport(1, budgetM(0))))
	}
	mustOK(t, n.block(txs...))
	// 0.5×0.9 + 0.25×(1 − 0.5/2) + 0.15×(1 − 20/100) + 0.10×max(0, 1 − 50×0.1) = 0.7575
	for id := range 2 {
		sub, _ := n.query(fmt.Sprint("submission/", id))
		if sub["status"] != kernel.StatusScored || score(sub) != "0.757500000000000000" {
			t.Fatalf("submission %d = %v, want scored 0.7575", id, sub)
		}
		if _, ok := sub["declared_retry_budget"]; ok {
			t.Fatalf("submission %d still shows a miner-declared budget: %v", id, sub)
		}
		if got := receiptInput(sub, "declared_retry_budget"); got != "0" {
			t.Fatalf("submission %d: receipt input declared_retry_budget = %q, want the validators' 0", id, got)
		}
	}
}

// TestRetryBudgetMinorityCannotMove: four validators of power 10; honest
// ones read the workflow's budget (2, 49 or 50) from it, a rogue one reports
// 0 or 10^12. The power-weighted median is the honest budget and the score
// the honest one: with 50 retries, 0.5×0.9 + 0.25×0.75 + 0.15×0.8 = 0.7575
// plus 0.10×max(0, 1 − (50 − budget)×0.1): 0 for budget 2, 0.09 for 49, 0.1
// for 50.
func TestRetryBudgetMinorityCannotMove(t *testing.T) {
	for _, tc := range []struct {
		name          string
		honest, rogue int64
		want          string
	}{
		{"rogue 10^12 over honest 2", 2, 1_000_000_000_000, "0.757500000000000000"},
		{"rogue 10^12 over honest 49", 49, 1_000_000_000_000, "0.847500000000000000"},
		{"rogue 0 under honest 49", 49, 0, "0.847500000000000000"},
		{"rogue 0 under honest 50", 50, 0, "0.857500000000000000"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := newNode(t, "", testGenesis(4))
			a, r := newMiner("miner-a", 1), []*signer{reporter(0), reporter(1), reporter(2), reporter(3)}
			// commits h1..h2, the reveal at h3, reports from h4
			mustOK(t, n.block(a.tx(t, msgRegister()), r[0].tx(t, msgWorkflowTask(4, 1, 3))))
			p := wfPayload(0)
			mustOK(t, n.block(a.commit(t, p)))
			mustOK(t, n.block(a.reveal(t, p)))
			// the rogue reports first; two honest votes after it make 30 of
			// 40, a quorum, and the rogue's vote is one of the three medians
			txs := [][]byte{r[3].tx(t, msgWorkflowReport(0, budgetM(tc.rogue)))}
			for _, v := range r[:2] {
				txs = append(txs, v.tx(t, msgWorkflowReport(0, budgetM(tc.honest))))
			}
			mustOK(t, n.block(txs...))
			sub, _ := n.query("submission/0")
			if sub["status"] != kernel.StatusScored || score(sub) != tc.want {
				t.Fatalf("submission 0 = %v, want scored %s", sub, tc.want)
			}
			if got, want := receiptInput(sub, "declared_retry_budget"), kernel.I64s(tc.honest); got != want {
				t.Fatalf("receipt input declared_retry_budget = %q, want the honest %s", got, want)
			}
		})
	}
}

// TestV1ClientRejected: a client of an older format signs over its own
// domain, "validatord/tx/v1\0" or "validatord/tx/v2\0": its transactions,
// even a commit that would be valid here, fail the signature (code 5) with
// a log that names v3 and says to upgrade. The plaintext Submit both older
// formats sent no longer decodes (Msg field 3 is gone: code 3), with or
// without the v1 budget, whichever domain signs it.
func TestV1ClientRejected(t *testing.T) {
	n := newNode(t, "", testGenesis(3))
	b := newMiner("miner-b", 1)
	r := []*signer{reporter(0), reporter(1), reporter(2)}
	// h1: b is uid 1, task 0 takes commits to h11, EVM chain 1 is anchored at 99
	mustOK(t, n.block(append([][]byte{b.tx(t, msgRegister()), r[0].tx(t, msgWorkflowTask(4, 10, 10))},
		anchorTxs(t, r, 1, 99, 1_700_000_001)...)...))
	commitOf := func(p *subnetv1.MsgSubmit) []byte {
		m, err := client.Commit(testChainID, b.pub(), b.uid, p, b.salt(p))
		if err != nil {
			t.Fatal(err)
		}
		return mustMarshal(t, m)
	}
	for _, domain := range []string{"validatord/tx/v1\x00", "validatord/tx/v2\x00"} {
		for _, tc := range []struct {
			name string
			msg  []byte
			// old: the code signed over the old domain; now: signed over this format's
			old, now uint32
		}{
			{"gas commit", commitOf(gasPayload(1, 100, "5")), wire.CodeBadSignature, wire.CodeOK},
			{"workflow commit", commitOf(wfPayloadOf(b, 0)), wire.CodeBadSignature, wire.CodeOK},
			{"plaintext workflow submit, budget 0", v1WorkflowSubmit(0, 0, artifact("v1")), wire.CodeNonCanonical, wire.CodeNonCanonical},
			{"plaintext workflow submit, budget 2", v1WorkflowSubmit(0, 2, artifact("v1")), wire.CodeNonCanonical, wire.CodeNonCanonical},
		} {
			t.Run(strings.TrimSuffix(domain, "\x00")+" "+tc.name, func(t *testing.T) {
				raw := b.signRawMsg(t, domain, tc.msg)
				resp := finalizeOnly(t, n, n.height+1, [][]byte{raw})
				got := resp.TxResults[0]
				if got.Code != tc.old {
					t.Fatalf("code %d (%s) %s, want %d", got.Code, wire.CodeName(got.Code), got.Log, tc.old)
				}
				if tc.old == wire.CodeNonCanonical && !strings.Contains(got.Log, "commit and reveal") {
					t.Fatalf("log %q does not say that a Submit is now a commit and a reveal", got.Log)
				}
				if tc.old == wire.CodeBadSignature {
					if got.Log != "bad_signature: "+wire.BadSignatureLog || !strings.Contains(got.Log, `"validatord/tx/v3\0"`) ||
						!strings.Contains(got.Log, "upgrade the client") {
						t.Fatalf("log %q does not name v3 and tell the client to upgrade", got.Log)
					}
				}
				// the same message signed for this format
				cur := finalizeOnly(t, n, n.height+1, [][]byte{b.signRawMsg(t, wire.SignDomain, tc.msg)})
				if c := cur.TxResults[0]; c.Code != tc.now {
					t.Fatalf("signed for %q: code %d (%s) %s, want %d", wire.SignDomain, c.Code, wire.CodeName(c.Code), c.Log, tc.now)
				}
			})
		}
	}
}

func mustMarshal(t *testing.T, m *subnetv1.Msg) []byte {
	t.Helper()
	bz, err := m.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	return bz
}

// receiptInput is the named input of a submission answer's receipt.
func receiptInput(sub map[string]any, name string) string {
	rec, _ := sub["receipt"].(map[string]any)
	ins, _ := rec["inputs"].([]any)
	for _, f := range ins {
		if m, _ := f.(map[string]any); m["name"] == name {
			s, _ := m["value"].(string)
			return s
		}
	}
	return ""
}
