package miner

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/scoringsubnet/validatord/client"
	"github.com/scoringsubnet/validatord/daemon/extcmd"
	"github.com/scoringsubnet/validatord/oracle"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/x/scoring"
)

// gasState is what the daemon knows of its EVM chain.
type gasState struct {
	chainID  uint64
	maxAhead uint64 // the chain's max_prediction_ahead
	// done holds the windows committed (or stored to commit), by first
	// block; those at or below the last closed window are dropped.
	done map[uint64]bool
}

// PriceInput is the JSON a price command reads on stdin.
type PriceInput struct {
	EvmChainID uint64   `json:"evm_chain_id"`
	Head       uint64   `json:"head"`
	Blocks     []uint64 `json:"blocks"`
	EvmRPC     string   `json:"evm_rpc"`
}

// dialEVM dials the gas track's endpoint, bounded by timeout.
func dialEVM(ctx context.Context, url string, timeout time.Duration) (*oracle.EVM, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	evm, err := oracle.DialEVM(ctx, url)
	if err != nil {
		return nil, fmt.Errorf("[gas] evm_rpc %s: %w", url, err)
	}
	return evm, nil
}

// gasPayloads are the predictions of the windows now due: aligned to the
// chain's window size k, at least [gas] lead above the EVM head (so they
// count), above the chain's last closed window and at most ahead past it
// (so they are taken), and not committed before.
func (dm *Daemon) gasPayloads(ctx context.Context) ([]*subnetv1.MsgSubmit, error) {
	if dm.cfg.Gas.EvmRPC == "" || !dm.hasUID {
		return nil, nil
	}
	tctx, cancel := context.WithTimeout(ctx, dm.cfg.Gas.Timeout.D())
	defer cancel()
	if dm.gas.chainID == 0 {
		id := dm.cfg.Gas.EvmChainID
		if id == 0 {
			got, err := dm.d.EVM.ChainID(tctx)
			if err != nil {
				return nil, fmt.Errorf("asking [gas] evm_rpc its chain id: %w", err)
			}
			id = got
		}
		ahead, err := dm.maxAhead(ctx)
		if err != nil {
			return nil, err
		}
		dm.gas.chainID, dm.gas.maxAhead = id, ahead
	}
	head, err := dm.d.EVM.Head(tctx)
	if err != nil {
		return nil, fmt.Errorf("EVM head: %w", err)
	}
	gc, err := dm.d.Node.GasChain(ctx, dm.gas.chainID)
	if err != nil {
		return nil, fmt.Errorf("EVM chain %d on this chain: %w", dm.gas.chainID, err)
	}
	if gc.LastClosedBlock == nil || gc.Paused {
		return nil, nil // not anchored by a first truth yet, or paused: commits would be refused
	}
	last := *gc.LastClosedBlock
	for b := range dm.gas.done {
		if b <= last {
			delete(dm.gas.done, b)
		}
	}
	k := max(gc.WindowBlocks, 1)
	ahead := dm.gas.maxAhead
	if a := dm.cfg.Gas.Ahead; a > 0 && a < ahead {
		ahead = a
	}
	lo := max(head+dm.cfg.Gas.Lead, last+1)
	lo = (lo + k - 1) / k * k
	var blocks []uint64
	for b := lo; b <= last+ahead && len(blocks) < 256; b += k {
		if !dm.gas.done[b] {
			blocks = append(blocks, b)
		}
	}
	if len(blocks) == 0 {
		return nil, nil
	}
	prices, err := dm.prices(ctx, head, blocks)
	if err != nil {
		for range blocks {
			dm.m.misses.WithLabelValues("gas", MissPrice).Inc()
		}
		return nil, fmt.Errorf("no price for blocks %d-%d: %w", blocks[0], blocks[len(blocks)-1], err)
	}
	out := make([]*subnetv1.MsgSubmit, len(blocks))
	for i, b := range blocks {
		out[i] = client.GasPayload(dm.gas.chainID, b, prices[i])
	}
	return out, nil
}

// maxAhead reads chain.max_prediction_ahead from the params in force.
func (dm *Daemon) maxAhead(ctx context.Context) (uint64, error) {
	p, err := dm.d.Node.Params(ctx)
	if err != nil {
		return 0, err
	}
	var st struct {
		Chain struct {
			MaxPredictionAhead uint64 `json:"max_prediction_ahead"`
		} `json:"chain"`
	}
	if err := json.Unmarshal(p.AppState, &st); err != nil || st.Chain.MaxPredictionAhead == 0 {
		return 0, fmt.Errorf("params: no chain.max_prediction_ahead (%v)", err)
	}
	return st.Chain.MaxPredictionAhead, nil
}

// prices asks the price command (one price, or one per block) or the
// feed (one price) and returns one canonical price per block.
func (dm *Daemon) prices(ctx context.Context, head uint64, blocks []uint64) ([]string, error) {
	var raw []byte
	if dm.cfg.Gas.PriceURL != "" {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, dm.cfg.Gas.PriceURL, nil)
		if err != nil {
			return nil, err
		}
		resp, err := dm.d.HTTP.Do(req)
		if err != nil {
			return nil, err
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return nil, fmt.Errorf("[gas] price_url: status %s", resp.Status)
		}
		if raw, err = io.ReadAll(io.LimitReader(resp.Body, 1024)); err != nil {
			return nil, err
		}
	} else {
		cmd, err := extcmd.Parse(dm.cfg.Gas.PriceCommand)
		if err != nil {
			return nil, fmt.Errorf("[gas] price_command: %w", err)
		}
		cmd.Timeout, cmd.MaxOutput = dm.cfg.Gas.Timeout.D(), 64*1024
		in, err := json.Marshal(PriceInput{EvmChainID: dm.gas.chainID, Head: head, Blocks: blocks, EvmRPC: dm.cfg.Gas.EvmRPC})
		if err != nil {
			return nil, err
		}
		if raw, err = cmd.Run(ctx, in); err != nil {
			return nil, err
		}
	}
	return parsePrices(raw, len(blocks))
}

// parsePrices reads one price per line: a single line is every block's.
func parsePrices(raw []byte, n int) ([]string, error) {
	var lines []string
	sc := bufio.NewScanner(bytes.NewReader(raw))
	for sc.Scan() {
		if l := strings.TrimSpace(sc.Text()); l != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) != 1 && len(lines) != n {
		return nil, fmt.Errorf("%d price lines for %d blocks: print one price for all or one per block", len(lines), n)
	}
	out := make([]string, n)
	for i := range out {
		l := lines[min(i, len(lines)-1)]
		v, err := scoring.Parse(l)
		if err != nil {
			return nil, fmt.Errorf("price %q: %w", l, err)
		}
		if !v.IsPositive() {
			return nil, fmt.Errorf("price %q: must be positive", l)
		}
		out[i] = scoring.Format(v)
	}
	return out, nil
}
