package artifact

import (
	"bytes"
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

func TestHash(t *testing.T) {
	// sha256("abc"), FIPS 180-2's first example.
	want := "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
	if got := hex.EncodeToString(Hash([]byte("abc"))); got != want {
		t.Fatalf("Hash(abc) = %s", got)
	}
}

func TestStorePutGetPublish(t *testing.T) {
	dir := t.TempDir()
	s, err := OpenStore(filepath.Join(dir, "artifacts"))
	if err != nil {
		t.Fatal(err)
	}
	b := []byte(`{"task":1}`)
	h, err := s.Put(b)
	if err != nil || !bytes.Equal(h, Hash(b)) {
		t.Fatalf("Put: %x, %v", h, err)
	}
	if h2, err := s.Put(b); err != nil || !bytes.Equal(h2, h) {
		t.Fatalf("second Put: %x, %v", h2, err)
	}
	got, err := s.Get(h)
	if err != nil || !bytes.Equal(got, b) {
		t.Fatalf("Get: %q, %v", got, err)
	}
	if _, err := s.Get(Hash([]byte("other"))); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Get absent: %v", err)
	}
	var he *HashError
	if _, err := s.Get([]byte{1, 2}); !errors.As(err, &he) {
		t.Fatalf("Get short hash: %v", err)
	}
	if s.Published(h) {
		t.Fatal("published before Publish")
	}
	if err := s.Publish(Hash([]byte("other"))); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Publish absent: %v", err)
	}
	if err := s.Publish(h); err != nil {
		t.Fatal(err)
	}
	if err := s.Publish(h); err != nil {
		t.Fatalf("second Publish: %v", err)
	}
	// A reopened store remembers both the bytes and the publication.
	s2, err := OpenStore(s.Dir())
	if err != nil {
		t.Fatal(err)
	}
	if !s2.Published(h) {
		t.Fatal("reopened store forgot the publication")
	}
	hx := hex.EncodeToString(h)
	names, _ := filepath.Glob(filepath.Join(s.Dir(), "*"))
	if len(names) != 2 || filepath.Base(names[0]) != hx+".bin" || filepath.Base(names[1]) != hx+".pub" {
		t.Fatalf("store files: %v", names)
	}
}

func TestStoreConcurrentPut(t *testing.T) {
	s, err := OpenStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for i := range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Half the writers race on the same artifact, half write their own.
			b := []byte("shared artifact")
			if i%2 == 1 {
				b = fmt.Appendf(nil, "artifact %d", i)
			}
			h, err := s.Put(b)
			if err == nil {
				var got []byte
				if got, err = s.Get(h); err == nil && !bytes.Equal(got, b) {
					err = fmt.Errorf("got %q for %q", got, b)
				}
			}
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	left, _ := filepath.Glob(filepath.Join(s.Dir(), ".tmp-*"))
	if len(left) != 0 {
		t.Fatalf("temporary files left: %v", left)
	}
}

func TestHandler(t *testing.T) {
	s, err := OpenStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	b := []byte("the artifact")
	h, _ := s.Put(b)
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()
	url := srv.URL + "/artifact/" + hex.EncodeToString(h)
	absent := srv.URL + "/artifact/" + hex.EncodeToString(Hash([]byte("absent")))

	do := func(method, url string) (int, string, http.Header) {
		t.Helper()
		req, _ := http.NewRequest(method, url, nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(body), resp.Header
	}
	// Unpublished looks exactly like absent.
	c1, b1, _ := do("GET", url)
	c2, b2, _ := do("GET", absent)
	if c1 != 404 || c2 != 404 || b1 != b2 {
		t.Fatalf("before Publish: %d %q, absent: %d %q", c1, b1, c2, b2)
	}
	if err := s.Publish(h); err != nil {
		t.Fatal(err)
	}
	code, body, hdr := do("GET", url)
	if code != 200 || body != string(b) || hdr.Get("Content-Type") != "application/octet-stream" {
		t.Fatalf("after Publish: %d %q %v", code, body, hdr)
	}
	if code, body, hdr := do("HEAD", url); code != 200 || body != "" || hdr.Get("Content-Length") != fmt.Sprint(len(b)) {
		t.Fatalf("HEAD: %d %q %v", code, body, hdr)
	}
	if code, _, _ := do("GET", absent); code != 404 {
		t.Fatalf("absent: %d", code)
	}
	for _, bad := range []string{"/artifact/" + hex.EncodeToString(h)[:10], "/artifact/" + fmt.Sprintf("%X", h),
		"/artifact/" + hex.EncodeToString(h) + ".bin", "/other/" + hex.EncodeToString(h), "/"} {
		if code, _, _ := do("GET", srv.URL+bad); code != 400 {
			t.Errorf("GET %s: %d, want 400", bad, code)
		}
	}
	if code, _, hdr := do("POST", url); code != 405 || hdr.Get("Allow") == "" {
		t.Fatalf("POST: %d", code)
	}
}

func TestServeStopsOnCancel(t *testing.T) {
	s, err := OpenStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	b := []byte("served")
	h, _ := s.Put(b)
	if err := s.Publish(h); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, ln) }()
	got, err := Fetch(context.Background(), nil, "http://"+ln.Addr().String()+"/", h, Limits{})
	if err != nil || !bytes.Equal(got, b) {
		t.Fatalf("Fetch from Serve: %q, %v", got, err)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Serve: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Serve did not stop")
	}
}

func TestGetCorrupt(t *testing.T) {
	s, err := OpenStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	h, _ := s.Put([]byte("original"))
	if err := os.WriteFile(filepath.Join(s.Dir(), hex.EncodeToString(h)+".bin"), []byte("changed"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get(h); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("Get of a changed file: %v", err)
	}
	// Put of the original bytes repairs it.
	if _, err := s.Put([]byte("original")); err != nil {
		t.Fatal(err)
	}
	if b, err := s.Get(h); err != nil || string(b) != "original" {
		t.Fatalf("after repair: %q, %v", b, err)
	}
}

func TestOpenStoreOnAFile(t *testing.T) {
	f := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(f, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	var se *StoreError
	if _, err := OpenStore(f); !errors.As(err, &se) {
		t.Fatalf("OpenStore on a file: %v", err)
	}
}
