//go:build e2e

package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// figures are the numbers of a run, written to E2E_REPORT for docs/reliability.md.
var (
	figuresMu sync.Mutex
	figures   = map[string]any{}
)

// report records the figures of one scenario and rewrites the report file.
func report(t *testing.T, scenario string, v any) {
	t.Helper()
	figuresMu.Lock()
	defer figuresMu.Unlock()
	figures[scenario] = v
	bz, err := json.MarshalIndent(figures, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	path := envOr("E2E_REPORT", filepath.Join(binDir, "e2e-report.json"))
	if err := os.WriteFile(path, append(bz, '\n'), 0o644); err != nil {
		t.Errorf("write %s: %v", path, err)
	}
	t.Logf("%s: %s", scenario, bz)
}
