package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/scoringsubnet/validatord/client"
)

const queryTxUsage = "query tx <hash> [-o json|text] [--node URL]   (the hash `validatord tx` printed, either case)"

// runQueryTx shows a committed transaction (client.TxInfo through
// CometBFT's /tx): its decoded message, code and name, log, events and the
// ids it created. JSON by default: a record, as `validatord tx` prints.
func runQueryTx(ctx context.Context, env Env, args []string) error {
	fs := newFlags("query tx")
	node := nodeFlag(fs)
	homeFlag(fs)
	out := queryOutputFlag(fs, outputJSON)
	pos, ok, err := parseFlags(env, fs, queryTxUsage, args)
	if !ok || err != nil {
		return err
	}
	if err := wantArgs(pos, 1, queryTxUsage); err != nil {
		return err
	}
	c, err := dialNode(*node)
	if err != nil {
		return err
	}
	info, err := c.TxInfo(ctx, pos[0])
	if err != nil {
		return oneLine(err)
	}
	if out.format == outputJSON {
		return printJSON(env.Stdout, info)
	}
	return printTxText(env, info)
}

func printTxText(env Env, info *client.TxInfo) error {
	var b strings.Builder
	fmt.Fprintf(&b, "hash:      %s\nheight:    %d\ncode:      %d %s\n", info.Hash, info.Height, info.Code, info.CodeName)
	if info.Log != "" {
		fmt.Fprintf(&b, "log:       %s\n", info.Log)
	}
	fmt.Fprintf(&b, "sender:    %s\nnonce:     %d\nchain id:  %s\nmessage:   %s\n", info.Sender, info.Nonce, info.ChainID, info.Msg)
	created := []struct {
		name string
		v    *uint64
	}{{"submission", info.Created.SubmissionID}, {"task", info.Created.TaskID}, {"uid", info.Created.UID}, {"proposal", info.Created.ProposalID}}
	for _, c := range created {
		if c.v != nil {
			fmt.Fprintf(&b, "created:   %s %d\n", c.name, *c.v)
		}
	}
	for _, e := range info.Events {
		fmt.Fprintf(&b, "event:     %s", e.Type)
		for _, a := range e.Attributes {
			fmt.Fprintf(&b, " %s=%s", a.Key, a.Value)
		}
		b.WriteString("\n")
	}
	_, err := fmt.Fprint(env.Stdout, b.String())
	return err
}
