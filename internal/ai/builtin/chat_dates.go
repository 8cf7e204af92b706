package builtin

import (
	"fmt"
	"strings"
	"time"
)

// chatRange is a range of whole UTC days named in a message; a zero bound is open.
type chatRange struct {
	from, to time.Time
	label    string
	pos      int
}

// fromText and toText return the bounds as YYYY-MM-DD, "" when open.
func (r *chatRange) fromText() string { return chatDay(r.from) }

// toText returns the upper bound as YYYY-MM-DD, "" when open.
func (r *chatRange) toText() string { return chatDay(r.to) }

// chatDay formats a day, "" for the zero time.
func chatDay(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Format("2006-01-02")
}

// describe names the range with its bounds for a reply.
func (r *chatRange) describe() string {
	switch {
	case r.from.IsZero():
		return fmt.Sprintf("%s (up to %s)", r.label, chatDay(r.to))
	case r.to.IsZero():
		return fmt.Sprintf("%s (from %s)", r.label, chatDay(r.from))
	case r.from.Equal(r.to):
		return fmt.Sprintf("%s (%s)", r.label, chatDay(r.from))
	case strings.Contains(r.label, chatDay(r.from)) && strings.Contains(r.label, chatDay(r.to)):
		return r.label
	}
	return fmt.Sprintf("%s (%s to %s)", r.label, chatDay(r.from), chatDay(r.to))
}

// chatMonths names the months.
var chatMonths = map[string]time.Month{
	"january": 1, "february": 2, "march": 3, "april": 4, "may": 5, "june": 6, "july": 7,
	"august": 8, "september": 9, "october": 10, "november": 11, "december": 12,
	"jan": 1, "feb": 2, "sept": 9, "oct": 10, "nov": 11, "dec": 12,
}

// chatDatePrepositions introduce a month or year as a date.
var chatDatePrepositions = chatSet("in during since before after of for from until till between and through")

// chatDates finds the first date range in the message and marks its tokens used.
// Relative ranges ("last week") are resolved against today, the UTC day of now.
func chatDates(ts []chatToken, used []bool, now time.Time) *chatRange {
	today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	words := chatWords(ts)
	finders := []func([]string, []bool, time.Time) (*chatRange, int, int){
		chatISODates, chatRelativeDays, chatRelativePeriods, chatMonthNames, chatYears,
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

// chatISODates reads "2025-04-01", "between D1 and D2", "since D", "before D".
func chatISODates(words []string, used []bool, _ time.Time) (*chatRange, int, int) {
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
		return &chatRange{from: d, to: e, label: "between " + chatDay(d) + " and " + chatDay(e)}, max(0, idx[0]-1), idx[1] + 1
	}
	return chatOpenRange(words, idx[0], d, d, chatDay(d))
}

// chatOpenRange applies the preposition before position i to the period [first,
// last]: since/from/after open the end, before/until open the start.
func chatOpenRange(words []string, i int, first, last time.Time, name string) (*chatRange, int, int) {
	prev := ""
	if i > 0 {
		prev = words[i-1]
	}
	start := i
	if chatDatePrepositions[prev] || prev == "on" {
		start = i - 1
	}
	switch prev {
	case "since", "from":
		return &chatRange{from: first, label: "since " + name}, start, i + 1
	case "after":
		return &chatRange{from: last.AddDate(0, 0, 1), label: "after " + name}, start, i + 1
	case "before":
		return &chatRange{to: first.AddDate(0, 0, -1), label: "before " + name}, start, i + 1
	case "until", "till", "through":
		return &chatRange{to: last, label: "until " + name}, start, i + 1
	}
	if first.Equal(last) {
		return &chatRange{from: first, to: last, label: "on " + name}, start, i + 1
	}
	return &chatRange{from: first, to: last, label: "in " + name}, start, i + 1
}

// chatRelativeDays reads today, yesterday and "last/past N days|weeks|months".
func chatRelativeDays(words []string, used []bool, today time.Time) (*chatRange, int, int) {
	for i, w := range words {
		if used[i] {
			continue
		}
		switch w {
		case "today":
			return &chatRange{from: today, to: today, label: "today"}, i, i + 1
		case "yesterday":
			y := today.AddDate(0, 0, -1)
			return &chatRange{from: y, to: y, label: "yesterday"}, i, i + 1
		}
		if (w == "last" || w == "past") && i+2 < len(words) && chatIsCount(words[i+1]) {
			if r := chatRolling(today, words[i+1], words[i+2]); r != nil {
				return r, i, i + 3
			}
		}
	}
	return nil, 0, 0
}

// chatIsCount reports whether w is a small whole number.
func chatIsCount(w string) bool {
	var n int
	_, err := fmt.Sscanf(w, "%d", &n)
	return err == nil && n > 0 && n < 1000 && fmt.Sprint(n) == w
}

// chatRolling is the range of the last n days, weeks or months up to today.
func chatRolling(today time.Time, n, unit string) *chatRange {
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
	return &chatRange{from: from, to: today, label: "in the last " + n + " " + unit}
}

// chatRelativePeriods reads this/last/past week, month and year. Weeks start on
// Monday; "last week" is the previous calendar week, "past week" the last 7 days.
func chatRelativePeriods(words []string, used []bool, today time.Time) (*chatRange, int, int) {
	for i := 0; i+1 < len(words); i++ {
		if used[i] || used[i+1] {
			continue
		}
		if r := chatPeriod(words[i], words[i+1], today); r != nil {
			start := i
			if i > 0 && (words[i-1] == "in" || words[i-1] == "during" || words[i-1] == "over") {
				start = i - 1
			}
			return r, start, i + 2
		}
	}
	return nil, 0, 0
}

// chatPeriod resolves "<which> <unit>" against today.
func chatPeriod(which, unit string, today time.Time) *chatRange {
	monday := today.AddDate(0, 0, -((int(today.Weekday()) + 6) % 7))
	first := today.AddDate(0, 0, 1-today.Day())
	jan1 := time.Date(today.Year(), 1, 1, 0, 0, 0, 0, time.UTC)
	label := which + " " + unit
	switch which + " " + unit {
	case "this week":
		return &chatRange{from: monday, to: today, label: label}
	case "last week", "previous week":
		return &chatRange{from: monday.AddDate(0, 0, -7), to: monday.AddDate(0, 0, -1), label: label}
	case "past week":
		return &chatRange{from: today.AddDate(0, 0, -6), to: today, label: "in the past week"}
	case "this month":
		return &chatRange{from: first, to: today, label: label}
	case "last month", "previous month":
		return &chatRange{from: first.AddDate(0, -1, 0), to: first.AddDate(0, 0, -1), label: label}
	case "past month":
		return &chatRange{from: today.AddDate(0, -1, 1), to: today, label: "in the past month"}
	case "this year":
		return &chatRange{from: jan1, to: today, label: label}
	case "last year", "previous year":
		return &chatRange{from: jan1.AddDate(-1, 0, 0), to: jan1.AddDate(0, 0, -1), label: label}
	}
	return nil
}

// chatMonthNames reads "March", "in March 2025", "since April", "between March
// and May". A month without a year is its latest occurrence up to today. "May"
// counts only after a date preposition or before a year.
func chatMonthNames(words []string, used []bool, today time.Time) (*chatRange, int, int) {
	for i, w := range words {
		m, ok := chatMonths[w]
		if !ok || used[i] {
			continue
		}
		hasYear := i+1 < len(words) && chatYear(words[i+1]) > 0
		if w == "may" && !hasYear && (i == 0 || !chatDatePrepositions[words[i-1]]) {
			continue
		}
		first, end := chatMonthAt(words, i, m, today)
		if i > 0 && (words[i-1] == "between" || words[i-1] == "from") {
			if r, e := chatMonthPair(words, i, first, today); r != nil {
				return r, i - 1, e
			}
		}
		r, start, stop := chatOpenRange(words, i, first, first.AddDate(0, 1, -1), first.Format("January 2006"))
		return r, start, max(stop, end)
	}
	return nil, 0, 0
}

// chatMonthAt returns the first day of month m named at position i (with its year
// when one follows) and the end of the tokens read.
func chatMonthAt(words []string, i int, m time.Month, today time.Time) (time.Time, int) {
	if i+1 < len(words) {
		if y := chatYear(words[i+1]); y > 0 {
			return time.Date(y, m, 1, 0, 0, 0, 0, time.UTC), i + 2
		}
	}
	y := today.Year()
	if m > today.Month() {
		y--
	}
	return time.Date(y, m, 1, 0, 0, 0, 0, time.UTC), i + 1
}

// chatMonthPair reads "between <month> and <month>" from the first month on.
func chatMonthPair(words []string, i int, first time.Time, today time.Time) (*chatRange, int) {
	_, k := chatMonthAt(words, i, first.Month(), today)
	if k+1 >= len(words) || (words[k] != "and" && words[k] != "to" && words[k] != "until" && words[k] != "through") {
		return nil, 0
	}
	m2, ok := chatMonths[words[k+1]]
	if !ok {
		return nil, 0
	}
	second, end := chatMonthAt(words, k+1, m2, today)
	last := second.AddDate(0, 1, -1)
	label := "between " + first.Format("January 2006") + " and " + second.Format("January 2006")
	return &chatRange{from: first, to: last, label: label}, end
}

// chatYear returns the year a word names (2000 to 2099), or 0.
func chatYear(w string) int {
	if len(w) != 4 || !strings.HasPrefix(w, "20") {
		return 0
	}
	var y int
	if _, err := fmt.Sscanf(w, "%d", &y); err != nil {
		return 0
	}
	return y
}

// chatYears reads "in 2024", "since 2024", "before 2023".
func chatYears(words []string, used []bool, _ time.Time) (*chatRange, int, int) {
	for i, w := range words {
		y := chatYear(w)
		if y == 0 || used[i] || i == 0 || !chatDatePrepositions[words[i-1]] {
			continue
		}
		first := time.Date(y, 1, 1, 0, 0, 0, 0, time.UTC)
		return chatOpenRange(words, i, first, first.AddDate(1, 0, -1), w)
	}
	return nil, 0, 0
}
