package query

import (
	"strconv"
	"strings"
	"time"

	"forma/internal/form"
)

// Format renders a number for people: rounded to at most two decimals, trailing
// zeros dropped ("4", "3.5", "41.67"), no thousands separators, never "-0".
func Format(v float64) string {
	s := strconv.FormatFloat(v, 'f', 2, 64)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	if s == "-0" {
		return "0"
	}
	return s
}

// FormatPercent renders a percentage with Format and a "%" sign ("41.67%").
func FormatPercent(v float64) string { return Format(v) + "%" }

// FormatValue renders a figure of the answers to q for people, with its unit:
// "4.2 out of 5" for a rating, "12.5 USD" for a currency question, Format otherwise.
func FormatValue(q *form.Question, v float64) string {
	switch {
	case q.Type == form.Rating:
		return Format(v) + " out of 5"
	case q.Type == form.Currency && q.Currency != nil && q.Currency.Currency != "":
		return Format(v) + " " + q.Currency.Currency
	}
	return Format(v)
}

// PeriodName names the period of a trend bucket for people: "March 2025" for a
// Month label ("2025-03"), "week of 2025-03-03" for a Week, the label itself
// otherwise.
func PeriodName(label, interval string) string {
	switch interval {
	case Month:
		if t, err := time.Parse("2006-01", label); err == nil {
			return t.Format("January 2006")
		}
	case Week:
		return "week of " + label
	}
	return label
}
