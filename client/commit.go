package client

import (
	"crypto/rand"
	"fmt"

	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/x/commit"
)

// Salt is the 32 random bytes that make a commitment unguessable: a gas
// price or a task id has little entropy, so without it anyone could hash
// candidate payloads until one matched.
type Salt = [commit.SaltSize]byte

// NewSalt draws a salt from crypto/rand.
func NewSalt() (Salt, error) {
	var s Salt
	if _, err := rand.Read(s[:]); err != nil {
		return s, fmt.Errorf("client: salt: %w", err)
	}
	return s, nil
}

// Target names what a payload is for: a task, or one block of one EVM chain.
type Target struct {
	TaskID     uint64 `json:"task_id,omitempty"`
	EVMChainID uint64 `json:"evm_chain_id,omitempty"`
	EVMBlock   uint64 `json:"evm_block,omitempty"`
	Gas        bool   `json:"gas,omitempty"`
}

// String is "task N" or "evm chain C block B".
func (t Target) String() string {
	if t.Gas {
		return fmt.Sprintf("evm chain %d block %d", t.EVMChainID, t.EVMBlock)
	}
	return fmt.Sprintf("task %d", t.TaskID)
}

// Name is the target as one word, the name of its file in a SaltStore:
// "task-<id>" or "evm-<chain id>-<block>".
func (t Target) Name() string {
	if t.Gas {
		return fmt.Sprintf("evm-%d-%d", t.EVMChainID, t.EVMBlock)
	}
	return fmt.Sprintf("task-%d", t.TaskID)
}

// TargetOf is the target a payload names.
func TargetOf(p *subnetv1.MsgSubmit) (Target, error) {
	switch k := p.GetKind().(type) {
	case *subnetv1.MsgSubmit_Workflow:
		return Target{TaskID: k.Workflow.GetTaskId()}, nil
	case *subnetv1.MsgSubmit_Arena:
		return Target{TaskID: k.Arena.GetTaskId()}, nil
	case *subnetv1.MsgSubmit_Gas:
		return Target{Gas: true, EVMChainID: k.Gas.GetEvmChainId(), EVMBlock: k.Gas.GetEvmBlock()}, nil
	}
	return Target{}, fmt.Errorf("client: payload has no content")
}

// Commitment is x/commit.Commitment of payload for the miner (sender key
// and uid) on chainID.
func Commitment(chainID string, sender []byte, uid uint32, payload *subnetv1.MsgSubmit, salt Salt) ([]byte, error) {
	bz, err := payload.Marshal()
	if err != nil {
		return nil, fmt.Errorf("client: payload: %w", err)
	}
	c := commit.Commitment(chainID, sender, uid, bz, salt)
	return c[:], nil
}

// Commit is the MsgCommit of payload for the miner (sender key and uid) on
// chainID: the target in clear, the payload only as its commitment.
func Commit(chainID string, sender []byte, uid uint32, payload *subnetv1.MsgSubmit, salt Salt) (*subnetv1.Msg, error) {
	t, err := TargetOf(payload)
	if err != nil {
		return nil, err
	}
	c, err := Commitment(chainID, sender, uid, payload, salt)
	if err != nil {
		return nil, err
	}
	m := &subnetv1.MsgCommit{Commitment: c}
	if t.Gas {
		m.Target = &subnetv1.MsgCommit_Gas{Gas: &subnetv1.GasTarget{EvmChainId: t.EVMChainID, EvmBlock: t.EVMBlock}}
	} else {
		m.Target = &subnetv1.MsgCommit_TaskId{TaskId: t.TaskID}
	}
	return &subnetv1.Msg{Sum: &subnetv1.Msg_Commit{Commit: m}}, nil
}

// Reveal is the MsgReveal of a committed payload.
func Reveal(payload *subnetv1.MsgSubmit, salt Salt) *subnetv1.Msg {
	return &subnetv1.Msg{Sum: &subnetv1.Msg_Reveal{Reveal: &subnetv1.MsgReveal{Submit: payload, Salt: append([]byte(nil), salt[:]...)}}}
}
