package leaderboard

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
)

// cssRule is one rule of the stylesheet: its selector and declarations.
type cssRule struct {
	selector string
	decls    map[string]string // property → value
}

// stylesheet reads the rules of the page's <style>: flat rules only (an
// at-rule, such as @media, is refused, so this test is taught it first).
func stylesheet(page string) ([]cssRule, error) {
	_, rest, ok := strings.Cut(page, "<style>")
	css, _, ok2 := strings.Cut(rest, "</style>")
	if !ok || !ok2 {
		return nil, fmt.Errorf("no <style> in the page")
	}
	var out []cssRule
	for _, chunk := range strings.Split(css, "}") {
		sel, body, found := strings.Cut(chunk, "{")
		sel = strings.TrimSpace(sel)
		if !found {
			if sel != "" {
				return nil, fmt.Errorf("stylesheet: %q is no rule", sel)
			}
			continue
		}
		if strings.Contains(sel, "@") || strings.Contains(body, "{") {
			return nil, fmt.Errorf("stylesheet: %q: at-rules are not read here", sel)
		}
		r := cssRule{selector: sel, decls: map[string]string{}}
		for _, d := range strings.Split(body, ";") {
			if prop, val, ok := strings.Cut(d, ":"); ok {
				r.decls[strings.TrimSpace(prop)] = strings.TrimSpace(val)
			}
		}
		out = append(out, r)
	}
	return out, nil
}

// background is the colour a rule paints its box with (ok false when it
// paints none).
func (r cssRule) background() (c rgb, ok bool, err error) {
	for _, prop := range []string{"background", "background-color"} {
		for _, tok := range strings.Fields(r.decls[prop]) {
			if strings.HasPrefix(tok, "#") {
				c, err := hexColour(tok)
				return c, err == nil, err
			}
		}
	}
	return rgb{}, false, nil
}

// contrastPair is a text colour on a background, and where each is from.
type contrastPair struct {
	fg, bg       rgb
	fgRule, onBg string
}

// textPairs are the text colour / background pairs of the stylesheet. The
// backgrounds are those the stylesheet paints: the page (body), tables
// and their odd rows, even rows, header cells. A rule's colour is taken to
// sit on every one of them, since colour is inherited (body's reaches
// every cell) and a class such as .muted is used in cells and on the page
// alike; only a rule that paints its own background (body aside) is taken
// to sit on that alone.
func textPairs(rules []cssRule) ([]contrastPair, error) {
	type surface struct {
		rule string
		bg   rgb
	}
	var surfaces []surface
	for _, r := range rules {
		bg, ok, err := r.background()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", r.selector, err)
		}
		if ok {
			surfaces = append(surfaces, surface{r.selector, bg})
		}
	}
	var out []contrastPair
	for _, r := range rules {
		v, ok := r.decls["color"]
		if !ok {
			continue
		}
		fg, err := hexColour(v)
		if err != nil {
			return nil, fmt.Errorf("%s: %w (the contrast test reads hex colours)", r.selector, err)
		}
		on := surfaces
		if bg, ok, _ := r.background(); ok && r.selector != "body" {
			on = []surface{{r.selector, bg}}
		}
		for _, s := range on {
			out = append(out, contrastPair{fg: fg, bg: s.bg, fgRule: r.selector, onBg: s.rule})
		}
	}
	return out, nil
}

// servedPage is the HTML of a track page, as the handler serves it.
func servedPage(t *testing.T) string {
	t.Helper()
	srv := httptest.NewServer(HandlerWith(&boardQuerier{miners: 3}, Options{}))
	t.Cleanup(srv.Close)
	code, page := get(t, srv.URL+"/track/workflow")
	if code != http.StatusOK {
		t.Fatalf("track page: %d %s", code, page)
	}
	return page
}

// TestStylesheetContrast: every text colour of the served stylesheet keeps
// WCAG 2's 4.5:1 on each background it can sit on (textPairs), and so do
// the chart's series colours, which name their series in text on the
// chart's white plot. The stylesheet still paints the layout colours the
// screenshot checks look for.
func TestStylesheetContrast(t *testing.T) {
	rules, err := stylesheet(servedPage(t))
	if err != nil {
		t.Fatal(err)
	}
	pairs, err := textPairs(rules)
	if err != nil {
		t.Fatal(err)
	}
	if len(pairs) < 4 {
		t.Fatalf("%d text/background pairs in the stylesheet: its colours were not read", len(pairs))
	}
	for _, c := range colours {
		pairs = append(pairs, contrastPair{fg: mustHex(c), bg: oddBg, fgRule: "chart series " + c, onBg: "the chart's plot"})
	}
	for _, p := range pairs {
		c := contrast(p.fg, p.bg)
		t.Logf("%-22s %v on %v (%s): %.2f", p.fgRule, p.fg, p.bg, p.onBg, c)
		if c < minContrast {
			t.Errorf("%s: text %v on %v (%s) has contrast %.2f, under %.1f: darken the text", p.fgRule, p.fg, p.bg, p.onBg, c, minContrast)
		}
	}

	paints := func(selector, prop string, c rgb) {
		i := slices.IndexFunc(rules, func(r cssRule) bool { return r.selector == selector })
		if i < 0 || !slices.ContainsFunc(strings.Fields(rules[i].decls[prop]), func(tok string) bool {
			got, err := hexColour(tok)
			return err == nil && got == c
		}) {
			t.Errorf("the stylesheet's %s has no %s %v, which the screenshot checks look for (shot_test.go)", selector, prop, c)
		}
	}
	paints("body", "background", pageBg)
	paints("th", "background", headBg)
	paints("table", "background", oddBg)
	paints("tr:nth-child(even) td", "background", evenBg)
	paints("th,td", "border-bottom", ruleFg)
}

// TestTextPairs: a colour with no background of its own is paired with
// every background; one with its own only with it (body, whose colour
// every element inherits, aside); a colour that is no hex is refused.
func TestTextPairs(t *testing.T) {
	rules, err := stylesheet(`<style>body{color:#111;background:#fbfbfc}th{background:#eee}.x{color:#ccc}.b{color:#fff;background:#a33}</style>`)
	var pairs []contrastPair
	if err == nil {
		pairs, err = textPairs(rules)
	}
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range pairs {
		got = append(got, p.fgRule+":"+p.onBg)
	}
	want := []string{"body:body", "body:th", "body:.b", ".x:body", ".x:th", ".x:.b", ".b:.b"}
	if !slices.Equal(got, want) {
		t.Errorf("pairs %v, want %v", got, want)
	}
	if c := contrast(pairs[3].fg, pairs[3].bg); c > 2 {
		t.Errorf("#ccc on #fbfbfc: contrast %.2f, want it failing (about 1.55)", c)
	}
	if _, err := textPairs([]cssRule{{selector: ".n", decls: map[string]string{"color": "grey"}}}); err == nil {
		t.Error("a named colour is taken")
	}
	if _, err := stylesheet(`<style>@media print{a{color:#000}}</style>`); err == nil {
		t.Error("an at-rule is read as flat rules")
	}
}
