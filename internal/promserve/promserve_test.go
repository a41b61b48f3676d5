package promserve

import (
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
)

// TestServe: the registry's series at /metrics, and Serve returns nil once
// its context ends.
func TestServe(t *testing.T) {
	reg := prometheus.NewRegistry()
	c := prometheus.NewCounter(prometheus.CounterOpts{Name: "promserve_test_total", Help: "a test counter"})
	reg.MustRegister(c)
	c.Add(3)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, ln, reg) }()
	resp, err := http.Get("http://" + ln.Addr().String() + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	bz, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(bz), "promserve_test_total 3") {
		t.Errorf("/metrics:\n%s", bz)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Serve after its context ended: %v", err)
	}
}
