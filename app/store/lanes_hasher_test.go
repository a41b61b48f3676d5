package store

import (
	"fmt"
	"testing"
)

// TestHasherMatchesAdd: a Hasher's lanes are those of Lanes.Add entry by
// entry, so the snapshot tools that use it compute the app's own hash.
func TestHasherMatchesAdd(t *testing.T) {
	var want Lanes
	var h Hasher
	for i := 0; i < 300; i++ {
		k, v := []byte(fmt.Sprint("key", i)), []byte(fmt.Sprint("value", i*i))
		want.Add(k, v)
		h.Add(k, v)
	}
	if h.Lanes != want {
		t.Fatal("a Hasher's lanes differ from Lanes.Add's")
	}
}
