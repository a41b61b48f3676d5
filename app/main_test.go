package app

import (
	"testing"

	"github.com/scoringsubnet/validatord/internal/testmain"
)

// TestMain checks every store.Overlay.Create claim of the blocks these
// tests execute (internal/testmain).
func TestMain(m *testing.M) { testmain.Run(m) }
