package offline

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/scoringsubnet/validatord/x/scoring"
)

// silenceEvents is the issue-10 attack as replay events: 200 Ethereum-like
// block windows 12 s apart, the truth following a 14-block wave between 16
// and 30 gwei. Agent "honest" predicts every window at truth × (1 + e), e
// cycling through −10%, −5%, 0, +5%, +10%, +3%, −2%; agent "silent"
// predicts 10^6 gwei for the first window and nothing after.
func silenceEvents(policy scoring.StalePolicy) string {
	wave := []int64{20, 22, 24, 26, 28, 30, 28, 26, 24, 22, 20, 18, 16, 18}
	errs := []string{"-0.10", "-0.05", "0", "0.05", "0.10", "0.03", "-0.02"}
	var b strings.Builder
	fmt.Fprintf(&b, `{"params": {"stale_prediction": %q}}`+"\n", policy)
	for i := 0; i < 200; i++ {
		t := int64(i) * 12
		truth := decimal.NewFromInt(wave[i%len(wave)])
		if i == 0 {
			fmt.Fprintf(&b, `{"time": %d, "agent": "silent", "predict": "1000000"}`+"\n", t)
		}
		honest := scoring.Round(truth.Mul(scoring.One.Add(decimal.RequireFromString(errs[i%len(errs)]))))
		fmt.Fprintf(&b, `{"time": %d, "agent": "honest", "predict": %q}`+"\n", t, honest.String())
		fmt.Fprintf(&b, `{"time": %d, "truth": %q}`+"\n", t, truth.String())
	}
	return b.String()
}

// finalScores replays events and returns each agent's score at the last window.
func finalScores(t *testing.T, events string) map[string]string {
	t.Helper()
	var out bytes.Buffer
	if err := Gas(strings.NewReader(events), &out, scoring.DefaultGasParams()); err != nil {
		t.Fatal(err)
	}
	scores := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var l GasWindowLine
		if err := json.Unmarshal([]byte(line), &l); err != nil {
			t.Fatal(err)
		}
		if l.Score != nil {
			scores[l.Agent] = *l.Score
		}
	}
	return scores
}

// TestGasSilenceDoesNotPay is the silence attack: one 10^6-gwei prediction
// followed by 199 silent windows out-scored an honest agent within ±10%
// when a silent window was judged on the last prediction ("carry": always
// included, perfectly stable, only u2 and liveliness lost). Under the
// default "miss" the silent windows are not included and the silent agent
// ends at 0.40 (u1 = u2 = u3 = 1 on a constant empty record), below the
// honest agent, whose score the policy does not touch.
func TestGasSilenceDoesNotPay(t *testing.T) {
	const honest = "0.641026080714875835"
	carry := finalScores(t, silenceEvents(scoring.StaleCarry))
	if carry["silent"] != "0.738313135409431616" || carry["honest"] != honest {
		t.Errorf("carry: %v", carry)
	}
	miss := finalScores(t, silenceEvents(scoring.StaleMiss))
	if miss["silent"] != "0.400000000000000000" || miss["honest"] != honest {
		t.Errorf("miss: %v", miss)
	}
	if d := func(s string) decimal.Decimal { return decimal.RequireFromString(s) }; d(miss["silent"]).Cmp(d(miss["honest"])) >= 0 {
		t.Errorf("under miss the silent agent %s is not below the honest one %s", miss["silent"], miss["honest"])
	}
}
