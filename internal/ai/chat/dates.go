package chat

import (
	"fmt"
	"strings"
	"time"

	"forma/internal/ai/text"
)

// dateRange is a range of whole UTC days named in a message; a zero bound is open.
type dateRange struct {
	from, to time.Time
	label    string
	pos      int
}

// fromText and toText return the bounds as YYYY-MM-DD, "" when open.
func (r *dateRange) fromText() string { return dayText(r.from) }

// toText returns the upper bound as YYYY-MM-DD, "" when open.
func (r *dateRange) toText() string { return dayText(r.to) }

// dayText formats a day, "" for the zero time.
func dayText(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Format("2006-01-02")
}

// describe names the range with its bounds for a reply.
func (r *dateRange) describe() string {
	switch {
	case r.from.IsZero():
		return fmt.Sprintf("%s (up to %s)", r.label, dayText(r.to))
	case r.to.IsZero():
		return fmt.Sprintf("%s (from %s)", r.label, dayText(r.from))
	case r.from.Equal(r.to):
		return fmt.Sprintf("%s (%s)", r.label, dayText(r.from))
	case strings.Contains(r.label, dayText(r.from)) && strings.Contains(r.label, dayText(r.to)):
		return r.label
	}
	return fmt.Sprintf("%s (%s to %s)", r.label, dayText(r.from), dayText(r.to))
}

// months names the months.
var months = map[string]time.Month{
	"january": 1, "february": 2, "march": 3, "april": 4, "may": 5, "june": 6, "july": 7,
	"august": 8, "september": 9, "october": 10, "november": 11, "december": 12,
	"jan": 1, "feb": 2, "sept": 9, "oct": 10, "nov": 11, "dec": 12,
}

// datePrepositions introduce a month or year as a date.
var datePrepositions = text.Set("in during since before after of for from until till between and through")

// findDates finds the first date range in the message and marks its tokens used.
// Relative ranges ("last week") are resolved against today, the UTC day of now.
func findDates(ts []token, used []bool, now time.Time) *dateRange {
	today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	words := wordsOf(ts)
	finders := []func([]string, []bool, time.Time) (*dateRange, int, int){
		findISODates, findRelativeDays, findRelativePeriods, findMonths, findYears,
	}
	for _, find := range finders {
		if r, start, end := find(words, used, today); r != nil {
			for k := start; k < end; k++ {
				used[k] = true
			}
			r.pos = start
			return r
		}
	}
	return nil
}

// findISODates reads "2025-04-01", "between D1 and D2", "since D", "before D".
func findISODates(words []string, used []bool, _ time.Time) (*dateRange, int, int) {
	var idx []int
	for i, w := range words {
		if len(w) == 10 && w[4] == '-' && !used[i] {
			if _, err := time.Parse("2006-01-02", w); err == nil {
				idx = append(idx, i)
			}
		}
	}
	if len(idx) == 0 {
		return nil, 0, 0
	}
	d, _ := time.Parse("2006-01-02", words[idx[0]])
	if len(idx) >= 2 {
		e, _ := time.Parse("2006-01-02", words[idx[1]])
		if e.Before(d) {
			d, e = e, d
		}
		return &dateRange{from: d, to: e, label: "between " + dayText(d) + " and " + dayText(e)}, max(0, idx[0]-1), idx[1] + 1
	}
	return openRange(words, idx[0], d, d, dayText(d))
}

// openRange applies the preposition before position i to the period [first,
// last]: since/from/after open the end, before/until open the start.
func openRange(words []string, i int, first, last time.Time, name string) (*dateRange, int, int) {
	prev := ""
	if i > 0 {
		prev = words[i-1]
	}
	start := i
	if datePrepositions[prev] || prev == "on" {
		start = i - 1
	}
	switch prev {
	case "since", "from":
		return &dateRange{from: first, label: "since " + name}, start, i + 1
	case "after":
		return &dateRange{from: last.AddDate(0, 0, 1), label: "after " + name}, start, i + 1
	case "before":
		return &dateRange{to: first.AddDate(0, 0, -1), label: "before " + name}, start, i + 1
	case "until", "till", "through":
		return &dateRange{to: last, label: "until " + name}, start, i + 1
	}
	if first.Equal(last) {
		return &dateRange{from: first, to: last, label: "on " + name}, start, i + 1
	}
	return &dateRange{from: first, to: last, label: "in " + name}, start, i + 1
}

// findRelativeDays reads today, yesterday and "last/past N days|weeks|months".
func findRelativeDays(words []string, used []bool, today time.Time) (*dateRange, int, int) {
	for i, w := range words {
		if used[i] {
			continue
		}
		switch w {
		case "today":
			return &dateRange{from: today, to: today, label: "today"}, i, i + 1
		case "yesterday":
			y := today.AddDate(0, 0, -1)
			return &dateRange{from: y, to: y, label: "yesterday"}, i, i + 1
		}
		if (w == "last" || w == "past") && i+2 < len(words) && isCount(words[i+1]) {
			if r := rolling(today, words[i+1], words[i+2]); r != nil {
				return r, i, i + 3
			}
		}
	}
	return nil, 0, 0
}

// isCount reports whether w is a small whole number.
func isCount(w string) bool {
	var n int
	_, err := fmt.Sscanf(w, "%d", &n)
	return err == nil && n > 0 && n < 1000 && fmt.Sprint(n) == w
}

// rolling is the range of the last n days, weeks or months up to today.
func rolling(today time.Time, n, unit string) *dateRange {
	var k int
	fmt.Sscanf(n, "%d", &k)
	var from time.Time
	switch strings.TrimSuffix(unit, "s") {
	case "day":
		from = today.AddDate(0, 0, 1-k)
	case "week":
		from = today.AddDate(0, 0, 1-7*k)
	case "month":
		from = today.AddDate(0, -k, 1)
	default:
		return nil
	}
	return &dateRange{from: from, to: today, label: "in the last " + n + " " + unit}
}

// findRelativePeriods reads this/last/past week, month and year. Weeks start on
// Monday; "last week" is the previous calendar week, "past week" the last 7 days.
func findRelativePeriods(words []string, used []bool, today time.Time) (*dateRange, int, int) {
	for i := 0; i+1 < len(words); i++ {
		if used[i] || used[i+1] {
			continue
		}
		if r := namedPeriod(words[i], words[i+1], today); r != nil {
			start := i
			if i > 0 && (words[i-1] == "in" || words[i-1] == "during" || words[i-1] == "over") {
				start = i - 1
			}
			return r, start, i + 2
		}
	}
	return nil, 0, 0
}

// namedPeriod resolves "<which> <unit>" against today.
func namedPeriod(which, unit string, today time.Time) *dateRange {
	monday := today.AddDate(0, 0, -((int(today.Weekday()) + 6) % 7))
	first := today.AddDate(0, 0, 1-today.Day())
	jan1 := time.Date(today.Year(), 1, 1, 0, 0, 0, 0, time.UTC)
	label := which + " " + unit
	switch which + " " + unit {
	case "this week":
		return &dateRange{from: monday, to: today, label: label}
	case "last week", "previous week":
		return &dateRange{from: monday.AddDate(0, 0, -7), to: monday.AddDate(0, 0, -1), label: label}
	case "past week":
		return &dateRange{from: today.AddDate(0, 0, -6), to: today, label: "in the past week"}
	case "this month":
		return &dateRange{from: first, to: today, label: label}
	case "last month", "previous month":
		return &dateRange{from: first.AddDate(0, -1, 0), to: first.AddDate(0, 0, -1), label: label}
	case "past month":
		return &dateRange{from: today.AddDate(0, -1, 1), to: today, label: "in the past month"}
	case "this year":
		return &dateRange{from: jan1, to: today, label: label}
	case "last year", "previous year":
		return &dateRange{from: jan1.AddDate(-1, 0, 0), to: jan1.AddDate(0, 0, -1), label: label}
	}
	return nil
}

// findMonths reads "March", "in March 2025", "since April", "between March
// and May". A month without a year is its latest occurrence up to today. "May"
// counts only after a date preposition or before a year.
func findMonths(words []string, used []bool, today time.Time) (*dateRange, int, int) {
	for i, w := range words {
		m, ok := months[w]
		if !ok || used[i] {
			continue
		}
		hasYear := i+1 < len(words) && yearOf(words[i+1]) > 0
		if w == "may" && !hasYear && (i == 0 || !datePrepositions[words[i-1]]) {
			continue
		}
		first, end := monthAt(words, i, m, today)
		if i > 0 && (words[i-1] == "between" || words[i-1] == "from") {
			if r, e := monthPair(words, i, first, today); r != nil {
				return r, i - 1, e
			}
		}
		r, start, stop := openRange(words, i, first, first.AddDate(0, 1, -1), first.Format("January 2006"))
		return r, start, max(stop, end)
	}
	return nil, 0, 0
}

// monthAt returns the first day of month m named at position i (with its year
// when one follows) and the end of the tokens read.
func monthAt(words []string, i int, m time.Month, today time.Time) (time.Time, int) {
	if i+1 < len(words) {
		if y := yearOf(words[i+1]); y > 0 {
			return time.Date(y, m, 1, 0, 0, 0, 0, time.UTC), i + 2
		}
	}
	y := today.Year()
	if m > today.Month() {
		y--
	}
	return time.Date(y, m, 1, 0, 0, 0, 0, time.UTC), i + 1
}

// monthPair reads "between <month> and <month>" from the first month on.
func monthPair(words []string, i int, first time.Time, today time.Time) (*dateRange, int) {
	_, k := monthAt(words, i, first.Month(), today)
	if k+1 >= len(words) || (words[k] != "and" && words[k] != "to" && words[k] != "until" && words[k] != "through") {
		return nil, 0
	}
	m2, ok := months[words[k+1]]
	if !ok {
		return nil, 0
	}
	second, end := monthAt(words, k+1, m2, today)
	last := second.AddDate(0, 1, -1)
	label := "between " + first.Format("January 2006") + " and " + second.Format("January 2006")
	return &dateRange{from: first, to: last, label: label}, end
}

// yearOf returns the year a word names (2000 to 2099), or 0.
func yearOf(w string) int {
	if len(w) != 4 || !strings.HasPrefix(w, "20") {
		return 0
	}
	var y int
	if _, err := fmt.Sscanf(w, "%d", &y); err != nil {
		return 0
	}
	return y
}

// findYears reads "in 2024", "since 2024", "before 2023", "between 2020 and
// 2022", "from 2020 to 2022".
func findYears(words []string, used []bool, _ time.Time) (*dateRange, int, int) {
	for i, w := range words {
		y := yearOf(w)
		if y == 0 || used[i] || i == 0 || !datePrepositions[words[i-1]] {
			continue
		}
		first := time.Date(y, 1, 1, 0, 0, 0, 0, time.UTC)
		if r, end := yearPair(words, used, i, first); r != nil {
			return r, i - 1, end
		}
		return openRange(words, i, first, first.AddDate(1, 0, -1), w)
	}
	return nil, 0, 0
}

// yearPair reads "between <year> and <year>" or "from <year> to <year>" at the
// first year i: both whole years.
func yearPair(words []string, used []bool, i int, first time.Time) (*dateRange, int) {
	prev, mid := words[i-1], ""
	if i+2 < len(words) {
		mid = words[i+1]
	}
	if !(prev == "between" && mid == "and" || prev == "from" && (mid == "to" || mid == "until" || mid == "through")) || used[i+2] {
		return nil, 0
	}
	y2 := yearOf(words[i+2])
	if y2 < first.Year() {
		return nil, 0
	}
	last := time.Date(y2, 12, 31, 0, 0, 0, 0, time.UTC)
	return &dateRange{from: first, to: last, label: "between " + words[i] + " and " + words[i+2]}, i + 3
}
