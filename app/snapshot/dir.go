package snapshot

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// List returns the snapshots under dir, by increasing height. A missing dir
// holds none. A snapshot directory whose metadata does not load is an error
// (Create renames whole snapshots into place: only the disk can break one).
func List(dir string) ([]Info, error) {
	heights, err := heights(dir)
	if err != nil {
		return nil, err
	}
	out := make([]Info, 0, len(heights))
	for _, h := range heights {
		info, err := LoadInfo(dir, h)
		if err != nil {
			return nil, err
		}
		out = append(out, info)
	}
	return out, nil
}

// LoadInfo reads the snapshot of a height.
func LoadInfo(dir string, height uint64) (Info, error) {
	path := filepath.Join(heightDir(dir, height), metadataFile)
	bz, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Info{}, fmt.Errorf("%w: height %d", ErrNotFound, height)
	}
	if err != nil {
		return Info{}, err
	}
	m, err := DecodeMetadata(bz)
	if err != nil {
		return Info{}, fmt.Errorf("%s: %w", path, err)
	}
	if m.Height != height {
		return Info{}, fmt.Errorf("%s: %w: metadata says height %d", path, ErrMetadata, m.Height)
	}
	return infoOf(m), nil
}

// Load reads one chunk: LoadSnapshotChunk's answer. A missing snapshot or
// chunk wraps ErrNotFound (the app answers an empty chunk).
func Load(dir string, height uint64, chunk uint32) ([]byte, error) {
	bz, err := os.ReadFile(filepath.Join(heightDir(dir, height), chunkFile(int(chunk))))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w: height %d chunk %d", ErrNotFound, height, chunk)
	}
	return bz, err
}

// Prune deletes all but the keepRecent highest snapshots (0 keeps all) and
// any temporary directory a crashed Create left. A snapshot is renamed out
// of sight before it is deleted, so List never sees half of one. It must not
// run beside a Create on the same dir (the app runs both in one goroutine).
func Prune(dir string, keepRecent int) (removed []uint64, err error) {
	hs, err := heights(dir)
	if err != nil {
		return nil, err
	}
	if err := removeTemps(dir); err != nil {
		return nil, err
	}
	if keepRecent <= 0 || len(hs) <= keepRecent {
		return nil, nil
	}
	for _, h := range hs[:len(hs)-keepRecent] {
		gone := filepath.Join(dir, tmpPrefix+"prune-"+strconv.FormatUint(h, 10))
		if err := os.Rename(heightDir(dir, h), gone); err != nil {
			return removed, err
		}
		if err := os.RemoveAll(gone); err != nil {
			return removed, err
		}
		removed = append(removed, h)
	}
	return removed, syncDir(dir)
}

// heights lists the snapshot directories of dir (canonical decimal names),
// increasing.
func heights(dir string) ([]uint64, error) {
	ents, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []uint64
	for _, e := range ents {
		h, err := strconv.ParseUint(e.Name(), 10, 64)
		if err != nil || !e.IsDir() || strconv.FormatUint(h, 10) != e.Name() {
			continue
		}
		out = append(out, h)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out, nil
}

func removeTemps(dir string) error {
	ents, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), tmpPrefix) {
			if err := os.RemoveAll(filepath.Join(dir, e.Name())); err != nil {
				return err
			}
		}
	}
	return nil
}
