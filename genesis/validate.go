package genesis

// Validate checks the chain params, the validators, the tracks and every
// params section. The first failure is returned as a *FieldError.
func (s AppState) Validate() error {
	if err := s.Chain.Validate(); err != nil {
		return err
	}
	if err := validateValidators(s.Validators); err != nil {
		return err
	}
	return s.validateSections()
}

// ValidateParams is Validate without the validators: what a tool that
// writes a genesis checks of its settings before it makes anything (the
// validators come later, from the homes it creates).
func (s AppState) ValidateParams() error {
	if err := s.Chain.Validate(); err != nil {
		return err
	}
	return s.validateSections()
}

// validateSections checks the tracks and every params section, in order.
func (s AppState) validateSections() error {
	if err := validateTracks(s.Tracks); err != nil {
		return err
	}
	if s.HasTrack(TrackGas) && len(s.Chain.GasChains) == 0 {
		return fieldErr("chain.gas_chains", "[]", "the gas track needs at least one EVM chain")
	}
	if err := wrapParams("workflow", s.Workflow.Validate()); err != nil {
		return err
	}
	if err := wrapParams("arena", s.Arena.Validate()); err != nil {
		return err
	}
	if err := wrapParams("gas", s.Gas.Validate()); err != nil {
		return err
	}
	if err := wrapParams("window", s.Window.Validate()); err != nil {
		return err
	}
	if err := s.validateMirror(); err != nil {
		return err
	}
	if err := s.validateMembership(); err != nil {
		return err
	}
	if err := s.validateGovernance(); err != nil {
		return err
	}
	if err := s.validateCommit(); err != nil {
		return err
	}
	if err := s.validateActivity(); err != nil {
		return err
	}
	if err := s.validateEpochBound(); err != nil {
		return err
	}
	if err := s.validateRetention(); err != nil {
		return err
	}
	return s.validateGasBound()
}
