package longtest

import "testing"

func TestEnabled(t *testing.T) {
	for _, c := range []struct {
		val  string
		want bool
	}{{"", false}, {"0", false}, {"true", false}, {"1", true}} {
		t.Setenv(Env, c.val)
		if got := Enabled(); got != c.want {
			t.Errorf("%s=%q: Enabled() = %v, want %v", Env, c.val, got, c.want)
		}
	}
}

func TestSkip(t *testing.T) {
	for _, c := range []struct {
		val  string
		skip bool
	}{{"", true}, {"1", false}} {
		t.Setenv(Env, c.val)
		var sub *testing.T
		reached := false
		t.Run("val="+c.val, func(t *testing.T) {
			sub = t
			Skip(t)
			reached = true
		})
		if sub.Skipped() != c.skip || reached == c.skip {
			t.Errorf("%s=%q: skipped %v, reached past Skip %v; want skipped %v", Env, c.val, sub.Skipped(), reached, c.skip)
		}
	}
}
