package keyfile

import (
	"fmt"
	"path/filepath"
	"regexp"
)

const (
	// DirName is the directory of the keys inside a home.
	DirName = "keys"
	// ReportKeyName is the key that `validatord init` creates to sign the validator's
	// tasks, reports and truths.
	ReportKeyName = "validator"
)

// namePattern keeps key names safe as file names.
var namePattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$`)

// Dir is the directory of the keys of home.
func Dir(home string) string { return filepath.Join(home, DirName) }

// Path checks name and returns the file of key name in home.
func Path(home, name string) (string, error) {
	if !namePattern.MatchString(name) {
		return "", fmt.Errorf("key name %q: want 1-64 letters, digits, '_', '.', '-' (not starting with '.', '_' or '-')", name)
	}
	return filepath.Join(Dir(home), name+".json"), nil
}
