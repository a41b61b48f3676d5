// Package longtest marks the tests that run a long scenario (a whole
// tutorial typed into a shell, every page in headless Chromium, ten
// thousand blocks of retention): `make test` skips them, so that it stays a
// quick loop for a developer, and `make e2e` (which CI runs) runs them with
// the variable Env set.
//
//	func TestTutorial(t *testing.T) {
//		longtest.Skip(t)
//		...
//	}
package longtest
