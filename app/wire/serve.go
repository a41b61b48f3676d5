package wire

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
)

// The rules of MsgServe's address, by which a miner announces where its
// daemon serves revealed artifacts: validators' daemons fetch
// GET <address>/artifact/<hex sha256> from it and check the bytes against
// the hash the chain holds.
const (
	// MaxServeAddress bounds the address, so a miner's record stays small
	// whatever it sends.
	MaxServeAddress = 128
	// ServeInterval is how many blocks a uid waits between two accepted
	// MsgServe (the first one is always accepted): it bounds the writes a
	// registered miner can cause with them and stops an address flipping
	// back and forth, as the parent chain's serving rate limit does.
	ServeInterval int64 = 10
	// ServeAddressExample is the shape of a good address, for the messages
	// that refuse a bad one.
	ServeAddressExample = "http://203.0.113.7:8091"
)

// ServeAddressError is an address that breaks one of CheckServeAddress's
// rules: Rule names it.
type ServeAddressError struct {
	Address string
	Rule    string
}

func (e *ServeAddressError) Error() string {
	return fmt.Sprintf("address %q: %s; give a base URL such as %s", e.Address, e.Rule, ServeAddressExample)
}

// CheckServeAddress checks a MsgServe address, in this order: at most
// MaxServeAddress bytes of printable ASCII without spaces, a URL that
// net/url parses, scheme http or https (lower case, with "//"), no
// userinfo, a non-empty host, a port (when given) in 1–65535, no query, no
// fragment, and a path that is empty or "/" (the fetcher appends
// /artifact/<hex sha256>). The address is kept as sent: nothing is
// normalised. It returns nil or a *ServeAddressError.
func CheckServeAddress(s string) error {
	bad := func(rule string, args ...any) error {
		return &ServeAddressError{Address: s, Rule: fmt.Sprintf(rule, args...)}
	}
	if s == "" {
		return bad("empty")
	}
	if len(s) > MaxServeAddress {
		return bad("%d bytes, more than %d", len(s), MaxServeAddress)
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c <= ' ' || c > '~' {
			return bad("byte %d (0x%02x) is not printable ASCII (0x21–0x7e, no spaces)", i, c)
		}
	}
	if !strings.HasPrefix(s, "http://") && !strings.HasPrefix(s, "https://") {
		return bad("the scheme must be http:// or https://")
	}
	if strings.ContainsRune(s, '?') {
		return bad("a query (?…) is not allowed")
	}
	if strings.ContainsRune(s, '#') {
		return bad("a fragment (#…) is not allowed")
	}
	u, err := url.Parse(s)
	if err != nil {
		return bad("not a URL (%v)", unwrapURLError(err))
	}
	if u.User != nil {
		return bad("userinfo (user@) is not allowed")
	}
	if u.Hostname() == "" {
		return bad("the host is empty")
	}
	if err := checkServePort(u); err != nil {
		return bad("%s", err.Error())
	}
	if p := u.EscapedPath(); p != "" && p != "/" {
		return bad("the path must be empty or \"/\", not %q (/artifact/<hex sha256> is appended)", p)
	}
	return nil
}

// checkServePort checks the port of a parsed address, if it has one: a
// decimal number in 1–65535 ("host:" with no digits is refused too).
func checkServePort(u *url.URL) error {
	port := u.Port()
	if port == "" {
		if strings.HasSuffix(u.Host, ":") {
			return fmt.Errorf("the port after ':' is empty")
		}
		return nil
	}
	n, err := strconv.ParseUint(port, 10, 32)
	if err != nil || n < 1 || n > 65535 {
		return fmt.Errorf("port %s is not in 1–65535", port)
	}
	return nil
}

// unwrapURLError is the reason of a net/url error without the operation
// and the address, which the ServeAddressError names already.
func unwrapURLError(err error) error {
	if ue, ok := err.(*url.Error); ok {
		return ue.Err
	}
	return err
}

// ServeFrom is the first height at which a uid whose last accepted
// MsgServe was at servedHeight may serve again: any height for a uid that
// never served (servedHeight 0).
func ServeFrom(servedHeight int64) int64 {
	if servedHeight <= 0 {
		return 0
	}
	return servedHeight + ServeInterval
}
