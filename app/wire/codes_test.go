package wire

import (
	"os"
	"regexp"
	"strconv"
	"testing"
)

// TestCodesMatchDoc compares the code table with docs/codes.md row by row:
// the same numbers, names and meanings, in the same order, with no gaps.
func TestCodesMatchDoc(t *testing.T) {
	bz, err := os.ReadFile("../../docs/codes.md")
	if err != nil {
		t.Fatal(err)
	}
	rows := regexp.MustCompile(`(?m)^\| (\d+) \| (\w+) \| (.*) \|$`).FindAllStringSubmatch(string(bz), -1)
	if len(rows) != len(Codes) {
		t.Fatalf("docs/codes.md has %d code rows, the table %d", len(rows), len(Codes))
	}
	for i, r := range rows {
		c := Codes[i]
		if c.Code != uint32(i) {
			t.Errorf("Codes[%d].Code = %d: the table must be in code order without gaps", i, c.Code)
		}
		if r[1] != strconv.Itoa(i) || r[2] != c.Name || r[3] != c.Doc {
			t.Errorf("code %d: doc row (%s, %s, %q), table (%d, %s, %q)", i, r[1], r[2], r[3], c.Code, c.Name, c.Doc)
		}
	}
}

func TestCodeNameUnknown(t *testing.T) {
	if got := CodeName(uint32(len(Codes))); got != "unknown" {
		t.Fatalf("CodeName past the table = %q", got)
	}
	if got := CodeName(CodeBlockFull); got != "block_full" {
		t.Fatalf("CodeName(40) = %q", got)
	}
}
