package artifact

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Default bounds of a Fetch.
const (
	DefaultMaxBytes = 1 << 20
	DefaultTimeout  = 5 * time.Second
)

// Limits bounds a Fetch; zero fields take the defaults.
type Limits struct {
	// MaxBytes is the largest artifact accepted; Fetch never reads more
	// than MaxBytes+1 bytes of a body.
	MaxBytes int64
	// Timeout bounds the whole call: connecting, the request and the body.
	Timeout time.Duration
}

func (l Limits) withDefaults() Limits {
	if l.MaxBytes <= 0 {
		l.MaxBytes = DefaultMaxBytes
	}
	if l.Timeout <= 0 {
		l.Timeout = DefaultTimeout
	}
	return l
}

// Reasons a *FetchError gives: the outcome of trying to get a miner's
// artifact. All but ReasonCanceled describe the miner's side.
const (
	ReasonNoAddress   = "no_address"  // the miner published no address
	ReasonBadAddress  = "bad_address" // the address is not an http(s) URL
	ReasonUnreachable = "unreachable" // connection or transport failed
	ReasonStatus      = "status"      // the answer was not 200 (StatusCode says which)
	ReasonTooLarge    = "too_large"   // the body is longer than MaxBytes
	ReasonTimeout     = "timeout"     // the call ran past Timeout
	ReasonMismatch    = "mismatch"    // the body's hash is not the hash asked for
	// ReasonCanceled means the caller's ctx ended first (e.g. the daemon is
	// shutting down); it says nothing about the miner.
	ReasonCanceled = "canceled"
)

// FetchError is a failed Fetch.
type FetchError struct {
	Address string
	Reason  string
	// StatusCode is the HTTP status for ReasonStatus, 0 otherwise.
	StatusCode int
	Err        error
}

func (e *FetchError) Error() string {
	msg := fmt.Sprintf("artifact fetch from %q: %s", e.Address, e.Reason)
	if e.Reason == ReasonStatus {
		msg += fmt.Sprintf(" %d", e.StatusCode)
	}
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

func (e *FetchError) Unwrap() error { return e.Err }

// Fetch downloads the artifact with the given hash from a miner's address
// (like http://host:port; a trailing slash is tolerated) at
// address + "/artifact/" + hex(hash). It reads at most lim.MaxBytes+1 bytes,
// finishes within lim.Timeout, follows no redirects, and returns the body
// only when Hash(body) equals hash. hc nil means http.DefaultTransport.
// Failures are *FetchError; a hash of the wrong length is a *HashError.
func Fetch(ctx context.Context, hc *http.Client, address string, hash []byte, lim Limits) ([]byte, error) {
	h, err := checkHash(hash)
	if err != nil {
		return nil, err
	}
	lim = lim.withDefaults()
	fail := func(reason string, err error) *FetchError {
		return &FetchError{Address: address, Reason: reason, Err: err}
	}
	base, err := parseAddress(address)
	if err != nil {
		if address == "" {
			return nil, fail(ReasonNoAddress, nil)
		}
		return nil, fail(ReasonBadAddress, err)
	}
	client := noRedirects(hc)
	cctx, cancel := context.WithTimeout(ctx, lim.Timeout)
	defer cancel()
	// classify turns a transport or body error into timeout, canceled or
	// unreachable.
	classify := func(err error) *FetchError {
		switch {
		case ctx.Err() != nil:
			return fail(ReasonCanceled, ctx.Err())
		case cctx.Err() != nil || isTimeout(err):
			return fail(ReasonTimeout, err)
		default:
			return fail(ReasonUnreachable, err)
		}
	}
	req, err := http.NewRequestWithContext(cctx, http.MethodGet, base+PathPrefix+h, nil)
	if err != nil {
		return nil, fail(ReasonBadAddress, err)
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, classify(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, &FetchError{Address: address, Reason: ReasonStatus, StatusCode: resp.StatusCode}
	}
	if resp.ContentLength > lim.MaxBytes {
		return nil, fail(ReasonTooLarge, fmt.Errorf("Content-Length %d > %d", resp.ContentLength, lim.MaxBytes))
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, lim.MaxBytes+1))
	if int64(len(body)) > lim.MaxBytes {
		return nil, fail(ReasonTooLarge, fmt.Errorf("body longer than %d bytes", lim.MaxBytes))
	}
	if err != nil {
		return nil, classify(err)
	}
	if got := Hash(body); hex.EncodeToString(got) != h {
		return nil, fail(ReasonMismatch, fmt.Errorf("got sha256 %x", got))
	}
	return body, nil
}

// parseAddress checks that address is an http or https URL with a host and
// no query or fragment, and returns it without a trailing slash.
func parseAddress(address string) (string, error) {
	if address == "" {
		return "", errors.New("empty address")
	}
	u, err := url.Parse(address)
	if err != nil {
		return "", err
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return "", fmt.Errorf("scheme %q, want http or https", u.Scheme)
	}
	if u.Host == "" {
		return "", errors.New("no host")
	}
	if u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		return "", errors.New("address may not have a query, fragment or user info")
	}
	return strings.TrimRight(address, "/"), nil
}

// noRedirects returns a copy of hc (or a fresh client) that does not follow
// redirects: a 3xx is returned as is and becomes ReasonStatus.
func noRedirects(hc *http.Client) *http.Client {
	c := &http.Client{}
	if hc != nil {
		*c = *hc
	}
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return c
}

func isTimeout(err error) bool {
	if errors.Is(err, context.DeadlineExceeded) {
		return true
	}
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}
