package genesis

import (
	"errors"
	"strings"
	"testing"
)

func TestCheckSyntaxNamesLineAndColumn(t *testing.T) {
	doc := "{\n  \"a\": 1,\n  \"b\": 2\n  \"c\": 3\n}\n" // the comma after 2 is missing
	err := CheckSyntax([]byte(doc))
	var pe *PositionError
	if !errors.As(err, &pe) || pe.Line != 4 || pe.Column != 3 {
		t.Fatalf("err %v: want line 4, column 3 (the quote of \"c\")", err)
	}
	if CheckSyntax([]byte(`{"a": [1, 2]}`)) != nil {
		t.Fatal("valid JSON refused")
	}
	if l, c := Position([]byte("ab\ncd"), 5); l != 2 || c != 2 {
		t.Fatalf("Position at the end: %d:%d, want 2:2", l, c)
	}
}

func TestDecodeTypeErrorHasLineAndColumn(t *testing.T) {
	bz, err := DefaultGenesis().Encode()
	if err != nil {
		t.Fatal(err)
	}
	bad := strings.Replace(string(bz), `"max_uids": 256`, `"max_uids": "many"`, 1)
	if bad == string(bz) {
		t.Fatal("default genesis has no max_uids 256")
	}
	_, err = Decode([]byte(bad))
	if err == nil || !strings.Contains(err.Error(), "line ") || !strings.Contains(err.Error(), "column ") {
		t.Fatalf("err %v: want the line and column of max_uids", err)
	}
}
