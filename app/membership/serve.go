package membership

import (
	abcitypes "github.com/cometbft/cometbft/abci/types"

	"github.com/scoringsubnet/validatord/app/kernel"
	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/app/wire"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// checkServe: the address (83), then the uid's interval since its last
// accepted serve (84). The route refused a sender that owns no uid (11)
// before this, in either registration mode: in mirror mode a tx key bound
// to a parent uid owns it, as for a commit.
func checkServe(env kernel.Env, tx *kernel.Tx) *wire.TxError {
	m := tx.Body.Msg.GetServe()
	if m == nil {
		return wire.Reject(wire.CodeEmptyMsg, "serve is empty")
	}
	if err := wire.CheckServeAddress(m.Address); err != nil {
		return wire.Reject(wire.CodeServeAddress, "serve: "+err.Error())
	}
	rec := &subnetv1.Miner{}
	env.St.Load(store.KeyMiner(tx.Account.Uid), rec)
	if from := wire.ServeFrom(rec.ServedHeight); env.Block.Height < from {
		return wire.Rejectf(wire.CodeServeTooSoon, "serve: uid %d served at height %d; a uid may serve once every %d blocks: send it again at height %d or later",
			tx.Account.Uid, rec.ServedHeight, wire.ServeInterval, from)
	}
	return nil
}

// execServe writes the address and the height into the sender's Miner
// record: one record rewritten, no new key. A new owner of the uid gets a
// fresh record (registration, a mirror reset), so it starts without one.
func execServe(env kernel.Env, tx *kernel.Tx) []abcitypes.Event {
	st, uid, m := env.St, tx.Account.Uid, tx.Body.Msg.GetServe()
	rec := &subnetv1.Miner{}
	st.Load(store.KeyMiner(uid), rec)
	rec.Address, rec.ServedHeight = m.Address, env.Block.Height
	st.Save(store.KeyMiner(uid), rec)
	return []abcitypes.Event{wire.Event(wire.EventMinerServed, "uid", kernel.U64s(uint64(uid)), "address", m.Address)}
}
