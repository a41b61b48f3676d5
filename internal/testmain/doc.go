// Package testmain is the TestMain of the packages whose tests execute
// blocks (app, cmd/validatord): Run turns store.VerifyCreates on, so that
// every key a block creates with store.Overlay.Create is checked to be new
// while the tests run, unless the run is of benchmarks (-test.bench), which
// measure without the checks (they cost the look-ups Create saves).
//
//	func TestMain(m *testing.M) { testmain.Run(m) }
package testmain
