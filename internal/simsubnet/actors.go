package simsubnet

import (
	"crypto/sha256"
	"fmt"

	"github.com/scoringsubnet/validatord/client"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/scripts/loadgen/setup"
)

// validator is one validator's report key and whether it is the
// adversary.
type validator struct {
	*actor
	index     int
	adversary bool
}

// miner is one miner's key and uid (once registered).
type miner struct {
	*actor
	index      int
	uid        uint32
	registered bool
}

// pendingSub is a payload a miner committed to, waiting for its reveal.
type pendingSub struct {
	miner    *miner
	payload  *subnetv1.MsgSubmit
	salt     client.Salt
	track    string
	task     uint64 // task tracks
	evmBlock int64  // gas: the sim's EVM block index
}

// draw is a deterministic number in [0, n) from the seed and parts (setup.Draw).
func draw(seed string, n int64, parts ...any) int64 { return setup.Draw(seed, n, parts...) }

// orderKey sorts a height's messages (see message.order).
func orderKey(seed string, parts ...any) [32]byte {
	return sha256.Sum256([]byte(fmt.Sprint(append([]any{seed, "order"}, parts...)...)))
}

// salt is the miner's salt of a payload: derived, not drawn, so that runs
// repeat (client.NewSalt draws from crypto/rand).
func salt(seed string, parts ...any) client.Salt {
	return sha256.Sum256([]byte(fmt.Sprint(append([]any{seed, "salt"}, parts...)...)))
}

// evmTime is the timestamp of the sim's EVM block b.
func (s *sim) evmTime(b int64) int64 { return GenesisTime + b*s.cfg.EVMEvery*BlockSeconds }

// truthMilli is EVM block b's minimum gas price in thousandths of a gwei.
func truthMilli(b int64) int64 { return 20_000 + 500*(b%7) }

func truthPrice(b int64) string {
	m := truthMilli(b)
	return fmt.Sprintf("%d.%03d", m/1000, m%1000)
}

// report is validator v's report on a revealed task submission.
func (s *sim) report(v *validator, sub *subRecord) *subnetv1.Msg {
	return setup.Report(s.cfg.Seed, v.index, v.adversary, sub.track, sub.id, sub.miner, sub.task)
}
