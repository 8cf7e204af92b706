package dashboard

import (
	"math"
	"strconv"
	"strings"

	"forma/internal/ai/query"
	"forma/internal/form"
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

// maxValueBars is the most distinct values a numeric question's chart shows one
// by one; beyond it the values are grouped into ranges (binned).
const maxValueBars = 10

// binned groups the buckets of a numeric question's distribution (labels are
// numbers, ascending) into at most about eight ranges of one round width (1, 2
// or 5 times a power of ten), when there are more than maxValueBars values.
// Each range includes its lower bound and excludes its upper one, except the
// last, which ends at the largest answer. Buckets whose labels are not numbers
// are returned as they are.
func binned(q *form.Question, buckets []query.Bucket) []query.Bucket {
	if len(buckets) <= maxValueBars {
		return buckets
	}
	values := make([]float64, len(buckets))
	for i, b := range buckets {
		v, err := strconv.ParseFloat(b.Label, 64)
		if err != nil {
			return buckets
		}
		values[i] = v
	}
	lo, hi := values[0], values[len(values)-1]
	step := roundStep((hi - lo) / 8)
	start := math.Floor(lo/step) * step
	var out []query.Bucket
	for i, b := range buckets {
		// The epsilon keeps a value on a boundary (2.6 with 2.5 + 0.1) out of the
		// range below it despite rounding.
		from := start + math.Floor((values[i]-start)/step+1e-9)*step
		label := query.FormatValue(q, from) + " to under " + query.FormatValue(q, from+step)
		if from == hi {
			label = query.FormatValue(q, hi)
		} else if from+step > hi {
			label = query.FormatValue(q, from) + " to " + query.FormatValue(q, hi)
		}
		if n := len(out); n > 0 && out[n-1].Label == label {
			out[n-1].Count += b.Count
			out[n-1].Percent += b.Percent
			continue
		}
		out = append(out, query.Bucket{Label: label, Count: b.Count, Percent: b.Percent})
	}
	return out
}

// roundStep is the smallest width of 1, 2 or 5 times a power of ten that is at
// least w (1 for w ≤ 0).
func roundStep(w float64) float64 {
	if w <= 0 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(w)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= w {
			return m * p
		}
	}
	return 10 * p
}
