package detguard

import (
	"fmt"
	"io"
)

// Run checks every consensus package under root and writes findings to w; it returns the count.
func Run(root string, w io.Writer) (int, error) {
	dirs, err := ConsensusDirs(root)
	if err != nil {
		return 0, err
	}
	c, err := NewChecker(root, "./app/...", "./x/...", "./genesis/...")
	if err != nil {
		return 0, err
	}
	n := 0
	for _, d := range dirs {
		fs, err := c.CheckDir(d)
		if err != nil {
			return n, err
		}
		for _, f := range fs {
			fmt.Fprintln(w, f)
			n++
		}
	}
	return n, nil
}
