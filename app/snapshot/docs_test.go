package snapshot

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// verdictRow is the line of docs/statesync.md that documents a verdict.
func verdictRow(v verdict) string {
	apply := v.Apply.String()
	if v.Refetch {
		apply += ", refetch the chunk"
	}
	if v.RejectSender {
		apply += ", reject its sender"
	}
	return fmt.Sprintf("| `%s` | %s | %s | %s |", v.Name, v.Offer, apply, v.Doc)
}

// TestVerdictsDocumented: docs/statesync.md lists the verdicts table as it is.
func TestVerdictsDocumented(t *testing.T) {
	bz, err := os.ReadFile("../../docs/statesync.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(bz)
	for _, v := range verdicts {
		if !strings.Contains(doc, verdictRow(v)+"\n") {
			t.Errorf("docs/statesync.md lacks the row\n%s", verdictRow(v))
		}
	}
}
