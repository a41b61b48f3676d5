package leaderboard

import (
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
)

// The screenshot checks read layout colours, not glyphs: a page's fonts
// differ from machine to machine, its backgrounds and row bands do not.

// rgb is an opaque colour as the stylesheet writes it.
type rgb struct{ r, g, b uint8 }

// hexColour reads #rgb or #rrggbb.
func hexColour(s string) (rgb, error) {
	h, ok := strings.CutPrefix(s, "#")
	if ok && len(h) == 3 {
		h = string([]byte{h[0], h[0], h[1], h[1], h[2], h[2]})
	}
	v, err := strconv.ParseUint(h, 16, 32)
	if !ok || len(h) != 6 || err != nil {
		return rgb{}, fmt.Errorf("colour %q: not #rgb or #rrggbb", s)
	}
	return rgb{uint8(v >> 16), uint8(v >> 8), uint8(v)}, nil
}

func mustHex(s string) rgb {
	c, err := hexColour(s)
	if err != nil {
		panic(err)
	}
	return c
}

func (c rgb) String() string { return fmt.Sprintf("#%02x%02x%02x", c.r, c.g, c.b) }

func (c rgb) RGBA() (r, g, b, a uint32) { return color.RGBA{c.r, c.g, c.b, 0xff}.RGBA() }

// luminance is WCAG 2's relative luminance: 0 for black, 1 for white.
func luminance(c rgb) float64 {
	lin := func(v uint8) float64 {
		s := float64(v) / 255
		if s <= 0.03928 {
			return s / 12.92
		}
		return math.Pow((s+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(c.r) + 0.7152*lin(c.g) + 0.0722*lin(c.b)
}

// contrast is WCAG 2's contrast ratio of two colours, from 1 (the same) to
// 21 (black on white); body text needs at least minContrast.
func contrast(a, b rgb) float64 {
	la, lb := luminance(a), luminance(b)
	return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
}

// minContrast is WCAG 2's level AA for body text (1.4.3).
const minContrast = 4.5

// The stylesheet's layout colours the screenshots are read by
// (TestStylesheetContrast checks the stylesheet still paints them).
var (
	pageBg = mustHex("#fbfbfc") // body
	headBg = mustHex("#eef1f4") // th
	oddBg  = mustHex("#fff")    // table: the odd body rows
	evenBg = mustHex("#f7f8fa") // tr:nth-child(even) td
	ruleFg = mustHex("#e3e6ea") // the 1px border under th and td
)

func pixel(img image.Image, x, y int) rgb {
	r, g, b, _ := img.At(x, y).RGBA()
	return rgb{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8)}
}

// count is the pixels of colour c in pixel row y, x in [x0, x1).
func count(img image.Image, y, x0, x1 int, c rgb) int {
	n := 0
	for x := x0; x < x1; x++ {
		if pixel(img, x, y) == c {
			n++
		}
	}
	return n
}

// ink is the fraction of the image's pixels that are not bg.
func ink(img image.Image, bg rgb) float64 {
	b := img.Bounds()
	n := 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		n += b.Dx() - count(img, y, b.Min.X, b.Max.X, bg)
	}
	return float64(n) / float64(b.Dx()*b.Dy())
}

// band is a run of pixel rows of one background, [top, bottom).
type band struct {
	top, bottom int
	bg          rgb
}

// shotTable is a table as a screenshot shows it: its header band (the th
// background), and below it the body rows' bands, told apart by their
// alternating backgrounds and the 1px rule between them.
type shotTable struct {
	head        band
	left, right int // the header's x extent, [left, right)
	rows        []band
}

// minHeadPixels th-background pixels make a pixel row part of a header
// band: more than a cell's text can leave of it, fewer than the narrowest
// table (the landing page's boards, 24em wide) has.
const minHeadPixels = 100

// tablesIn finds the tables of a screenshot, top to bottom. Below a header
// band a pixel row is a body row's when, across the header's extent, the
// odd or even row background (or the rule) is the most common colour and
// covers a quarter of it at least; a row of text may cover less and is
// skipped; the table ends where the page background covers half the
// extent, or the next header band starts.
func tablesIn(img image.Image) []shotTable {
	b := img.Bounds()
	var out []shotTable
	for y := b.Min.Y; y < b.Max.Y; {
		if count(img, y, b.Min.X, b.Max.X, headBg) < minHeadPixels {
			y++
			continue
		}
		t := shotTable{head: band{top: y, bg: headBg}, left: b.Max.X, right: b.Min.X}
		for ; y < b.Max.Y && count(img, y, b.Min.X, b.Max.X, headBg) >= minHeadPixels; y++ {
			for x := b.Min.X; x < b.Max.X; x++ {
				if pixel(img, x, y) == headBg {
					t.left, t.right = min(t.left, x), max(t.right, x+1)
				}
			}
		}
		t.head.bottom = y
		width := t.right - t.left
		open := false // the last band still grows
	body:
		for ; y < b.Max.Y; y++ {
			if count(img, y, t.left, t.right, pageBg)*2 >= width || count(img, y, t.left, t.right, headBg) >= minHeadPixels {
				break body
			}
			best, most := rgb{}, 0
			for _, c := range []rgb{oddBg, evenBg, ruleFg} {
				if n := count(img, y, t.left, t.right, c); n > most {
					best, most = c, n
				}
			}
			switch {
			case most*4 < width: // text, or the table's shadow
			case best == ruleFg:
				open = false
			case open && t.rows[len(t.rows)-1].bg == best:
				t.rows[len(t.rows)-1].bottom = y + 1
			default:
				t.rows = append(t.rows, band{top: y, bottom: y + 1, bg: best})
				open = true
			}
		}
		out = append(out, t)
	}
	return out
}

// darkest is the darkest pixel of the rows [top, bottom), x in [x0, x1).
func darkest(img image.Image, top, bottom, x0, x1 int) rgb {
	out, lum := rgb{255, 255, 255}, 2.0
	for y := top; y < bottom; y++ {
		for x := x0; x < x1; x++ {
			if c := pixel(img, x, y); luminance(c) < lum {
				out, lum = c, luminance(c)
			}
		}
	}
	return out
}

// lineAbove is the block of pixel rows just above the table's header that
// differ from the page background (across the header's extent): the
// line of text above the table, or its last line. ok is false when there
// is none in the image.
func lineAbove(img image.Image, t shotTable) (top, bottom int, ok bool) {
	blank := func(y int) bool { return count(img, y, t.left, t.right, pageBg) == t.right-t.left }
	y := t.head.top - 1
	for ; y >= img.Bounds().Min.Y && blank(y); y-- {
	}
	bottom = y + 1
	for ; y >= img.Bounds().Min.Y && !blank(y); y-- {
	}
	return y + 1, bottom, bottom > y+1 && y >= img.Bounds().Min.Y
}

// shotWant is what a screenshot must show.
type shotWant struct {
	width, height int
	minInk        float64 // the fraction of pixels not the page background, at least
	tables        int     // table header bands in view, at least
	// chart, when set, is a colour the page's SVG chart draws its line in,
	// and chartPixels how many pixels of it must be seen.
	chart       *rgb
	chartPixels int
}

// shotReport is what checkShot measured.
type shotReport struct {
	ink     float64
	rows    []int     // row bands found per table in view
	fit     []int     // the DOM's rows of that table that fit in the window
	lowest  float64   // the lowest contrast of the darkest text in a header or row band with its background
	above   []float64 // per table, the contrast of the text line above it with the page background (0: none)
	chartPx int
}

func (r shotReport) String() string {
	above := make([]string, len(r.above))
	for i, a := range r.above {
		above[i] = fmt.Sprintf("%.2f", a)
	}
	return fmt.Sprintf("ink %.3f, row bands per table %v (rows of the DOM in view %v), lowest text contrast in a band %.2f, line above each table %v, chart pixels %d",
		r.ink, r.rows, r.fit, r.lowest, above, r.chartPx)
}

// checkShot checks a screenshot against want; domRows are the body rows
// of each table of the page, in the DOM's order. A table in view must
// show a band for each of its rows that fits fully below its header (each
// row is as tall as the header: both have the same font and padding, and
// no cell wraps), and no more bands than it has rows; the darkest text of
// each band, and of the line just above each table, must keep
// minContrast with its background.
func checkShot(img image.Image, want shotWant, domRows []int) (shotReport, []error) {
	var errs []error
	fail := func(format string, a ...any) { errs = append(errs, fmt.Errorf(format, a...)) }
	b := img.Bounds()
	if b.Dx() != want.width || b.Dy() != want.height {
		fail("size %dx%d, want %dx%d", b.Dx(), b.Dy(), want.width, want.height)
	}
	rep := shotReport{ink: ink(img, pageBg), lowest: 21}
	if rep.ink < want.minInk {
		fail("only %.3f of the pixels differ from the page background %v, want %.3f at least: a blank page?", rep.ink, pageBg, want.minInk)
	}
	tables := tablesIn(img)
	if len(tables) < want.tables {
		fail("%d table header bands (background %v), want %d at least", len(tables), headBg, want.tables)
	}
	if len(tables) > len(domRows) {
		fail("%d table header bands, but the page has %d tables", len(tables), len(domRows))
		tables = tables[:len(domRows)]
	}
	for i, t := range tables {
		// a row is as tall as the header, plus its rule and a pixel of slack:
		// a row's top can fall between pixels, and rows drift 0.5 px each
		pitch := t.head.bottom - t.head.top + 2
		fit := min(domRows[i], (b.Max.Y-t.head.bottom-1)/pitch)
		rep.rows, rep.fit = append(rep.rows, len(t.rows)), append(rep.fit, fit)
		if len(t.rows) < fit || len(t.rows) > domRows[i] {
			fail("table %d: %d row bands below its header (y %d–%d, x %d–%d), want %d to %d: the DOM has %d rows, %d of them fit",
				i+1, len(t.rows), t.head.top, t.head.bottom, t.left, t.right, fit, domRows[i], domRows[i], fit)
		}
		for _, bd := range append([]band{t.head}, t.rows...) {
			c := contrast(darkest(img, bd.top, bd.bottom, t.left, t.right), bd.bg)
			rep.lowest = min(rep.lowest, c)
			if c < minContrast {
				fail("table %d: the darkest text on %v (y %d–%d) has contrast %.2f, under %.1f", i+1, bd.bg, bd.top, bd.bottom, c, minContrast)
			}
		}
		c := 0.0
		if top, bottom, ok := lineAbove(img, t); ok {
			c = contrast(darkest(img, top, bottom, t.left, t.right), pageBg)
			if c < minContrast {
				fail("table %d: the darkest text of the line above it (y %d–%d) has contrast %.2f on the page, under %.1f", i+1, top, bottom, c, minContrast)
			}
		}
		rep.above = append(rep.above, c)
	}
	if want.chart != nil {
		for y := b.Min.Y; y < b.Max.Y; y++ {
			rep.chartPx += count(img, y, b.Min.X, b.Max.X, *want.chart)
		}
		if rep.chartPx < want.chartPixels {
			fail("%d pixels of the chart's colour %v, want %d at least", rep.chartPx, *want.chart, want.chartPixels)
		}
	}
	return rep, errs
}

// domTableRows are the body rows of each table of a page's DOM, in order.
func domTableRows(dom string) []int {
	var out []int
	for _, tbl := range tableRE.FindAllString(dom, -1) {
		_, body, _ := strings.Cut(tbl, "<tbody>")
		out = append(out, strings.Count(body, "<tr"))
	}
	return out
}

// readPNG decodes the PNG at path.
func readPNG(path string) (image.Image, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return png.Decode(f)
}

// synthetic draws a 400×300 page: a muted line at y 20–29, then a table
// from x 20 to 380 whose header (y 40–59, with dark text) has a rule under
// it, and rows of 20 pixels, each under a 1px rule, alternating odd and
// even backgrounds, each with a few pixels of text in colour text; and
// chartPx pixels of the chart colour at the bottom.
func synthetic(rows int, text rgb, chartPx int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, 400, 300))
	fill := func(x0, y0, x1, y1 int, c rgb) {
		for y := y0; y < y1; y++ {
			for x := x0; x < x1; x++ {
				img.Set(x, y, c)
			}
		}
	}
	fill(0, 0, 400, 300, pageBg)
	fill(20, 24, 200, 27, mustHex("#5f6a76"))
	fill(20, 40, 380, 60, headBg)
	fill(30, 45, 60, 55, mustHex("#1d232a"))
	fill(20, 60, 380, 61, ruleFg)
	for i := range rows {
		y := 61 + i*21
		bg := oddBg
		if i%2 == 1 {
			bg = evenBg
		}
		fill(20, y, 380, y+20, bg)
		fill(30, y+5, 70, y+15, text)
		fill(20, y+20, 380, y+21, ruleFg)
	}
	fill(0, 299, chartPx, 300, mustHex(colours[0]))
	return img
}

// TestShotChecks: the screenshot checks on images drawn here: a table of
// three rows passes, and each way a page can go wrong fails: the wrong
// size, a blank page, fewer or more row bands than the DOM's rows, text
// too light for its row, a row painted over only part of the table (as a
// screenshot taken before the page was painted), a missing chart.
func TestShotChecks(t *testing.T) {
	blue := mustHex(colours[0])
	want := shotWant{width: 400, height: 300, minInk: 0.2, tables: 1, chart: &blue, chartPixels: 20}
	img := synthetic(3, mustHex("#1d232a"), 40)
	rep, errs := checkShot(img, want, []int{3})
	if len(errs) != 0 {
		t.Fatalf("a good page fails: %v (%v)", errs, rep)
	}
	tables := tablesIn(img)
	if len(tables) != 1 || len(tables[0].rows) != 3 || tables[0].left != 20 || tables[0].right != 380 ||
		tables[0].head != (band{40, 60, headBg}) || tables[0].rows[1] != (band{82, 102, evenBg}) {
		t.Errorf("tables %+v: want one from x 20 to 380, header y 40–60, 3 rows (the second y 82–102 on %v)", tables, evenBg)
	}
	if rep.above[0] < 5.3 || rep.above[0] > 5.4 {
		t.Errorf("the line above: contrast %.2f, want that of #5f6a76 on %v (5.33)", rep.above[0], pageBg)
	}

	partial := synthetic(3, mustHex("#1d232a"), 40)
	for y := 61; y < 300; y++ {
		for x := 150; x < 380; x++ {
			partial.Set(x, y, pageBg) // the rows painted only up to x 150
		}
	}
	blank := image.NewRGBA(image.Rect(0, 0, 400, 300))
	for y := range 300 {
		for x := range 400 {
			blank.Set(x, y, pageBg)
		}
	}
	for _, c := range []struct {
		name    string
		img     image.Image
		want    shotWant
		rows    []int
		mention string
	}{
		{"wrong size", img, shotWant{width: 800, height: 300}, []int{3}, "size 400x300, want 800x300"},
		{"blank", blank, want, []int{3}, "a blank page"},
		{"a row the DOM has is missing", img, want, []int{4}, "3 row bands"},
		{"more bands than rows", img, want, []int{2}, "want 2 to 2"},
		{"light text", synthetic(3, mustHex("#999"), 40), want, []int{3}, "has contrast 2.85"},
		{"half painted", partial, want, []int{3}, "0 row bands"},
		{"no chart", synthetic(3, mustHex("#1d232a"), 5), want, []int{3}, "5 pixels of the chart's colour"},
		{"a table the DOM lacks", img, want, nil, "the page has 0 tables"},
	} {
		_, errs := checkShot(c.img, c.want, c.rows)
		if !strings.Contains(fmt.Sprint(errs), c.mention) {
			t.Errorf("%s: errors %v, want one saying %q", c.name, errs, c.mention)
		}
	}
}

// TestContrastRatio: WCAG 2's ratio at its known points.
func TestContrastRatio(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want float64
	}{{"#000", "#fff", 21}, {"#fff", "#fff", 1}, {"#777", "#fff", 4.48}, {"#fff", "#777", 4.48}, {"#767676", "#fff", 4.54}} {
		if got := contrast(mustHex(c.a), mustHex(c.b)); math.Abs(got-c.want) > 0.005 {
			t.Errorf("contrast(%s, %s) = %.3f, want %.2f", c.a, c.b, got, c.want)
		}
	}
	for _, bad := range []string{"fff", "#ffff", "#ggg", "#12345", ""} {
		if _, err := hexColour(bad); err == nil {
			t.Errorf("hexColour(%q) takes it", bad)
		}
	}
}
