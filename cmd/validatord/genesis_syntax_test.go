package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestStartNamesTheLineOfAGenesisSyntaxError: a comma deleted from
// genesis.json is reported with its line and column, in one line.
func TestStartNamesTheLineOfAGenesisSyntaxError(t *testing.T) {
	home := t.TempDir()
	cli(t, "init", "--home", home)
	gen := filepath.Join(home, "config", "genesis.json")
	editText(t, gen, `"initial_height": "1",`, `"initial_height": "1"`)
	code, out, errOut := runCmd(t, "start", "--home", home)
	if code != 1 || out != "" || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, "line ") || !strings.Contains(errOut, ", column ") {
		t.Fatalf("start with a missing comma: code %d stdout %q stderr %q; want one line with the line and column", code, out, errOut)
	}
}
