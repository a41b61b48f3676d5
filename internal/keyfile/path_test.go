package keyfile

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestPath(t *testing.T) {
	cases := []struct {
		name string
		ok   bool
	}{
		{"bob", true},
		{"a", true},
		{"0", true},
		{"node-1_v2.old", true},
		{strings.Repeat("a", 64), true},
		{strings.Repeat("a", 65), false},
		{"", false},
		{".hidden", false},
		{"_x", false},
		{"-x", false},
		{"../evil", false},
		{"a/b", false},
		{"a b", false},
	}
	for _, c := range cases {
		path, err := Path("/h", c.name)
		if !c.ok {
			if err == nil || !strings.Contains(err.Error(), "key name") {
				t.Errorf("Path(%q) = %q, %v; want a key name error", c.name, path, err)
			}
			continue
		}
		if want := filepath.Join("/h", "keys", c.name+".json"); err != nil || path != want {
			t.Errorf("Path(%q) = %q, %v; want %q", c.name, path, err, want)
		}
	}
}
