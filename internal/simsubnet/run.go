package simsubnet

import (
	"context"
	"fmt"
	"io/fs"
	"path/filepath"
)

// Result is one run: its config, its counts, its outcomes and the app
// hash of every height (index = height; 0 is InitChain's).
type Result struct {
	Config   Config
	Stats    *Stats
	Outcomes Outcomes
	// Adversary is the skewing validator's index and its share of the
	// power in parts per million.
	Adversary, AdversaryPPM int
	AppHashes               [][]byte
}

// Run runs cfg: a fresh App on cfg.Dir through cfg.Blocks heights. The App
// is closed at the end; the directory stays.
func Run(ctx context.Context, cfg Config) (*Result, error) {
	s, err := newSim(ctx, cfg)
	if err != nil {
		return nil, err
	}
	defer s.app.Close()
	if err := s.run(ctx); err != nil {
		return nil, err
	}
	powers := Powers(cfg.Validators)
	adv := Adversary(powers)
	var total int64
	for _, p := range powers {
		total += p
	}
	return &Result{Config: cfg, Stats: s.stats, Outcomes: s.out, Adversary: adv, AdversaryPPM: int(powers[adv] * 1_000_000 / total),
		AppHashes: s.chain.hashes}, nil
}

// sample reads the state's size after height h.
func (s *sim) sample(h int64) error {
	var keys, bytes int64
	s.app.WalkState(func(k []byte, valueSize int64) {
		keys++
		bytes += int64(len(k)) + valueSize
	})
	disk, err := dirSize(s.cfg.Dir)
	if err != nil {
		return err
	}
	s.stats.Samples = append(s.stats.Samples, Sample{Height: h, Keys: keys, Bytes: bytes, DiskBytes: disk})
	if s.cfg.Progress != nil {
		fmt.Fprintf(s.cfg.Progress, "height %d of %d: %d keys, %s of state\n", h, s.cfg.Blocks, keys, mib(bytes))
	}
	return nil
}

// dirSize is the disk space of the files under dir (badger's tables, value
// log, memtables and manifest), as du counts it.
func dirSize(dir string) (int64, error) {
	var n int64
	err := filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		n += allocated(info)
		return nil
	})
	return n, err
}
