package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
	"sync"
	"time"
)

// Record is one committed transaction, as written to --out (one JSON object a line).
type Record struct {
	Kind         string `json:"kind"` // e.g. "submit/workflow", "report/arena", "truth"
	Sender       string `json:"sender"`
	Hash         string `json:"hash"`
	Height       int64  `json:"height"`
	SubmissionID uint64 `json:"submission_id"`
	TaskID       uint64 `json:"task_id,omitempty"`
	UID          uint64 `json:"uid,omitempty"`
}

// stats counts what was sent, committed and refused, by kind.
type stats struct {
	Sent      map[string]int `json:"sent"`
	Committed map[string]int `json:"committed"`
	Rejected  map[string]int `json:"rejected"` // "kind code N"
	Uncertain int            `json:"uncertain"`
}

// recorder collects records and stats; safe for concurrent senders.
type recorder struct {
	mu    sync.Mutex
	f     *os.File
	w     *bufio.Writer
	stats stats
}

func newRecorder(path string) (*recorder, error) {
	r := &recorder{stats: stats{Sent: map[string]int{}, Committed: map[string]int{}, Rejected: map[string]int{}}}
	if path == "" {
		return r, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	r.f, r.w = f, bufio.NewWriter(f)
	return r, nil
}

func (r *recorder) sent(kind string) {
	r.mu.Lock()
	r.stats.Sent[kind]++
	r.mu.Unlock()
}

func (r *recorder) rejected(kind string, code uint32) {
	r.mu.Lock()
	r.stats.Rejected[fmt.Sprintf("%s code %d", kind, code)]++
	r.mu.Unlock()
}

func (r *recorder) uncertain() {
	r.mu.Lock()
	r.stats.Uncertain++
	r.mu.Unlock()
}

// committed records a committed transaction and writes its line.
func (r *recorder) committed(rec Record) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.stats.Committed[rec.Kind]++
	if r.w == nil {
		return nil
	}
	bz, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	_, err = r.w.Write(append(bz, '\n'))
	return err
}

func (r *recorder) close() error {
	if r.f == nil {
		return nil
	}
	if err := r.w.Flush(); err != nil {
		r.f.Close()
		return err
	}
	return r.f.Close()
}

// total sums a count map.
func total(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

// print writes the summary: totals, then each kind.
func (s stats) print(w io.Writer, elapsed time.Duration) {
	fmt.Fprintf(w, "loadgen: %s: sent %d, committed %d, rejected %d, unconfirmed %d\n",
		elapsed.Round(time.Second), total(s.Sent), total(s.Committed), total(s.Rejected), s.Uncertain)
	kinds := make([]string, 0, len(s.Sent))
	for k := range s.Sent {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	for _, k := range kinds {
		fmt.Fprintf(w, "  %-18s sent %5d  committed %5d\n", k, s.Sent[k], s.Committed[k])
	}
	rej := make([]string, 0, len(s.Rejected))
	for k := range s.Rejected {
		rej = append(rej, k)
	}
	sort.Strings(rej)
	for _, k := range rej {
		fmt.Fprintf(w, "  rejected %-24s %5d\n", k, s.Rejected[k])
	}
}

// save writes the counts as indented JSON to path (nothing when path is empty).
func (s stats) save(path string) error {
	if path == "" {
		return nil
	}
	bz, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(bz, '\n'), 0o644)
}
