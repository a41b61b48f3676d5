package mirror

// Diff returns, in increasing order, the uids whose entry differs between
// two validated snapshots (usually the last final one and the one that
// replaces it): the hotkey changed, the registration block changed (the
// same hotkey deregistered and registered again), the uid disappeared, or
// the uid appeared. The app resets each: the uid's windows, commits,
// pending submissions and its binding to a tx key are cleared, so a new
// holder of a uid never inherits the last one's work or key.
//
// A uid that appears had no state here (a binding needs the uid in the
// final snapshot), so resetting it clears nothing; listing it keeps the rule
// one line long: a uid is reset unless its entry is the same in both.
//
// Both snapshots must pass Validate (sorted, no duplicates); Diff walks them
// in one merge, O(len(old) + len(new)).
func Diff(old, new Snapshot) (reset []uint32) {
	a, b := old.Entries, new.Entries
	for len(a) > 0 || len(b) > 0 {
		switch {
		case len(b) == 0 || (len(a) > 0 && a[0].UID < b[0].UID):
			reset, a = append(reset, a[0].UID), a[1:]
		case len(a) == 0 || b[0].UID < a[0].UID:
			reset, b = append(reset, b[0].UID), b[1:]
		default:
			if a[0] != b[0] {
				reset = append(reset, a[0].UID)
			}
			a, b = a[1:], b[1:]
		}
	}
	return reset
}
