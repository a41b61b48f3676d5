package main

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

func TestParseFlagsInterleaved(t *testing.T) {
	cases := []struct {
		args    []string
		wantPos []string
		wantA   string
		wantB   bool
	}{
		{nil, nil, "", false},
		{[]string{"x"}, []string{"x"}, "", false},
		{[]string{"--a", "1", "x", "y"}, []string{"x", "y"}, "1", false},
		{[]string{"x", "--a", "1", "y", "-b"}, []string{"x", "y"}, "1", true},
		{[]string{"x", "y", "--a=2"}, []string{"x", "y"}, "2", false},
		{[]string{"x", "--", "--a", "3"}, []string{"x", "--a", "3"}, "", false},
		{[]string{"--", "-b"}, []string{"-b"}, "", false},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			fs := newFlags("t")
			a := fs.String("a", "", "")
			b := fs.Bool("b", false, "")
			pos, ok, err := parseFlags(Env{}, fs, "t", c.args)
			if err != nil || !ok {
				t.Fatalf("ok %v err %v", ok, err)
			}
			if !reflect.DeepEqual(pos, c.wantPos) || *a != c.wantA || *b != c.wantB {
				t.Fatalf("pos %q a %q b %v, want %q %q %v", pos, *a, *b, c.wantPos, c.wantA, c.wantB)
			}
		})
	}
}

func TestParseFlagsHelpAndErrors(t *testing.T) {
	var out strings.Builder
	fs := newFlags("t")
	fs.String("home", "", "the home")
	_, ok, err := parseFlags(Env{Stdout: &out}, fs, "t [--home DIR]", []string{"x", "-h"})
	if ok || err != nil {
		t.Fatalf("help: ok %v err %v, want false nil", ok, err)
	}
	if !strings.Contains(out.String(), "usage: validatord t [--home DIR]") || !strings.Contains(out.String(), "the home") {
		t.Fatalf("help output %q", out.String())
	}
	fs = newFlags("t")
	fs.Int("n", 0, "")
	if _, _, err := parseFlags(Env{}, fs, "t", []string{"--n", "x"}); err == nil || !strings.Contains(err.Error(), "-n") {
		t.Fatalf("bad int: err %v", err)
	}
	if _, _, err := parseFlags(Env{}, newFlags("t"), "t", []string{"--nope"}); err == nil || !strings.Contains(err.Error(), "nope") {
		t.Fatalf("unknown flag: err %v", err)
	}
}

func TestOneLine(t *testing.T) {
	base := errors.New("first line\nsecond\r\n  third")
	got := oneLine(fmt.Errorf("ctx: %w", base))
	if got.Error() != "ctx: first line second third" {
		t.Fatalf("oneLine = %q", got.Error())
	}
	if !errors.Is(got, base) {
		t.Fatal("oneLine lost the wrapped error")
	}
	plain := errors.New("plain")
	if oneLine(plain) != plain || oneLine(nil) != nil {
		t.Fatal("oneLine changed a one-line error or nil")
	}
}

func TestQueryPath(t *testing.T) {
	cases := []struct {
		words []string
		want  string
	}{
		{[]string{"params"}, "params"},
		{[]string{"miner", "3"}, "miner/3"},
		{[]string{"/miner/3"}, "miner/3"},
		{[]string{"leaderboard/", "/workflow"}, "leaderboard/workflow"},
		{[]string{"epoch", "latest", "u16"}, "epoch/latest/u16"},
		{[]string{"//"}, ""},
	}
	for _, c := range cases {
		if got := queryPath(c.words); got != c.want {
			t.Errorf("queryPath(%q) = %q, want %q", c.words, got, c.want)
		}
	}
}

func TestWantArgs(t *testing.T) {
	if err := wantArgs([]string{"a"}, 1, "u"); err != nil {
		t.Fatal(err)
	}
	if err := wantArgs(nil, 1, "u"); err == nil || !strings.Contains(err.Error(), "want 1 argument(s), got 0") {
		t.Fatalf("err %v", err)
	}
	if err := wantArgs([]string{"a", "b"}, 0, "u"); err == nil || !strings.Contains(err.Error(), "got 2 (a b)") {
		t.Fatalf("err %v", err)
	}
}

func FuzzQueryPath(f *testing.F) {
	f.Add("miner", "3")
	f.Add("/a//b/", "")
	f.Add("", "/")
	f.Fuzz(func(t *testing.T, a, b string) {
		p := queryPath([]string{a, b})
		if strings.HasPrefix(p, "/") || strings.HasSuffix(p, "/") || strings.Contains(p, "//") {
			t.Fatalf("queryPath(%q, %q) = %q has an empty segment", a, b, p)
		}
		if again := queryPath([]string{p}); again != p {
			t.Fatalf("queryPath not idempotent: %q then %q", p, again)
		}
		if strings.ReplaceAll(a+b, "/", "") != strings.ReplaceAll(p, "/", "") {
			t.Fatalf("queryPath(%q, %q) = %q lost or added characters", a, b, p)
		}
	})
}
