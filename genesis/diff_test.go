package genesis

import (
	"reflect"
	"strings"
	"testing"
)

func TestDiff(t *testing.T) {
	old := `{"chain_id":"a","app_state":{"window":{"cap":"0.15","size":100},"tracks":[{"name":"w"},{"name":"g"}]},"gone":1}`
	new := `{"chain_id":"a","app_state":{"window":{"cap":"0.2","size":100},"tracks":[{"name":"w"},{"name":"gas"}]},"added":[1]}`
	got, err := Diff([]byte(old), []byte(new))
	if err != nil {
		t.Fatal(err)
	}
	want := []Change{
		{Path: "added", Old: Absent, New: "[1]"},
		{Path: "app_state.tracks[1].name", Old: "g", New: "gas"},
		{Path: "app_state.window.cap", Old: "0.15", New: "0.2"},
		{Path: "gone", Old: "1", New: Absent},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("diff %v, want %v", got, want)
	}
	if same, _ := Diff([]byte(old), []byte(old)); len(same) != 0 {
		t.Fatalf("a document differs from itself: %v", same)
	}
	if arr, _ := Diff([]byte(`{"v":[1]}`), []byte(`{"v":[1,2]}`)); len(arr) != 1 || arr[0].String() != "v: [1] → [1,2]" {
		t.Fatalf("arrays of different lengths: %v", arr)
	}
	msg := (&ChangedError{File: "g.json", Changes: want}).Error()
	if !strings.Contains(msg, "app_state.window.cap: 0.15 → 0.2") || strings.Contains(msg, "\n") {
		t.Fatalf("message %q", msg)
	}
}
