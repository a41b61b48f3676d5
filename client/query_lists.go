package client

import (
	"context"
	"fmt"
	"strconv"

	"github.com/scoringsubnet/validatord/app/wire"
)

// Page is a list's cursor and size: rows with an id below After (0: from
// the newest), at most Limit of them (0: wire.DefaultListLimit). An
// answer's NextAfter is the After of the next page.
type Page struct {
	After uint64
	Limit int
}

func (p Page) path() string {
	return u64(p.After) + "/" + strconv.Itoa(p.Limit)
}

// TaskFilter selects tasks: Track "" for every track, Open for those whose
// submit window is open at the next height.
type TaskFilter struct {
	Track string
	Open  bool
	Page
}

// TasksPath is the app path of a task listing
// ("tasks/<track|all>/<open|all>/<after>/<limit>").
func TasksPath(f TaskFilter) string {
	tr, state := f.Track, "all"
	if tr == "" {
		tr = "all"
	}
	if f.Open {
		state = "open"
	}
	return "tasks/" + tr + "/" + state + "/" + f.path()
}

// Tasks lists tasks newest first.
func (c *Client) Tasks(ctx context.Context, f TaskFilter) (*wire.TasksView, error) {
	return query[wire.TasksView](ctx, c, TasksPath(f))
}

// SubmissionsPath is the app path of a submissions listing by "task" or
// "miner" ("submissions/<by>/<id>/<after>/<limit>").
func SubmissionsPath(by string, id uint64, p Page) (string, error) {
	if by != "task" && by != "miner" {
		return "", fmt.Errorf("submissions by %q: want task or miner", by)
	}
	return "submissions/" + by + "/" + u64(id) + "/" + p.path(), nil
}

// TaskSubmissions lists a task's submissions newest first.
func (c *Client) TaskSubmissions(ctx context.Context, task uint64, p Page) (*wire.SubmissionsView, error) {
	path, _ := SubmissionsPath("task", task, p)
	return query[wire.SubmissionsView](ctx, c, path)
}

// MinerSubmissions lists a uid's submissions newest first (the miner index).
func (c *Client) MinerSubmissions(ctx context.Context, uid uint32, p Page) (*wire.SubmissionsView, error) {
	path, _ := SubmissionsPath("miner", uint64(uid), p)
	return query[wire.SubmissionsView](ctx, c, path)
}

// Metagraph is every registered uid with its scores and latest weights.
func (c *Client) Metagraph(ctx context.Context) (*wire.MetagraphView, error) {
	return query[wire.MetagraphView](ctx, c, "metagraph")
}
