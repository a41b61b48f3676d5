package keyfile

import "errors"

// ErrNotFound is returned (wrapped) by Load when no key file has the given name.
var ErrNotFound = errors.New("key not found")

// ErrExists is returned (wrapped) by Add and Import when the name is taken.
var ErrExists = errors.New("already exists")
