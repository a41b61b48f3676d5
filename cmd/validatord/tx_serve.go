package main

import (
	"flag"
	"fmt"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// defineServe is `tx serve` (miners): announces the base URL where the
// --from key's daemon serves revealed artifacts. The address is checked
// here by the chain's own rule (wire.CheckServeAddress), so a bad one is
// refused before anything is signed; the interval between two serves of a
// uid (wire.ServeInterval) only the chain can judge.
func defineServe(fs *flag.FlagSet) func() (*subnetv1.Msg, error) {
	address := fs.String("address", "", fmt.Sprintf("base URL of the daemon, http(s)://host[:port] with no path, query or userinfo, at most %d bytes, e.g. %s (validators fetch <address>/artifact/<hex sha256>)",
		wire.MaxServeAddress, wire.ServeAddressExample))
	return func() (*subnetv1.Msg, error) {
		if err := requireSet(fs, "address"); err != nil {
			return nil, err
		}
		if err := wire.CheckServeAddress(*address); err != nil {
			return nil, fmt.Errorf("--address: %w", err)
		}
		return client.Serve(*address), nil
	}
}
