// Package genesis owns the application state inside CometBFT's genesis.json
// (app_state): the chain parameters, the validators with their report keys,
// the tracks with their shares, and every scoring and window parameter. It
// also owns the bound on CometBFT's consensus params that the app's block
// budget relies on (CheckConsensusParams: block.max_bytes at most 4 MiB).
// Decimals are JSON strings; decoding is strict (unknown fields are rejected)
// and always followed by Validate, whose errors are *FieldError values that
// name the field.
//
//	st := genesis.DefaultGenesis()
//	st.Validators = []genesis.Validator{v}
//	bz, _ := st.Encode()
//	back, err := genesis.Decode(bz) // err names the first bad field
package genesis
