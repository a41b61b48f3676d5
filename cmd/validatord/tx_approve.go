package main

import (
	"flag"

	"github.com/scoringsubnet/validatord/client"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// defineApprove is `tx approve`: a validator's approval of an open
// proposal (`query proposals` lists them).
func defineApprove(fs *flag.FlagSet) func() (*subnetv1.Msg, error) {
	id := fs.Uint64("proposal", 0, "id of the proposal approved")
	return func() (*subnetv1.Msg, error) {
		if err := requireSet(fs, "proposal"); err != nil {
			return nil, err
		}
		return client.Approve(*id), nil
	}
}
