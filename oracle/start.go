package oracle

import "context"

// NodeChainID reads the node's chain id with status (client.Client's
// NodeStatus), retrying with the oracle's backoff while the node does not
// answer: an oracle started before its node, or beside a node that is
// restarting, waits for it instead of failing. One line when the node does
// not answer, one when it does (cfg.Logf), never one per attempt.
func NodeChainID(ctx context.Context, cfg Config, status func(context.Context) (string, error)) (string, error) {
	o := New(cfg, nil, nil, nil)
	var id string
	err := o.retryTimed(ctx, &o.node, "read the node's chain id (status)", func(ctx context.Context) (err error) {
		id, err = status(ctx)
		return err
	})
	return id, err
}
