package leaderboard

import (
	"fmt"
	"sort"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/internal/appquery"
)

// EpochHead is one epoch column of /epochs.
type EpochHead struct {
	Number      uint64 `json:"number"`
	Height      int64  `json:"height"`
	Unallocated string `json:"unallocated"`
	Link        string `json:"link"`
}

// EpochsRow is one uid of /epochs: its weight in each epoch shown.
type EpochsRow struct {
	UID uint32 `json:"uid"`
	// Label says what the uid is: "burn (unallocated)" for uid 0, "active",
	// "inactive since height H" for a miner the activity cutoff dropped at
	// H (it stays listed rather than vanishing), "not scored yet", or "not
	// registered" for a uid an epoch weighed that no key holds now.
	Label   string   `json:"label"`
	Weights []string `json:"weights"` // per epoch of Epochs; "" when it had none
	Link    string   `json:"link"`    // its miner page ("" for the burn uid)
}

// EpochsPage is /epochs: the last epochs' weights, newest first.
type EpochsPage struct {
	Status Status      `json:"status"`
	Epochs []EpochHead `json:"epochs"`
	Rows   []EpochsRow `json:"rows"`
}

// burnLabel names the uid the unallocated weight goes to.
const burnLabel = "burn (unallocated)"

func (r reader) epochs() (*EpochsPage, error) {
	st, p, err := r.statusParams()
	if err != nil {
		return nil, err
	}
	eps, err := r.recentEpochs()
	if err != nil {
		return nil, err
	}
	mg, err := appquery.Get[wire.MetagraphView](r.ctx, r.q, "metagraph")
	if err != nil {
		return nil, err
	}
	page := &EpochsPage{Status: st, Epochs: []EpochHead{}, Rows: []EpochsRow{}}
	for _, e := range eps {
		page.Epochs = append(page.Epochs, EpochHead{Number: e.Number, Height: e.Height, Unallocated: e.Unallocated,
			Link: fmt.Sprintf("/epoch/%d", e.Number)})
	}
	labels := map[uint32]string{0: burnLabel}
	for _, u := range mg.UIDs {
		if u.UID == 0 {
			continue
		}
		var from int64
		if !scored(u) && u.LastUpdate > 0 {
			if from, err = r.inactiveFrom(p, u.UID); err != nil {
				return nil, err
			}
		}
		labels[u.UID] = uidLabel(u, from)
	}
	for _, e := range eps {
		for _, uid := range e.UIDs {
			if _, ok := labels[uid]; !ok {
				labels[uid] = "not registered"
			}
		}
	}
	for uid, label := range labels {
		row := EpochsRow{UID: uid, Label: label, Weights: make([]string, len(eps))}
		if uid != 0 && label != "not registered" {
			row.Link = fmt.Sprintf("/miner/%d", uid)
		}
		for i, e := range eps {
			row.Weights[i] = epochWeight(e, uid)
		}
		page.Rows = append(page.Rows, row)
	}
	sort.Slice(page.Rows, func(i, j int) bool { return page.Rows[i].UID < page.Rows[j].UID })
	return page, nil
}

// scored reports whether the uid has an aggregate on some track now.
func scored(u wire.MetagraphUIDView) bool {
	for _, s := range u.Scores {
		if s != nil {
			return true
		}
	}
	return false
}

// uidLabel says whether a registered uid counts now; from is the height
// it lost its last aggregate (inactiveFrom), read for a uid that has none.
func uidLabel(u wire.MetagraphUIDView, from int64) string {
	switch {
	case scored(u):
		return "active"
	case from > 0:
		return inactiveSince(from)
	case u.LastUpdate > 0: // its scored work is gone from the state
		return fmt.Sprintf("inactive (last scored at height %d)", u.LastUpdate)
	}
	return "not scored yet"
}

// epochWeight is uid's weight in e: the burn uid's is the unallocated
// share; "" when e gave the uid none.
func epochWeight(e *wire.EpochResultView, uid uint32) string {
	for i, u := range e.UIDs {
		if u == uid && i < len(e.Weights) {
			return e.Weights[i]
		}
	}
	if uid == 0 {
		return e.Unallocated
	}
	return ""
}
