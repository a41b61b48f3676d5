package demo

import (
	"context"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// commitment is a payload a miner committed to, kept in memory with its
// salt until its reveal (docs/commit-reveal.md).
type commitment struct {
	m       *actor
	payload *subnetv1.MsgSubmit
	salt    client.Salt
	sub     uint64 // the submission: the commit made it

	commitHeight, revealHeight int64
}

// commit commits m to each payload (one transaction each, in order) under
// fresh salts and waits until all are committed.
func commit(ctx context.Context, m *actor, payloads []*subnetv1.MsgSubmit) ([]*commitment, error) {
	cs := make([]*commitment, len(payloads))
	msgs := make([]*subnetv1.Msg, len(payloads))
	for i, p := range payloads {
		salt, err := client.NewSalt()
		if err != nil {
			return nil, err
		}
		msg, err := client.Commit(m.c.id, m.s.PubKey(), m.uid, p, salt)
		if err != nil {
			return nil, err
		}
		cs[i], msgs[i] = &commitment{m: m, payload: p, salt: salt}, msg
	}
	res, err := m.send(ctx, "commit", msgs...)
	if err != nil {
		return nil, err
	}
	for i, r := range res {
		if cs[i].sub, err = r.AttrU64(wire.EventSubmissionAdded, "submission_id"); err != nil {
			return nil, err
		}
		cs[i].commitHeight = r.Height
	}
	return cs, nil
}

// reveal reveals each commitment of m (in order) and waits until all are
// committed.
func reveal(ctx context.Context, m *actor, cs []*commitment) error {
	msgs := make([]*subnetv1.Msg, len(cs))
	for i, c := range cs {
		msgs[i] = client.Reveal(c.payload, c.salt)
	}
	res, err := m.send(ctx, "reveal", msgs...)
	if err != nil {
		return err
	}
	for i, r := range res {
		cs[i].revealHeight = r.Height
	}
	return nil
}
