package genesis

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"reflect"

	"github.com/scoringsubnet/validatord/x/membership"
	"github.com/scoringsubnet/validatord/x/scoring"
	"github.com/scoringsubnet/validatord/x/window"
)

// AppState is the app_state of genesis.json.
type AppState struct {
	Chain      ChainParams            `json:"chain"`
	Validators []Validator            `json:"validators"`
	Tracks     []Track                `json:"tracks"`
	Workflow   scoring.WorkflowParams `json:"workflow"`
	Arena      scoring.ArenaParams    `json:"arena"`
	Gas        scoring.GasParams      `json:"gas"`
	Window     window.Params          `json:"window"`
	Membership membership.Params      `json:"membership"`
	Governance Governance             `json:"governance"`
	// Mirror is read only when chain.registration = mirror, and required then.
	Mirror *MirrorParams `json:"mirror,omitempty"`
}

// Decode parses app_state strictly (unknown fields and trailing data are
// rejected) and validates it.
func Decode(bz []byte) (AppState, error) {
	var st AppState
	if err := CheckKeys(bz, reflect.TypeFor[AppState](), "app_state"); err != nil {
		return AppState{}, err
	}
	dec := json.NewDecoder(bytes.NewReader(bz))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&st); err != nil {
		return AppState{}, &FieldError{Field: "app_state", Value: "(json)", Reason: At(bz, err).Error() + " (line 1 is the line of app_state's opening brace)"}
	}
	if _, err := dec.Token(); err != io.EOF {
		return AppState{}, fieldErr("app_state", "(json)", "trailing data after the object")
	}
	if err := st.Validate(); err != nil {
		return AppState{}, err
	}
	return st, nil
}

// Encode returns the app state as indented JSON.
func (s AppState) Encode() ([]byte, error) {
	bz, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("genesis: encode: %w", err)
	}
	return bz, nil
}

// HasTrack reports whether the named track runs on this chain.
func (s AppState) HasTrack(name string) bool {
	for _, t := range s.Tracks {
		if t.Name == name {
			return true
		}
	}
	return false
}

// TotalPower is the sum of the validators' voting powers.
func (s AppState) TotalPower() int64 {
	var total int64
	for _, v := range s.Validators {
		total += v.Power
	}
	return total
}
