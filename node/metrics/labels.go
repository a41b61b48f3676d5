package metrics

import (
	"context"

	"github.com/scoringsubnet/validatord/app"
	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/internal/appquery"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// Every labelled counter exists at 0 for each value its label can take
// from the start of the process, so a restarted node shows "none yet" as 0
// rather than as no series, and rate() and increase() see the first event.

// MsgTypes are the values of the msg_type label: the fields of the proto's
// Msg oneof (the names MsgType gives), then MsgUndecodable and MsgEmpty.
func MsgTypes() []string {
	wrappers := (*subnetv1.Msg)(nil).XXX_OneofWrappers()
	out := make([]string, 0, len(wrappers)+2)
	for _, w := range wrappers {
		out = append(out, sumName(w))
	}
	return append(out, MsgUndecodable, MsgEmpty)
}

// SubEvents are the values of validatord_submissions_total's event label.
var SubEvents = []string{SubReceived, SubScored, SubExpired, SubContested, SubDuplicate, SubClosed}

// initStatic creates the series whose label values the code fixes: every
// message type with every result code (wire.Codes), every end-of-block
// step, both batch results.
func (m *Metrics) initStatic() {
	for _, mt := range MsgTypes() {
		for _, c := range wire.Codes {
			m.Txs.WithLabelValues(mt, c.Name)
		}
	}
	for _, s := range app.EndBlockSteps() {
		m.Carried.WithLabelValues(s)
	}
	for _, r := range []string{"ok", "failed"} {
		m.CheckTxBatches.WithLabelValues(r)
	}
}

// initTracks creates the per-track series for the chain's tracks, read from
// the app's params; it reports whether they were read (a chain not
// initialised yet answers no params).
func (o *observer) initTracks(ctx context.Context) bool {
	tracks, err := appquery.Tracks(ctx, o.app)
	if err != nil {
		return false
	}
	for _, tr := range tracks {
		for _, e := range SubEvents {
			o.m.Submissions.WithLabelValues(tr, e)
		}
		o.m.Pending.WithLabelValues(tr)
	}
	return true
}
