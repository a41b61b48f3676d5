// Package subnetv1 holds the generated gogoproto types of the subnet: the signed
// transaction envelope and its messages (tx.proto) and the state records stored
// in badger (state.proto). Regenerate with scripts/protogen.sh.
//
//	body := &subnetv1.TxBody{ChainId: "subnet-1", Sender: pub, Nonce: 0,
//		Msg: &subnetv1.Msg{Sum: &subnetv1.Msg_RegisterMiner{RegisterMiner: &subnetv1.MsgRegisterMiner{}}}}
//	bz, err := body.Marshal()
package subnetv1
