package main

import (
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/cometbft/cometbft/privval"

	"github.com/scoringsubnet/validatord/internal/keyfile"
)

// consensusKeyInfo is what `keys show-consensus` prints about a node home:
// the public parts a validator's `tx propose validators --add` needs.
type consensusKeyInfo struct {
	Moniker   string `json:"moniker"`
	Address   string `json:"address"`              // CometBFT consensus address (hex)
	PubKey    string `json:"pub_key"`              // ed25519 consensus key, base64 as in genesis.json
	PubKeyHex string `json:"pub_key_hex"`          // the same key in hex
	ReportKey string `json:"report_key,omitempty"` // hex, when <home>/keys holds the report key init made
}

// showConsensus reads the home's priv_validator_key.json (where config.toml
// puts it) and returns its public part, never the private key.
func showConsensus(home string) (consensusKeyInfo, error) {
	conf, err := loadConfig(home)
	if err != nil {
		return consensusKeyInfo{}, err
	}
	var key privval.FilePVKey
	if err := unmarshalFile(conf.PrivValidatorKeyFile(), &key); err != nil {
		return consensusKeyInfo{}, err
	}
	if key.PubKey == nil {
		return consensusKeyInfo{}, fmt.Errorf("%s: no pub_key", conf.PrivValidatorKeyFile())
	}
	pub := key.PubKey.Bytes()
	info := consensusKeyInfo{
		Moniker:   conf.Moniker,
		Address:   key.PubKey.Address().String(),
		PubKey:    base64.StdEncoding.EncodeToString(pub),
		PubKeyHex: hex.EncodeToString(pub),
	}
	report, err := keyfile.Load(home, reportKeyName)
	switch {
	case err == nil:
		info.ReportKey = keyfile.InfoOf(reportKeyName, report).PubKey
	case !errors.Is(err, keyfile.ErrNotFound):
		return consensusKeyInfo{}, err
	}
	return info, nil
}
