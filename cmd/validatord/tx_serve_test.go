package main

import (
	"errors"
	"strings"
	"testing"

	"github.com/scoringsubnet/validatord/app/wire"
)

// TestTxServe: `tx serve` needs --address and refuses, before signing, an
// address the chain would refuse (code 83), naming the broken rule.
func TestTxServe(t *testing.T) {
	msg, err := buildMsg(t, "serve", "--address", wire.ServeAddressExample)
	if err != nil || msg.GetServe().GetAddress() != wire.ServeAddressExample {
		t.Fatalf("serve built %v (%v)", msg, err)
	}
	var missing *MissingFlagsError
	if _, err := buildMsg(t, "serve"); !errors.As(err, &missing) {
		t.Fatalf("serve without --address: %v", err)
	}
	for addr, rule := range map[string]string{"ftp://203.0.113.7": "scheme", "http://203.0.113.7:8091/artifact": "path"} {
		_, err := buildMsg(t, "serve", "--address", addr)
		var se *wire.ServeAddressError
		if !errors.As(err, &se) || !strings.Contains(err.Error(), "--address") || !strings.Contains(err.Error(), rule) {
			t.Errorf("serve --address %s: %v, want the %s rule named", addr, err, rule)
		}
	}
}
