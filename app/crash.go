package app

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// Crash points.
const (
	CrashFinalizeBegin = "finalize-begin"
	CrashFinalizeEnd   = "finalize-end"
	CrashCommitBegin   = "commit-begin"
	CrashCommitEnd     = "commit-end"
)

// CrashExitCode is the exit status of a crash point.
const CrashExitCode = 3

// CrashPoint is a parsed Config.CrashPoint.
type CrashPoint struct {
	Point  string
	Height int64 // 0 = every height
}

// ParseCrashPoint parses "<point>[@<height>]"; "" is no crash point.
func ParseCrashPoint(s string) (CrashPoint, error) {
	if s == "" {
		return CrashPoint{}, nil
	}
	point, at, hasAt := strings.Cut(s, "@")
	switch point {
	case CrashFinalizeBegin, CrashFinalizeEnd, CrashCommitBegin, CrashCommitEnd:
	default:
		return CrashPoint{}, fmt.Errorf("crash point %q: unknown point (finalize-begin, finalize-end, commit-begin, commit-end)", s)
	}
	cp := CrashPoint{Point: point}
	if hasAt {
		h, err := strconv.ParseInt(at, 10, 64)
		if err != nil || h < 1 {
			return CrashPoint{}, fmt.Errorf("crash point %q: height must be a positive integer", s)
		}
		cp.Height = h
	}
	return cp, nil
}

func (c CrashPoint) hits(point string, height int64) bool {
	return c.Point == point && (c.Height == 0 || c.Height == height)
}

// crashAt exits the process when the configured crash point is reached.
func (a *App) crashAt(point string, height int64) {
	if a.crash.hits(point, height) {
		a.logger.Error("crash point reached", "point", point, "height", height)
		fmt.Fprintf(os.Stderr, "validatord: crash point %s at height %d\n", point, height)
		os.Exit(CrashExitCode)
	}
}
