package dashboard

import (
	"fmt"
	"strconv"
	"testing"

	"forma/internal/ai/query"
	"forma/internal/form"
)

// TestBinned: a numeric question with many distinct answers is charted in a few
// round ranges that keep every count; a few values stay one bar each.
func TestBinned(t *testing.T) {
	q := &form.Question{Type: form.Currency, Currency: &form.CurrencyConfig{Currency: "EUR"}}
	var many []query.Bucket
	for v := 1; v <= 30; v++ {
		many = append(many, query.Bucket{Label: strconv.Itoa(v), Count: v, Percent: 1})
	}
	got := binned(q, many)
	want := []string{"0 EUR to under 5 EUR: 10", "5 EUR to under 10 EUR: 35", "10 EUR to under 15 EUR: 60",
		"15 EUR to under 20 EUR: 85", "20 EUR to under 25 EUR: 110", "25 EUR to under 30 EUR: 135", "30 EUR: 30"}
	if fmt.Sprint(labels(got)) != fmt.Sprint(want) {
		t.Errorf("30 values binned into %v, want %v", labels(got), want)
	}
	if got[1].Percent != 5 {
		t.Errorf("the 5–10 range's share is %v%%, want the sum of its values' shares, 5%%", got[1].Percent)
	}
	few := many[:maxValueBars]
	if got := binned(q, few); len(got) != maxValueBars {
		t.Errorf("%d values became %d bars", maxValueBars, len(got))
	}
	fractions := []query.Bucket{}
	for i := range 12 {
		fractions = append(fractions, query.Bucket{Label: query.Format(2.5 + float64(i)*0.05), Count: 1})
	}
	if got := labels(binned(&form.Question{Type: form.Number}, fractions)); got[0] != "2.5 to under 2.6: 2" {
		t.Errorf("values 2.5 to 3.05 binned into %v", got)
	}
}

func labels(bs []query.Bucket) []string {
	out := make([]string, len(bs))
	for i, b := range bs {
		out[i] = b.Label + ": " + strconv.Itoa(b.Count)
	}
	return out
}
