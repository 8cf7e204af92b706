package query

import (
	"strconv"
	"strings"
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
