package valset

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
)

// TestErrorsTable compares the table of sentinels with the list of names in
// doc.go, in order, and checks that the names are unique.
func TestErrorsTable(t *testing.T) {
	src, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(src)
	i := strings.Index(doc, "The names: ")
	j := strings.Index(doc[i:], ".\npackage")
	if i < 0 || j < 0 {
		t.Fatal("doc.go lists no error names")
	}
	listed := strings.Fields(strings.NewReplacer("//", "", ",", "").Replace(doc[i+len("The names: ") : i+j]))
	var names []string
	seen := map[string]bool{}
	for _, e := range Errors {
		if seen[e.Error()] {
			t.Fatalf("name %q twice", e.Error())
		}
		seen[e.Error()] = true
		names = append(names, e.Error())
	}
	if strings.Join(listed, " ") != strings.Join(names, " ") {
		t.Fatalf("doc.go lists\n%v\nthe table has\n%v", listed, names)
	}
}

func TestName(t *testing.T) {
	if Name(nil) != "" || Name(errors.New("other")) != "" {
		t.Fatal("Name of a foreign error")
	}
	err := fmt.Errorf("wrapped: %w", inputErr(ErrMinerKey, "f", 1, "r"))
	if Name(err) != "miner_key" {
		t.Fatalf("Name = %q", Name(err))
	}
	want := "valset: miner_key: f = 1: r"
	if got := errors.Unwrap(err).Error(); got != want {
		t.Fatalf("message %q, want %q", got, want)
	}
}
