package quorum

// Choice is one settled vote on a question with named answers, such as
// "of which earlier submission is this one a near-copy?": the voter's power
// (positive) and the answer it gave, 0 for none.
type Choice struct {
	Power int64
	Name  uint64
}

// Verdict is the named answer that the settled votes carry, if any: the
// non-zero name X whose voters hold strictly more than half of the votes'
// power and at least 1/3 of totalPower (both exact in 128 bits). ok is
// false when no name meets both, and then the answer is none.
//
// Why both: a coalition holds less than 1/3 of the total power, so a name
// with at least 1/3 has an honest voter, and a name with the majority of the
// votes outvotes every other answer. At the early quorum (reported power
// over 2/3) the majority implies the third, so the rule is the plain
// majority, and the honest reporters, who then hold more than the
// coalition, decide whenever they agree. At a deadline the reporters may
// hold as little as the deadline quorum (1/2 by default), of which a
// coalition below 1/3 can be the majority: the third keeps it from
// naming an answer that no honest validator gave.
//
// One pass finds the only answer that can hold a strict majority (the
// weighted form of Boyer and Moore's majority vote), a second sums its
// power: linear in the votes, whatever their number of distinct names.
func Verdict(choices []Choice, totalPower int64) (name uint64, ok bool) {
	var cand uint64
	var lead, reported int64
	for _, c := range choices {
		reported += c.Power
		switch {
		case c.Name == cand:
			lead += c.Power
		case lead >= c.Power:
			lead -= c.Power
		default:
			cand, lead = c.Name, c.Power-lead
		}
	}
	if cand == 0 {
		return 0, false
	}
	var p int64
	for _, c := range choices {
		if c.Name == cand {
			p += c.Power
		}
	}
	if mulGreater(p, 2, reported, 1) && atLeastThird(p, totalPower) {
		return cand, true
	}
	return 0, false
}
