package setup

import (
	"context"
	"time"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// PostTasks sends n copies of task with s, nonces pipelined, at most batch in the mempool at
// once, waits for each batch's blocks (at most timeout each) and returns the tasks' ids in
// order. s should send to one node, so that its nonces reach one mempool in order.
func PostTasks(ctx context.Context, s *client.Signer, task *subnetv1.Msg, n, batch int, timeout time.Duration) ([]uint64, error) {
	var ids []uint64
	for done := 0; done < n; {
		var hashes []string
		for j := 0; j < batch && done+j < n; j++ {
			res, err := s.Send(ctx, task)
			if err != nil {
				return ids, err
			}
			hashes = append(hashes, res.Hash)
		}
		for _, h := range hashes {
			res, err := s.WaitTx(ctx, h, timeout)
			if err != nil {
				return ids, err
			}
			id, _, err := TaskPosted(res)
			if err != nil {
				return ids, err
			}
			ids = append(ids, id)
		}
		done += len(hashes)
	}
	return ids, nil
}

// TaskPosted is the id and track of the task a committed PostTask posted.
func TaskPosted(res client.TxResult) (uint64, string, error) {
	id, err := res.AttrU64(wire.EventTaskPosted, "task_id")
	if err != nil {
		return 0, "", err
	}
	track, _ := res.Attr(wire.EventTaskPosted, "track")
	return id, track, nil
}

// Share is part i's share of n things split into parts parts: n/parts, one more for the first
// n%parts parts.
func Share(n, parts, i int) int {
	if i < n%parts {
		return n/parts + 1
	}
	return n / parts
}
