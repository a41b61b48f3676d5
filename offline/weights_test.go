package offline

import "testing"

func TestAssignUIDs(t *testing.T) {
	got, err := assignUIDs([]string{"zed", "5", "amy", "007", "0", "65535"}, 1)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]uint16{"0": 0, "5": 5, "65535": 65535, "007": 2, "amy": 3, "zed": 4}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s → %d, want %d", k, got[k], v)
		}
	}
	if _, ok := parseUID("65536"); ok {
		t.Error("65536 accepted as a uid")
	}
	if _, ok := parseUID("-1"); ok {
		t.Error("-1 accepted as a uid")
	}
}
