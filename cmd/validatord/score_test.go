package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// runScoreIn runs `validatord score <args>` in-process on stdin and returns
// stdout, stderr and the exit code.
func runScoreIn(t *testing.T, stdin string, args ...string) (string, string, int) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(context.Background(), Env{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errOut}, append([]string{"score"}, args...))
	return out.String(), errOut.String(), code
}

func TestScoreModesRegistered(t *testing.T) {
	out, _, code := runScoreIn(t, "", "help")
	if code != 0 {
		t.Fatalf("score help: exit %d", code)
	}
	for _, m := range []string{"workflow", "weights"} {
		if !strings.Contains(out, "  "+m+" ") {
			t.Errorf("score help does not list %s:\n%s", m, out)
		}
	}
	if _, errOut, code := runScoreIn(t, "", "nosuchmode"); code != 1 || !strings.Contains(errOut, `unknown mode "nosuchmode"`) {
		t.Errorf("unknown mode: exit %d, stderr %q", code, errOut)
	}
	if _, _, code := runScoreIn(t, ""); code != 1 {
		t.Errorf("no mode: exit %d, want 1", code)
	}
}

func TestRegisterScoreModeTwicePanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("registering workflow twice did not panic")
		}
	}()
	registerScoreMode("workflow", "again", runScoreWorkflow)
}

const wfSeed = `{"output_quality": "1", "steps_completed": 3, "total_steps": 4, "cost": 0.5, "max_budget": "1", "latency_seconds": 10, "max_latency_seconds": "20", "retries": 0, "declared_retry_budget": 0, "timeouts": 0, "hard_failures": 0}`

func TestScoreWorkflowCommand(t *testing.T) {
	in := strings.Join([]string{
		wfSeed,
		`{"output_quality": "0.7", "steps_completed": 4, "total_steps": 4, "cost": "0", "max_budget": "1", "latency_seconds": "0", "max_latency_seconds": "1", "retries": "5", "declared_retry_budget": 2, "timeouts": 0, "hard_failures": 0}`,
		`{"output_quality": 1.5, "steps_completed": 4, "total_steps": 4, "cost": "0", "max_budget": "1", "latency_seconds": "0", "max_latency_seconds": "1", "retries": 0, "declared_retry_budget": 0, "timeouts": 0, "hard_failures": 0}`,
		strings.Replace(wfSeed, `"timeouts": 0, `, ``, 1),
		strings.Replace(wfSeed, `"timeouts"`, `"timeout"`, 1),
		strings.Replace(wfSeed, `"cost": 0.5`, `"cost": 0.5000000000000000001`, 1),
		`[1, 2]`,
		`{"output_quality": "1"`,
	}, "\n") + "\n"
	out, errOut, code := runScoreIn(t, in, "workflow")
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	want := []string{
		`{"score":"0.675000000000000000","success":"0.750000000000000000","cost":"0.500000000000000000","latency":"0.500000000000000000","reliability":"1.000000000000000000"}`,
		`{"score":"0.420000000000000000","success":"0.700000000000000000","cost":"0.000000000000000000","latency":"0.000000000000000000","reliability":"0.700000000000000000"}`,
		`{"line":3,"error":"output_quality = 1.5: must be in [0, 1]"}`,
		`{"line":4,"error":"timeouts: missing"}`,
		`{"line":5,"error":"unknown field(s) timeout"}`,
		`{"line":6,"error":"cost: \"0.5000000000000000001\": more than 18 decimal places"}`,
		`{"line":7,"error":"not a JSON object: json: cannot unmarshal array into Go value of type offline.jsonObject"}`,
		`{"line":8,"error":"not a JSON object: unexpected EOF"}`,
	}
	if len(lines) != len(want) {
		t.Fatalf("got %d lines:\n%s", len(lines), out)
	}
	for i := range want {
		if lines[i] != want[i] {
			t.Errorf("line %d:\n got %s\nwant %s", i+1, lines[i], want[i])
		}
	}
	if code != 1 || !strings.Contains(errOut, "6 of 8 lines failed") {
		t.Errorf("exit %d stderr %q, want 1 and the failure count", code, errOut)
	}
	if _, _, code := runScoreIn(t, wfSeed+"\n", "workflow"); code != 0 {
		t.Errorf("all good lines: exit %d", code)
	}
	if out, _, code := runScoreIn(t, "", "workflow", "-h"); code != 0 || !strings.Contains(out, "output_quality") {
		t.Errorf("workflow -h: exit %d, %q", code, out)
	}
	if _, _, code := runScoreIn(t, "", "workflow", "extra"); code != 1 {
		t.Errorf("positional argument: exit %d, want 1", code)
	}
}

func TestScoreWeightsCommand(t *testing.T) {
	in := strings.Join([]string{
		`{"1": 10, "2": "5", "3": 1, "4": 1, "5": 1, "6": 1, "7": 1, "8": 1, "9": 1, "10": 1}`,
		`{"carol": "1", "alice": "3", "bob": "2", "0": "0"}`,
		`{"a": "1", "a": "2"}`,
		`{"a": "-1"}`,
		`{"a": "x"}`,
		`"not an object"`,
		`{}`,
	}, "\n")
	out, errOut, code := runScoreIn(t, in, "weights", "--cap", "0.15", "--burn-uid", "2")
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	// line 1: 10 and 5 capped, .7/8 = .0875 each; 65535 × .0875 = 5734.3125, × .15 = 9830.25:
	// floors sum to 65532, the three units left go by remainder (.3125 > .25) to uids 3, 4, 5.
	// line 2: names take uids 1, 3, 4 (0 is a key, 2 is the burn uid); three positive
	// scores at cap .15 leave .55 to uid 2: 36044.25 and 3 × 9830.25 floor to 65534, and the
	// last unit goes to the lowest uid among the equal .25 remainders, 1.
	want := []string{
		`{"weights":{"1":"0.150000000000000000","10":"0.087500000000000000","2":"0.150000000000000000","3":"0.087500000000000000","4":"0.087500000000000000","5":"0.087500000000000000","6":"0.087500000000000000","7":"0.087500000000000000","8":"0.087500000000000000","9":"0.087500000000000000"},"unallocated":"0.000000000000000000","rounds":1,"uids":{"1":1,"10":10,"2":2,"3":3,"4":4,"5":5,"6":6,"7":7,"8":8,"9":9},"u16":[{"uid":1,"weight":9830},{"uid":2,"weight":9830},{"uid":3,"weight":5735},{"uid":4,"weight":5735},{"uid":5,"weight":5735},{"uid":6,"weight":5734},{"uid":7,"weight":5734},{"uid":8,"weight":5734},{"uid":9,"weight":5734},{"uid":10,"weight":5734}]}`,
		`{"weights":{"0":"0.000000000000000000","alice":"0.150000000000000000","bob":"0.150000000000000000","carol":"0.150000000000000000"},"unallocated":"0.550000000000000000","rounds":1,"uids":{"0":0,"alice":1,"bob":3,"carol":4},"u16":[{"uid":0,"weight":0},{"uid":1,"weight":9831},{"uid":2,"weight":36044},{"uid":3,"weight":9830},{"uid":4,"weight":9830}]}`,
		`{"line":3,"error":"a: duplicate key"}`,
		`{"line":4,"error":"a: score -1 is negative"}`,
		`{"line":5,"error":"a: \"x\": not a decimal number"}`,
		`{"line":6,"error":"want one JSON object of scores"}`,
		`{"weights":{},"unallocated":"1.000000000000000000","rounds":0,"uids":{},"u16":[{"uid":2,"weight":65535}]}`,
	}
	if len(lines) != len(want) {
		t.Fatalf("got %d lines:\n%s", len(lines), out)
	}
	for i := range want {
		if lines[i] != want[i] {
			t.Errorf("line %d:\n got %s\nwant %s", i+1, lines[i], want[i])
		}
	}
	if code != 1 || !strings.Contains(errOut, "4 of 7 lines failed") {
		t.Errorf("exit %d stderr %q", code, errOut)
	}
	for _, bad := range [][]string{{"--cap", "0"}, {"--cap", "1.5"}, {"--cap", "x"}, {"--burn-uid", "65536"}, {"--nope"}} {
		if _, _, code := runScoreIn(t, "{}\n", append([]string{"weights"}, bad...)...); code != 1 {
			t.Errorf("weights %v: exit %d, want 1", bad, code)
		}
	}
	if out, _, code := runScoreIn(t, "", "weights", "--help"); code != 0 || !strings.Contains(out, "sorted key order") || !strings.Contains(out, "-burn-uid") {
		t.Errorf("weights --help: exit %d\n%s", code, out)
	}
}

// A bad command line of `score` ends in one plain line naming what was wrong (no trailing
// ": usage" from a wrapped sentinel).
func TestScoreUsageErrorLines(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"weights", "--cap", "1.5"}, "validatord score: --cap = 1.5: must be in (0, 1]\n"},
		{[]string{"weights", "--burn-uid", "65536"}, "validatord score: --burn-uid = 65536: must be in [0, 65535]\n"},
		{[]string{"workflow", "extra"}, "validatord score: unexpected argument \"extra\": input comes on stdin\n"},
		{[]string{"weights", "--burn-iud", "1"}, "validatord score: flag provided but not defined: -burn-iud; did you mean --burn-uid? (see `validatord score weights -h`)\n"},
	} {
		_, errOut, code := runScoreIn(t, "{}\n", tc.args...)
		if code != 1 || errOut != tc.want {
			t.Errorf("score %v: exit %d stderr %q, want 1 and %q", tc.args, code, errOut, tc.want)
		}
	}
	code, _, errOut := runCmd(t, "score", "bogus")
	if code != 1 || !strings.HasSuffix(errOut, "validatord score: unknown mode \"bogus\" (see `validatord score help`)\n") {
		t.Errorf("score bogus: exit %d stderr %q", code, errOut)
	}
}
