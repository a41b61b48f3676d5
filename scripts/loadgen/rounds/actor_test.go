package rounds

import (
	"errors"
	"fmt"
	"testing"
)

func TestRejectionWrapping(t *testing.T) {
	err := fmt.Errorf("miner0: register-miner: %w", &rejection{code: 12, msg: "already_miner"})
	var rej *rejection
	if !errors.As(err, &rej) || rej.code != 12 {
		t.Fatalf("errors.As lost the code: %v", err)
	}
	if !errors.Is(err, errRejected) || errors.Is(err, errUncertain) {
		t.Fatalf("a rejection must be errRejected and not errUncertain: %v", err)
	}
	if got := err.Error(); got != "miner0: register-miner: rejected: code 12: already_miner" {
		t.Fatalf("message %q", got)
	}
}
