// Package testnethome reads what the load tool (scripts/loadgen: rounds and bench) needs of a
// directory of node homes node0..nodeN made by `validatord testnet` or `cometbft testnet`.
package testnethome

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/viper"
)

// Homes are dir/node0, dir/node1, … up to the first one missing.
func Homes(dir string) []string {
	var out []string
	for i := 0; ; i++ {
		home := filepath.Join(dir, fmt.Sprintf("node%d", i))
		if st, err := os.Stat(home); err != nil || !st.IsDir() {
			return out
		}
		out = append(out, home)
	}
}

// RPCAddr is the [rpc] laddr of a home's config/config.toml.
func RPCAddr(home string) (string, error) {
	v := viper.New()
	v.SetConfigFile(filepath.Join(home, "config", "config.toml"))
	if err := v.ReadInConfig(); err != nil {
		return "", err
	}
	addr := v.GetString("rpc.laddr")
	if addr == "" {
		return "", fmt.Errorf("%s: rpc.laddr is empty", home)
	}
	return addr, nil
}
