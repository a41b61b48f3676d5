package leaderboard

import (
	"fmt"
	"html"
	"html/template"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/scoringsubnet/validatord/genesis"
)

// point is one value of a chart's series.
type point struct{ x, y float64 }

// series is one line of a chart.
type series struct {
	name   string
	colour string
	pts    []point
}

// Chart geometry, in the SVG's own units (it scales to the page's width).
const (
	chartW, chartH = 600.0, 160.0
	padL, padR     = 40.0, 10.0
	padT, padB     = 10.0, 24.0
)

// chart draws the series as an inline SVG line chart: y from 0 to yMax,
// x from the smallest to the largest x of any point, labelled at both
// ends. It is drawn here, with no script, so the page shows it offline.
// The text in it is escaped; it is made of track names and numbers.
func chart(title, xLabel string, yMax float64, ss []series) template.HTML {
	var all []point
	for _, s := range ss {
		all = append(all, s.pts...)
	}
	if len(all) == 0 {
		return ""
	}
	x0, x1 := all[0].x, all[0].x
	for _, p := range all {
		x0, x1 = min(x0, p.x), max(x1, p.x)
	}
	span := x1 - x0
	if span == 0 {
		span = 1 // one x: the points sit on the left edge
	}
	px := func(x float64) float64 { return padL + (x-x0)/span*(chartW-padL-padR) }
	py := func(y float64) float64 {
		return padT + (1-min(max(y/yMax, 0), 1))*(chartH-padT-padB)
	}
	var b strings.Builder
	esc := html.EscapeString
	fmt.Fprintf(&b, `<svg class="chart" role="img" aria-label="%s" viewBox="0 0 %g %g" xmlns="http://www.w3.org/2000/svg"><title>%s</title>`,
		esc(title), chartW, chartH, esc(title))
	fmt.Fprintf(&b, `<rect x="%g" y="%g" width="%g" height="%g" fill="#fff" stroke="#d5dae0"/>`, padL, padT, chartW-padL-padR, chartH-padT-padB)
	fmt.Fprintf(&b, `<text x="%g" y="%g" font-size="10" text-anchor="end">%s</text>`, padL-4, padT+8, esc(trimFloat(yMax)))
	fmt.Fprintf(&b, `<text x="%g" y="%g" font-size="10" text-anchor="end">0</text>`, padL-4, chartH-padB)
	fmt.Fprintf(&b, `<text x="%g" y="%g" font-size="10">%s %s</text>`, padL, chartH-6, esc(xLabel), esc(trimFloat(x0)))
	fmt.Fprintf(&b, `<text x="%g" y="%g" font-size="10" text-anchor="end">%s</text>`, chartW-padR, chartH-6, esc(trimFloat(x1)))
	for i, s := range ss {
		if len(s.pts) == 0 {
			continue
		}
		var coords []string
		for _, p := range s.pts {
			coords = append(coords, fmt.Sprintf("%.1f,%.1f", px(p.x), py(p.y)))
		}
		fmt.Fprintf(&b, `<polyline fill="none" stroke="%s" stroke-width="2" points="%s"/>`, s.colour, strings.Join(coords, " "))
		for _, c := range coords {
			xy := strings.SplitN(c, ",", 2)
			fmt.Fprintf(&b, `<circle cx="%s" cy="%s" r="3" fill="%s"/>`, xy[0], xy[1], s.colour)
		}
		fmt.Fprintf(&b, `<text x="%g" y="%g" font-size="10" fill="%s">%s</text>`, padL+6+float64(i)*90, chartH-padB-4, s.colour, esc(s.name))
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String()) // built from escaped text and numbers only
}

func trimFloat(f float64) string { return short(fmt.Sprintf("%.4f", f)) }

var colours = []string{"#2563eb", "#c2410c", "#15803d", "#7c3aed"}

// toFloat reads a decimal string for drawing (0 when unparsable).
func toFloat(s string) float64 {
	d, err := decimal.NewFromString(s)
	if err != nil {
		return 0
	}
	f, _ := d.Float64()
	return f
}

// scoreChart draws the scored submissions' scores against their commit
// heights, a line per track; arena scores (0–100) are drawn over 100 so
// every track shares the 0–1 scale.
func scoreChart(subs []SubmissionRow) template.HTML {
	var ss []series
	index := map[string]int{}
	for i := len(subs) - 1; i >= 0; i-- { // oldest first
		s := subs[i]
		if s.Score == nil || s.Status != "scored" {
			continue
		}
		y := toFloat(*s.Score)
		if s.Track == genesis.TrackArena {
			y /= 100
		}
		k, ok := index[s.Track]
		if !ok {
			k = len(ss)
			index[s.Track] = k
			ss = append(ss, series{name: s.Track, colour: colours[k%len(colours)]})
		}
		ss[k].pts = append(ss[k].pts, point{x: float64(s.Height), y: y})
	}
	return chart("score over time (arena ÷ 100)", "height", 1, ss)
}

// weightChart draws the miner's weight in each epoch shown, up to the
// largest of them (a miner among many has weights far below 1; the axis
// says the top).
func weightChart(eps []MinerEpoch) template.HTML {
	s := series{name: "weight", colour: colours[0]}
	top := 0.0
	for i := len(eps) - 1; i >= 0; i-- {
		w := toFloat(eps[i].Weight)
		top = max(top, w)
		s.pts = append(s.pts, point{x: float64(eps[i].Number), y: w})
	}
	if top == 0 {
		top = 1
	}
	return chart("weight over epochs", "epoch", top, []series{s})
}
