package genesis

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/scoringsubnet/validatord/x/scoring"
)

func key(label string) ed25519.PublicKey {
	seed := sha256.Sum256([]byte(label))
	return ed25519.NewKeyFromSeed(seed[:]).Public().(ed25519.PublicKey)
}

func validator(name string) Validator {
	cons := key("cons-" + name)
	return Validator{Name: name, Address: hex.EncodeToString(ConsensusAddress(cons)),
		PubKey: base64.StdEncoding.EncodeToString(cons), Power: 10, ReportKey: hex.EncodeToString(key("rep-" + name))}
}

func valid() AppState {
	g := DefaultGenesis()
	g.Validators = []Validator{validator("a"), validator("b")}
	return g
}

func TestValidate(t *testing.T) {
	d := decimal.RequireFromString
	cases := []struct {
		name  string
		edit  func(*AppState)
		field string // "" = valid
	}{
		{"default with validators", func(*AppState) {}, ""},
		{"one track with share 1", func(g *AppState) { g.Tracks = []Track{withCutoff(NewTrack(TrackGas, d("1")), 100)} }, ""},
		{"no validators", func(g *AppState) { g.Validators = nil }, "validators"},
		{"empty name", func(g *AppState) { g.Validators[0].Name = " " }, "validators[0].name"},
		{"bad pubkey", func(g *AppState) { g.Validators[1].PubKey = "AAAA" }, "validators[1].pub_key"},
		{"address of another key", func(g *AppState) { g.Validators[0].Address = g.Validators[1].Address }, "validators[0].address"},
		{"zero power", func(g *AppState) { g.Validators[0].Power = 0 }, "validators[0].power"},
		{"power overflow", func(g *AppState) { g.Validators[0].Power = MaxTotalPower; g.Validators[1].Power = 1 }, "validators[1].power"},
		{"total power at CometBFT's limit", func(g *AppState) { g.Validators[0].Power = MaxTotalPower - g.Validators[1].Power }, ""},
		{"total power of exactly 2^60", func(g *AppState) { g.Validators[0].Power = 1<<60 - g.Validators[1].Power }, "validators[1].power"},
		{"short report key", func(g *AppState) { g.Validators[0].ReportKey = "abcd" }, "validators[0].report_key"},
		{"duplicate name", func(g *AppState) { g.Validators[1].Name = "a" }, "validators[1].name"},
		{"duplicate report key", func(g *AppState) { g.Validators[1].ReportKey = g.Validators[0].ReportKey }, "validators[1].report_key"},
		{"no tracks", func(g *AppState) { g.Tracks = nil }, "tracks"},
		{"unknown track", func(g *AppState) { g.Tracks[0].Name = "chess" }, "tracks[0].name"},
		{"duplicate track", func(g *AppState) { g.Tracks[1].Name = TrackWorkflow }, "tracks[1].name"},
		{"zero share", func(g *AppState) {
			g.Tracks = []Track{withCutoff(NewTrack(TrackGas, d("0")), 100), withCutoff(NewTrack(TrackArena, d("1")), 100)}
		}, "tracks[0].share"},
		{"19 places", func(g *AppState) {
			g.Tracks = []Track{withCutoff(NewTrack(TrackGas, d("0.0000000000000000001")), 100), withCutoff(NewTrack(TrackArena, d("0.9999999999999999999")), 100)}
		}, "tracks[0].share"},
		{"shares sum 0.9", func(g *AppState) { g.Tracks[2].Share = d("0.1") }, "tracks"},
		{"activity cutoff equal to the epoch", func(g *AppState) { g.Tracks[0].ActivityCutoffBlocks = g.Window.EpochBlocks }, ""},
		{"activity cutoff below the epoch", func(g *AppState) { g.Tracks[1].ActivityCutoffBlocks = g.Window.EpochBlocks - 1 }, "tracks[1].activity_cutoff_blocks"},
		{"activity cutoff 0 (missing)", func(g *AppState) { g.Tracks[2].ActivityCutoffBlocks = 0 }, "tracks[2].activity_cutoff_blocks"},
		{"activity cutoff at the limit", func(g *AppState) { g.Tracks[2].ActivityCutoffBlocks = MaxBlocksLimit }, ""},
		{"retention off (0)", func(g *AppState) { g.Chain.RetainStateBlocks = 0 }, ""},
		{"retention negative", func(g *AppState) { g.Chain.RetainStateBlocks = -1 }, "chain.retain_state_blocks"},
		{"retention above the limit", func(g *AppState) { g.Chain.RetainStateBlocks = MaxRetainStateBlocksLimit + 1 }, "chain.retain_state_blocks"},
		{"retention at the limit", func(g *AppState) { g.Chain.RetainStateBlocks = MaxRetainStateBlocksLimit }, ""},
		{"retention equal to the horizon", func(g *AppState) { g.Chain.RetainStateBlocks = g.RetentionHorizon() }, "chain.retain_state_blocks"},
		{"retention one past the horizon", func(g *AppState) { g.Chain.RetainStateBlocks = g.RetentionHorizon() + 1 }, ""},
		{"retention below a longer report window", func(g *AppState) {
			g.Chain.RetainStateBlocks = g.RetentionHorizon() + 1
			g.Chain.MaxReportBlocks++
		}, "chain.retain_state_blocks"},
		{"activity cutoff above the limit", func(g *AppState) { g.Tracks[2].ActivityCutoffBlocks = MaxBlocksLimit + 1 }, "tracks[2].activity_cutoff_blocks"},
		{"reveal window of 1 block", func(g *AppState) { g.Tracks[0].RevealBlocks = 1 }, ""},
		{"reveal window of 0 blocks (missing)", func(g *AppState) { g.Tracks[0].RevealBlocks = 0 }, "tracks[0].reveal_blocks"},
		{"reveal window above 1000", func(g *AppState) { g.Tracks[1].RevealBlocks = 1001 }, "tracks[1].reveal_blocks"},
		{"a commit margin on a task track", func(g *AppState) { g.Tracks[1].CommitMarginSeconds = 2 }, "tracks[1].commit_margin_seconds"},
		{"gas commit margin 0 (missing)", func(g *AppState) { g.Tracks[2].CommitMarginSeconds = 0 }, "tracks[2].commit_margin_seconds"},
		{"gas commit margin 1 (the floor)", func(g *AppState) { g.Tracks[2].CommitMarginSeconds = 1 }, ""},
		{"gas commit margin above 300", func(g *AppState) { g.Tracks[2].CommitMarginSeconds = 301 }, "tracks[2].commit_margin_seconds"},
		{"arena warm-up beyond the window", func(g *AppState) { g.Window.ArenaWarmupTasks = g.Window.WindowSize + 1 }, "window"},
		{"stale prediction policy unknown", func(g *AppState) { g.Gas.StalePrediction = "skip" }, "gas"},
		{"stale prediction policy carry", func(g *AppState) { g.Gas.StalePrediction = scoring.StaleCarry }, ""},
		{"tx bytes too small", func(g *AppState) { g.Chain.MaxTxBytes = MinTxBytes - 1 }, "chain.max_tx_bytes"},
		{"tx bytes at max", func(g *AppState) { g.Chain.MaxTxBytes = MaxTxBytesLimit }, ""},
		{"zero uids", func(g *AppState) { g.Chain.MaxUIDs = 0 }, "chain.max_uids"},
		{"all uids incl. burn", func(g *AppState) { g.Chain.MaxUIDs = MaxUIDLimit }, "chain.max_uids"},
		{"zero report blocks", func(g *AppState) { g.Chain.MaxReportBlocks = 0 }, "chain.max_report_blocks"},
		{"truth blocks too large", func(g *AppState) { g.Chain.TruthReportBlocks = MaxBlocksLimit + 1 }, "chain.truth_report_blocks"},
		{"gas chains unsorted", func(g *AppState) { g.Chain.GasChains = []uint64{5, 1} }, "chain.gas_chains[1]"},
		{"gas chain zero", func(g *AppState) { g.Chain.GasChains = []uint64{0} }, "chain.gas_chains[0]"},
		{"gas track without chains", func(g *AppState) { g.Chain.GasChains = nil }, "chain.gas_chains"},
		{"no gas track, no chains", func(g *AppState) {
			g.Chain.GasChains = nil
			g.Tracks = []Track{withCutoff(NewTrack(TrackWorkflow, d("1")), 100)}
		}, ""},
		{"deadline quorum 1/2 (default)", func(g *AppState) { g.Chain.DeadlineQuorum = d("0.5") }, ""},
		{"deadline quorum missing (0)", func(g *AppState) { g.Chain.DeadlineQuorum = decimal.Decimal{} }, "chain.deadline_quorum"},
		{"deadline quorum just above 1/3", func(g *AppState) { g.Chain.DeadlineQuorum = d("0.333333333333333334") }, ""},
		{"deadline quorum just below 1/3", func(g *AppState) { g.Chain.DeadlineQuorum = d("0.333333333333333333") }, "chain.deadline_quorum"},
		{"deadline quorum just below 2/3", func(g *AppState) { g.Chain.DeadlineQuorum = d("0.666666666666666666") }, ""},
		{"deadline quorum just above 2/3", func(g *AppState) { g.Chain.DeadlineQuorum = d("0.666666666666666667") }, "chain.deadline_quorum"},
		{"deadline quorum 1", func(g *AppState) { g.Chain.DeadlineQuorum = d("1") }, "chain.deadline_quorum"},
		{"deadline quorum 19 places", func(g *AppState) { g.Chain.DeadlineQuorum = d("0.5000000000000000001") }, "chain.deadline_quorum"},
		{"prediction ahead 0", func(g *AppState) { g.Chain.MaxPredictionAhead = 0 }, "chain.max_prediction_ahead"},
		{"prediction ahead above limit, no gas track", func(g *AppState) {
			g.Chain.MaxPredictionAhead = MaxPredictionAheadLimit + 1
			g.Tracks = []Track{withCutoff(NewTrack(TrackWorkflow, d("1")), 100)}
		}, "chain.max_prediction_ahead"},
		// Defaults: 8 × (160 + 256 × 360) + 256 × (1500 + 1500 + 10 × 256 + 16 × 320) + 16384
		// = 3,489,024 ≤ 4 MiB = 4,194,304; one more block adds 92,320, one more uid 13,560,
		// one more history point 81,920, one more memory slot 65,536.
		{"close bound: ahead 15 just fits", func(g *AppState) { g.Chain.MaxPredictionAhead = 15 }, ""},
		{"close bound: ahead 16 exceeds", func(g *AppState) { g.Chain.MaxPredictionAhead = 16 }, "chain.max_prediction_ahead"},
		{"close bound: 64 blocks with 32 uids", func(g *AppState) {
			g.Chain.MaxPredictionAhead, g.Chain.MaxUIDs, g.Membership.MinNonImmune = 64, 32, 16
		}, ""},
		{"membership: min_non_immune not below max_uids", func(g *AppState) { g.Chain.MaxUIDs = 128 }, "membership.min_non_immune"},
		{"membership: immunity within the scoring lag", func(g *AppState) { g.Membership.ImmunityBlocks = g.ScoringLag() }, "membership.immunity_blocks"},
		{"membership: zero difficulty", func(g *AppState) { g.Membership.MinDifficulty = 0 }, "membership.min_difficulty"},
		{"mirror: defaults", inMirror(func(*AppState) {}), ""},
		{"mirror: pow, explicit", inMirror(func(g *AppState) { g.Chain.Registration, g.Mirror = RegistrationPoW, nil }), ""},
		{"mirror: pow, empty (the default)", inMirror(func(g *AppState) { g.Chain.Registration, g.Mirror = "", nil }), ""},
		{"mirror: pow with a mirror section", inMirror(func(g *AppState) { g.Chain.Registration = RegistrationPoW }), "mirror"},
		{"mirror: unknown mode", inMirror(func(g *AppState) { g.Chain.Registration = "pos" }), "chain.registration"},
		{"mirror: mirror without its section", inMirror(func(g *AppState) { g.Mirror = nil }), "mirror"},
		{"mirror: max_entries 0", inMirror(func(g *AppState) { g.Mirror.MaxEntries = 0 }), "mirror.max_entries"},
		{"mirror: max_entries not max_uids", inMirror(func(g *AppState) { g.Mirror.MaxEntries = 255 }), "mirror.max_entries"},
		{"mirror: attestation_blocks 0", inMirror(func(g *AppState) { g.Mirror.AttestationBlocks = 0 }), "mirror.attestation_blocks"},
		{"mirror: max_blocks_behind below 2 × attestation_blocks", inMirror(func(g *AppState) { g.Mirror.MaxBlocksBehind = 719 }), "mirror.max_blocks_behind"},
		{"mirror: max_blocks_behind 2 × attestation_blocks", inMirror(func(g *AppState) { g.Mirror.MaxBlocksBehind = 720 }), ""},
		{"mirror: start_block on the cadence", inMirror(func(g *AppState) { g.Mirror.StartBlock = 3_600_000 }), ""},
		{"mirror: start_block off the cadence", inMirror(func(g *AppState) { g.Mirror.StartBlock = 3_600_001 }), "mirror.start_block"},
		{"mirror: burn uid the last parent uid", inMirror(func(g *AppState) { g.Window.BurnUID = 255 }), ""},
		{"mirror: burn uid beyond the parent's uids", inMirror(func(g *AppState) { g.Window.BurnUID = 256 }), "window.burn_uid"},
		// 42 + 256 × 44 = 11,306 bytes of snapshot + 256 of envelope.
		{"mirror: a full snapshot just fits max_tx_bytes", inMirror(func(g *AppState) { g.Chain.MaxTxBytes = 11_306 + MirrorEnvelopeBytes }), ""},
		{"mirror: a full snapshot exceeds max_tx_bytes", inMirror(func(g *AppState) { g.Chain.MaxTxBytes = 11_305 + MirrorEnvelopeBytes }), "chain.max_tx_bytes"},
		{"close bound: 308 uids just fit", func(g *AppState) { g.Chain.MaxUIDs = 308 }, ""},
		{"close bound: 309 uids exceed", func(g *AppState) { g.Chain.MaxUIDs = 309 }, "chain.max_prediction_ahead"},
		{"close bound: history of 24 fits", func(g *AppState) { g.Window.GasHistoryMax = 24 }, ""},
		{"close bound: longer history", func(g *AppState) { g.Window.GasHistoryMax = 25 }, "chain.max_prediction_ahead"},
		{"close bound: memory of 20 fits", func(g *AppState) { g.Gas.MemorySize = 20 }, ""},
		{"close bound: larger memory", func(g *AppState) { g.Gas.MemorySize = 21 }, "chain.max_prediction_ahead"},
		{"close bound: huge memory", func(g *AppState) { g.Gas.MemorySize = 1_000_001 }, "gas.memory_size"},
		{"close bound: no gas track", func(g *AppState) {
			g.Chain.MaxPredictionAhead, g.Chain.MaxUIDs = 1000, 12_500
			g.Tracks = []Track{withCutoff(NewTrack(TrackWorkflow, d("1")), 100)}
		}, ""},
		{"epoch bound", func(g *AppState) {
			g.Chain.MaxUIDs = MaxUIDLimit - 1
			g.Tracks = []Track{withCutoff(NewTrack(TrackWorkflow, d("1")), 100)}
		}, "chain.max_uids"},
		{"bad workflow params", func(g *AppState) { g.Workflow.WSuccess = d("0.9") }, "workflow"},
		{"bad gas params", func(g *AppState) { g.Gas.MemorySize = 0 }, "gas"},
		{"bad window params", func(g *AppState) { g.Window.EpochBlocks = 0 }, "window"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := valid()
			c.edit(&g)
			err := g.Validate()
			if c.field == "" {
				if err != nil {
					t.Fatalf("want valid, got %v", err)
				}
				return
			}
			var fe *FieldError
			if !errors.As(err, &fe) || fe.Field != c.field || !errors.Is(err, ErrInvalidGenesis) {
				t.Fatalf("want *FieldError on %q, got %v", c.field, err)
			}
		})
	}
}

func TestEncodeDecodeRoundTrip(t *testing.T) {
	g := valid()
	bz, err := g.Encode()
	if err != nil {
		t.Fatal(err)
	}
	back, err := Decode(bz)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := back.Encode()
	if string(again) != string(bz) {
		t.Fatalf("re-encoding differs:\n%s\n---\n%s", bz, again)
	}
}

func TestDecodeRejects(t *testing.T) {
	bz, _ := valid().Encode()
	cases := map[string]string{
		"unknown field":       strings.Replace(string(bz), `"chain": {`, `"chain": {"bogus": 1,`, 1),
		"trailing data":       string(bz) + "{}",
		"not json":            "app_state",
		"invalid inside":      strings.Replace(string(bz), `"max_uids": 256`, `"max_uids": 0`, 1),
		"deadline quorum 1/4": strings.Replace(string(bz), `"deadline_quorum": "0.5"`, `"deadline_quorum": "0.25"`, 1),
		"no deadline quorum (0)": strings.Replace(string(bz), `,
    "deadline_quorum": "0.5"`, ``, 1),
	}
	for name, in := range cases {
		if in == string(bz) {
			t.Errorf("%s: the case changes nothing in the valid genesis", name)
		}
		if _, err := Decode([]byte(in)); !errors.Is(err, ErrInvalidGenesis) {
			t.Errorf("%s: want ErrInvalidGenesis, got %v", name, err)
		}
	}
}

// TestGasCloseBytes pins the close bound's arithmetic on the defaults:
// 8 × (160 + 256 × 360) + 256 × (1500 + 1500 + 10 × 256 + 16 × 320) + 16384.
func TestGasCloseBytes(t *testing.T) {
	g := valid()
	if got, want := g.GasCloseBytes(), int64(8*92320+256*10680+16384); got != want || want != 3_489_024 {
		t.Fatalf("GasCloseBytes() = %d, want %d (3,489,024)", got, want)
	}
	if g.GasCloseBytes() > MaxGasCloseBytes {
		t.Fatalf("the default genesis exceeds its own close bound")
	}
}

// TestEpochBound: an epoch is never split, so max_uids × tracks is bounded
// by the end of block's work budget.
func TestEpochBound(t *testing.T) {
	g := DefaultGenesis()
	g.Tracks = []Track{NewTrack(TrackWorkflow, decimal.NewFromInt(1))}
	g.Chain.MaxUIDs = 12_500 // × (1 track × 30 + 2 for the prune queue) = 400,000 units
	if err := g.validateEpochBound(); err != nil {
		t.Fatalf("12,500 uids on one track: %v", err)
	}
	g.Chain.MaxUIDs = 12_501
	var fe *FieldError
	if err := g.validateEpochBound(); !errors.As(err, &fe) || fe.Field != "chain.max_uids" {
		t.Fatalf("12,501 uids on one track: %v, want a FieldError on chain.max_uids", err)
	}
}

func withCutoff(t Track, blocks int64) Track {
	t.ActivityCutoffBlocks = blocks
	return t
}

// TestRetentionHorizon: the horizon of the default genesis, by hand: the
// task windows (1000 + 1000 + the longest reveal window) outlast the truth
// window (20 + reveal) and the epoch.
func TestRetentionHorizon(t *testing.T) {
	g := DefaultGenesis()
	var reveal int64
	for _, tr := range g.Tracks {
		reveal = max(reveal, tr.RevealBlocks)
	}
	if got, want := g.RetentionHorizon(), 2000+reveal; got != want {
		t.Fatalf("RetentionHorizon = %d, want %d", got, want)
	}
	g.Chain.MaxSubmissionBlocks, g.Chain.MaxReportBlocks, g.Chain.TruthReportBlocks = 1, 1, 500
	if got, want := g.RetentionHorizon(), 500+reveal; got != want {
		t.Fatalf("with a long truth window: RetentionHorizon = %d, want %d", got, want)
	}
	g.Window.EpochBlocks = 10_000
	if got := g.RetentionHorizon(); got != 10_000 {
		t.Fatalf("with a long epoch: RetentionHorizon = %d, want 10000", got)
	}
}
