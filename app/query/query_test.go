package query

import (
	"testing"

	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/app/wire"
)

// TestAnswerBeforeInitChain: before InitChain only "status" answers; a
// path is refused for its route before the state is read.
func TestAnswerBeforeInitChain(t *testing.T) {
	v := &View{St: store.State{O: store.NewOverlay(store.Empty{})}}
	if got, qerr := v.Answer("/status"); qerr != nil || got.(*wire.StatusView).ChainID != nil {
		t.Fatalf("status = %+v, %v", got, qerr)
	}
	for path, want := range map[string]Error{
		"nope":           {wire.QueryBadRequest, `unknown query path "nope" (see docs/queries.md)`},
		"miner":          {wire.QueryBadRequest, `query "miner" takes 1 argument(s)`},
		"miner/1":        {wire.QueryNotFound, "the chain is not initialised yet"},
		"task/1/results": {wire.QueryNotFound, "the chain is not initialised yet"},
	} {
		if _, qerr := v.Answer(path); qerr == nil || *qerr != want {
			t.Errorf("%s: %+v, want %+v", path, qerr, want)
		}
	}
}
