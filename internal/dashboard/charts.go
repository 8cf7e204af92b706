package dashboard

import (
	"math"
	"strconv"
	"strings"

	"forma/internal/ai/query"
)

// The charts are inline SVG drawn by the summary template from the geometry below:
// coordinates are in a 320-unit-wide viewBox that CSS scales to the card, so that
// the text stays readable from a 360 px phone to a desktop. Every label reaches
// the page through html/template, in SVG as in HTML.
const (
	chartWidth = 320
	barRow     = 40  // height of one bar and its label
	barMax     = 240 // width of a 100 % bar; the figures sit to its right
	labelRunes = 42  // longer labels are cut in the drawing (the table has them whole)
	plotLeft   = 30  // column charts: room for the count axis
	plotTop    = 12
	plotBottom = 140
	colHeight  = 170 // column charts' viewBox height, with the date labels
)

// bar is one answer of a bar chart, or one day of a column chart, with the figures
// of its table row and its place in the drawing.
type bar struct {
	Label   string // whole, for the table and the tooltip
	Short   string // as drawn
	Count   int
	Percent string
	// X, Y, W, H place the bar's rectangle; LabelY and ValueY are the baselines
	// of a bar chart's label (above the bar) and figures (right of it).
	X, Y, W, H     float64
	LabelY, ValueY float64
}

// chart is a chart with the table of its figures. Title names it, Desc says its
// figures in a sentence for screen readers (aria-labelledby both).
type chart struct {
	ID          string
	Title, Desc string
	// Columns marks a column chart over time; otherwise bars run across.
	Columns bool
	Height  int
	Bars    []bar
	// Max is a column chart's highest count, First and Last its first and last days.
	Max         int
	First, Last string
	// Key names the table's first column ("Answer", "Day").
	Key string
}

// barChart draws the buckets of a distribution as horizontal bars, each as long
// as its share of the responses.
func barChart(id, title string, buckets []query.Bucket) *chart {
	c := &chart{ID: id, Title: title, Height: max(len(buckets), 1) * barRow, Key: "Answer"}
	var desc []string
	for i, b := range buckets {
		y := float64(i * barRow)
		c.Bars = append(c.Bars, bar{Label: b.Label, Short: cut(b.Label), Count: b.Count, Percent: query.FormatPercent(b.Percent),
			Y: y + 20, W: round(min(b.Percent, 100) / 100 * barMax), H: 12, LabelY: y + 14, ValueY: y + 31})
		desc = append(desc, b.Label+": "+strconv.Itoa(b.Count)+" ("+query.FormatPercent(b.Percent)+")")
	}
	c.Desc = strings.Join(desc, "; ") + "."
	return c
}

// columnChart draws the buckets of a trend as columns, as high as their counts.
func columnChart(id, title string, buckets []query.Bucket) *chart {
	c := &chart{ID: id, Title: title, Columns: true, Height: colHeight, Key: "Day",
		First: buckets[0].Label, Last: buckets[len(buckets)-1].Label}
	busiest := buckets[0]
	for _, b := range buckets {
		c.Max = max(c.Max, b.Count)
		if b.Count > busiest.Count {
			busiest = b
		}
	}
	slot := float64(chartWidth-plotLeft-4) / float64(len(buckets))
	w := max(min(slot*0.8, 40), 1)
	for i, b := range buckets {
		h := float64(b.Count) / float64(max(c.Max, 1)) * (plotBottom - plotTop)
		c.Bars = append(c.Bars, bar{Label: b.Label, Short: b.Label, Count: b.Count, Percent: query.FormatPercent(b.Percent),
			X: round(plotLeft + float64(i)*slot + (slot-w)/2), Y: round(plotBottom - h), W: round(w), H: round(h)})
	}
	c.Desc = "From " + c.First + " to " + c.Last + "; the busiest day, " + busiest.Label + ", had " +
		plural(busiest.Count, "response", "responses") + "."
	return c
}

// cut shortens a label to labelRunes characters for drawing.
func cut(s string) string {
	r := []rune(s)
	if len(r) <= labelRunes {
		return s
	}
	return string(r[:labelRunes-1]) + "…"
}

// round keeps one decimal of a coordinate.
func round(v float64) float64 { return math.Round(v*10) / 10 }

// plural writes n with the word that fits it.
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
