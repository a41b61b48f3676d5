package wire

// List bounds: what one "tasks" or "submissions" answer lists and reads.
const (
	// DefaultListLimit is the rows a list answers when the path's limit is 0.
	DefaultListLimit = 20
	// MaxListLimit bounds a list's limit.
	MaxListLimit = 100
	// MaxListScan bounds the items one list answer reads to find its rows:
	// a filter that matches little ends the page early with NextAfter set,
	// so that no query reads the whole state.
	MaxListScan = 1000
)

// TasksView answers "tasks/<track|all>/<open|all>/<after>/<limit>": tasks
// newest first (descending id), those with an id below After when After is
// positive. NextAfter is the After of the next page (nil when the listing is
// complete). Open is a task whose submit window is still open at the next
// height.
type TasksView struct {
	Height    int64           `json:"height"`
	NextAfter *uint64         `json:"next_after"`
	Tasks     []TaskListEntry `json:"tasks"`
}

// TaskListEntry is a task with whether it takes submissions at the next
// height.
type TaskListEntry struct {
	TaskView
	Open bool `json:"open"`
}

// SubmissionsView answers "submissions/task/<id>/<after>/<limit>" and
// "submissions/miner/<uid>/<after>/<limit>": the submissions of a task or a
// uid, newest first (descending id), below After when it is positive;
// NextAfter as in TasksView.
type SubmissionsView struct {
	By          string                  `json:"by"`
	ID          uint64                  `json:"id"`
	NextAfter   *uint64                 `json:"next_after"`
	Submissions []SubmissionSummaryView `json:"submissions"`
}

// SubmissionSummaryView is one row of a submissions list: what the
// submission is for, where it stands and its score once scored
// ("submission/<id>" has the rest).
type SubmissionSummaryView struct {
	EvmBlock     *uint64 `json:"evm_block"`
	EvmChainID   *uint64 `json:"evm_chain_id"`
	Height       int64   `json:"height"`
	ID           uint64  `json:"id"`
	RevealHeight int64   `json:"reveal_height"`
	Score        *string `json:"score"`
	Status       string  `json:"status"`
	TaskID       *uint64 `json:"task_id"`
	Track        string  `json:"track"`
	UID          uint32  `json:"uid"`
}

// MetagraphView answers "metagraph": every registered uid, as btcli's
// metagraph shows a subnet, with the latest epoch's weights.
type MetagraphView struct {
	// Epoch is the latest epoch's number (0 before the first).
	Epoch  uint64 `json:"epoch"`
	Height int64  `json:"height"`
	// Tracks are the tracks of the chain, in genesis order: the order of
	// each row's Scores.
	Tracks []string           `json:"tracks"`
	UIDs   []MetagraphUIDView `json:"uids"`
}

// MetagraphUIDView is one uid of the metagraph. Scores are the uid's
// aggregates per track (nil where it has none), Weight and U16 its share in
// the latest epoch (nil when it had none), LastUpdate the last height one of
// its windows or gas agents took a score (0 before any), Address where its
// daemon serves revealed artifacts (omitted before its first MsgServe).
type MetagraphUIDView struct {
	Address          string    `json:"address,omitempty"`
	Immune           bool      `json:"immune"`
	ImmuneThrough    int64     `json:"immune_through"`
	Key              string    `json:"key"`
	LastUpdate       int64     `json:"last_update"`
	RegisteredHeight int64     `json:"registered_height"`
	Scores           []*string `json:"scores"`
	U16              *uint32   `json:"u16"`
	UID              uint32    `json:"uid"`
	Weight           *string   `json:"weight"`
}
