package main

import (
	"flag"
	"fmt"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
)

// pageFlagValues are --limit and --after of a listing.
type pageFlagValues struct {
	limit *int
	after *uint64
}

func pageFlags(fs *flag.FlagSet) pageFlagValues {
	return pageFlagValues{
		limit: fs.Int("limit", wire.DefaultListLimit, fmt.Sprintf("rows per page, at most %d", wire.MaxListLimit)),
		after: fs.Uint64("after", 0, "list ids below this one (the previous page's next_after; 0: from the newest)"),
	}
}

func (p pageFlagValues) get() (client.Page, error) {
	if *p.limit < 1 || *p.limit > wire.MaxListLimit {
		return client.Page{}, fmt.Errorf("--limit %d: want 1 to %d", *p.limit, wire.MaxListLimit)
	}
	return client.Page{After: *p.after, Limit: *p.limit}, nil
}

// pageFooter says how many rows a page showed, at which height, and how to
// ask for the next one.
func pageFooter(env Env, what string, n int, height int64, next *uint64) error {
	_, err := fmt.Fprintf(env.Stdout, "%d %s at height %d", n, what, height)
	if err == nil && next != nil {
		_, err = fmt.Fprintf(env.Stdout, "; more with --after %d", *next)
	}
	if err == nil {
		_, err = fmt.Fprintln(env.Stdout)
	}
	return err
}
