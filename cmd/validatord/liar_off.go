//go:build !liar

package main

import (
	abcitypes "github.com/cometbft/cometbft/abci/types"
	cmtlog "github.com/cometbft/cometbft/libs/log"
)

// lying returns a unchanged: the altered answers of the test build under
// the tag liar (liar.go) are absent from every other build.
func lying(a abcitypes.Application, _ cmtlog.Logger) (abcitypes.Application, error) {
	return a, nil
}
