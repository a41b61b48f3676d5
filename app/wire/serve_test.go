package wire

import (
	"errors"
	"strings"
	"testing"
)

// TestCheckServeAddress: each rule refuses its address with a message
// naming it, and addresses a daemon can be fetched at pass as sent.
func TestCheckServeAddress(t *testing.T) {
	for _, ok := range []string{
		ServeAddressExample, "https://miner.example.org", "http://203.0.113.7:8091/", "http://[2001:db8::1]:65535",
		"http://h:1", "http://" + strings.Repeat("a", MaxServeAddress-len("http://")),
	} {
		if err := CheckServeAddress(ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	for _, c := range []struct{ addr, rule string }{
		{"", "empty"},
		{"http://" + strings.Repeat("a", MaxServeAddress-len("http://")+1), "129 bytes"},
		{"http://a b", "not printable"},
		{"http://a\x7f", "not printable"},
		{"http://é.example", "not printable"},
		{"ftp://203.0.113.7", "scheme"},
		{"HTTP://203.0.113.7", "scheme"},
		{"203.0.113.7:8091", "scheme"},
		{"http://u:p@203.0.113.7:8091", "userinfo"},
		{"http://203.0.113.7:8091/?x=1", "query"},
		{"http://203.0.113.7:8091?", "query"},
		{"http://203.0.113.7:8091/#top", "fragment"},
		{"http://", "host is empty"},
		{"http://:8091", "host is empty"},
		{"http://203.0.113.7:0", "port 0"},
		{"http://203.0.113.7:65536", "port 65536"},
		{"http://203.0.113.7:", "port after ':' is empty"},
		{"http://203.0.113.7:80a", "not a URL"},
		{"http://203.0.113.7:8091/artifacts", "path"},
		{"http://203.0.113.7:8091//", "path"},
	} {
		err := CheckServeAddress(c.addr)
		var se *ServeAddressError
		if !errors.As(err, &se) {
			t.Errorf("%q: %v, want a *ServeAddressError", c.addr, err)
			continue
		}
		if !strings.Contains(err.Error(), c.rule) || !strings.Contains(err.Error(), ServeAddressExample) {
			t.Errorf("%q: %q does not name %q and the example", c.addr, err, c.rule)
		}
	}
}

// TestServeFrom: a uid that never served may serve at any height; one that
// served at h again from h + ServeInterval.
func TestServeFrom(t *testing.T) {
	if got := ServeFrom(0); got != 0 {
		t.Fatalf("ServeFrom(0) = %d", got)
	}
	if got := ServeFrom(7); got != 7+ServeInterval {
		t.Fatalf("ServeFrom(7) = %d", got)
	}
}
