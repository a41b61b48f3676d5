package membership

import "testing"

// The squat attack: at launch an attacker registers throw-away
// keys until it holds every uid, then stops; its uids score nothing
// (weight 0). The attacker's registrations come first in every block (the
// worst ordering for everyone else). One honest miner tries to register in
// every block from the first one, with a seal at the difficulty in force.
//
// Squatters of block h0 + j become replaceable at h0 + j + I (I =
// ImmunityBlocks); with M = MaxRegistrationsPerBlock of them per block,
// the squatters of the first n blocks are non-immune at block h0 + I + n − 1,
// and a replacement needs more than k = MinNonImmune of them: M·n > k,
// n = ⌈(k + 1)/M⌉. So the honest miner holds a uid at block
//
//	h0 + I + ⌈(k + 1)/M⌉ − 1,
//
// within I + ⌈(k + 1)/M⌉ blocks of the squat's start (its first block
// counted). It assumes the squat is over before its first uid's immunity
// (⌈N/M⌉ ≤ I) and enough squatters to pass the floor (⌈(k + 1)/M⌉ ≤ ⌊N/M⌋);
// Validate's min_non_immune < max_uids and the defaults satisfy both.
func squatBound(p Params) int64 {
	m := int64(p.MaxRegistrationsPerBlock)
	return p.ImmunityBlocks + (int64(p.MinNonImmune)+1+m-1)/m
}

// squatOutcome is what the simulation measured.
type squatOutcome struct {
	honestHeight     int64   // the block that registered the honest miner
	honestDifficulty uint64  // the difficulty it paid
	attackerHashes   float64 // expected hashes of the whole squat
	squatEnd         int64   // the block of the last squatting registration
}

// simulateSquat plays the attack block by block with the package's rules:
// CheckBlockLimit, Choose, NextDifficulty at AdjustAt, uids free first.
func simulateSquat(t *testing.T, p Params, uids int) squatOutcome {
	t.Helper()
	var (
		miners     []Candidate // uid i at index i
		out        squatOutcome
		difficulty = p.InitialDifficulty
		interval   uint64 // registrations since the last adjustment
		squats     int
	)
	// register gives the next free uid, else the one Choose picks.
	register := func(h int64) bool {
		if len(miners) < uids {
			miners = append(miners, Candidate{UID: uint32(len(miners)), RegisteredHeight: h})
			return true
		}
		uid, ok := Choose(miners, h, p)
		if ok {
			miners[uid] = Candidate{UID: uid, RegisteredHeight: h}
		}
		return ok
	}
	for h := int64(1); h < 10*p.ImmunityBlocks; h++ {
		var inBlock uint64
		for squats < uids && CheckBlockLimit(inBlock, p) == nil && register(h) {
			squats++
			inBlock++
			out.attackerHashes += float64(difficulty)
			out.squatEnd = h
		}
		if CheckBlockLimit(inBlock, p) == nil && register(h) {
			out.honestHeight, out.honestDifficulty = h, difficulty
			return out
		}
		interval += inBlock
		if AdjustAt(h, p) {
			difficulty, interval = NextDifficulty(difficulty, interval, p), 0
		}
	}
	t.Fatalf("the honest miner never got a uid (params %+v, %d uids)", p, uids)
	return out
}

// TestSquatBoundDefaults: with the defaults and 256 uids, an honest miner
// holds a uid within 4225 blocks of a launch squat, pays the floor
// difficulty, and the squat cost its author 524 × the floor in hashes.
// docs/membership.md quotes these figures.
func TestSquatBoundDefaults(t *testing.T) {
	p := DefaultParams()
	const uids = 256
	bound := squatBound(p)
	if bound != 4225 {
		t.Fatalf("squat bound = %d blocks, docs/membership.md says 4225", bound)
	}
	got := simulateSquat(t, p, uids)
	if got.honestHeight != bound {
		t.Fatalf("simulated: the honest miner registered at %d, the bound says %d", got.honestHeight, bound)
	}
	if got.squatEnd != 256 || got.honestDifficulty != p.MinDifficulty {
		t.Fatalf("squat over at %d (want 256), honest difficulty %d (want the floor %d)", got.squatEnd, got.honestDifficulty, p.MinDifficulty)
	}
	// Blocks 1–100 at D, 101–200 at 2D, 201–256 at 4D: (100 + 200 + 224) D.
	if want := 524 * float64(p.MinDifficulty); got.attackerHashes != want {
		t.Fatalf("the squat cost %.0f hashes, want 524 × floor = %.0f", got.attackerHashes, want)
	}
	t.Logf("defaults: honest uid at block %d (%.0f min at 1 s blocks); the squat cost %.3g hashes = %.0f × the floor",
		got.honestHeight, float64(got.honestHeight)/60, got.attackerHashes, got.attackerHashes/float64(p.MinDifficulty))
}

// TestSquatBoundFormula: the formula equals the simulation wherever its
// assumptions hold.
func TestSquatBoundFormula(t *testing.T) {
	tests := []struct {
		name         string
		perBlock     uint32
		minNonImmune uint32
		immunity     int64
		uids         int
	}{
		{"defaults, 8 uids", 1, 0, 100, 8},
		{"3 per block", 3, 10, 500, 256},
		{"3 per block, floor a multiple", 3, 11, 500, 256},
		{"uids not a multiple of the rate", 4, 5, 300, 255},
		{"floor near the uids", 2, 250, 1000, 256},
		{"all at once", 256, 10, 3000, 256},
	}
	for _, tc := range tests {
		p := DefaultParams()
		p.MaxRegistrationsPerBlock, p.MinNonImmune, p.ImmunityBlocks = tc.perBlock, tc.minNonImmune, tc.immunity
		if err := p.Validate(uint32(tc.uids), tc.immunity-1); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := simulateSquat(t, p, tc.uids); got.honestHeight != squatBound(p) {
			t.Errorf("%s: simulated %d, formula %d", tc.name, got.honestHeight, squatBound(p))
		}
	}
}
