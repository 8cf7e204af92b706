package chat

import (
	"fmt"
	"strings"
	"time"

	"forma/internal/ai/query"
	"forma/internal/ai/text"
)

// dateRange is a range of whole UTC days named in a message; a zero bound is open.
type dateRange struct {
	from, to time.Time
	label    string
	pos      int
	// unsure says why the range has two readings, or "".
	unsure string
	// onwards marks "from <month or year>": that period for submissions
	// ("responses from September"), its start onwards for a date question
	// ("started from 2020").
	onwards bool
}

// filter is the condition on a date question's answers that r puts.
func (r *dateRange) filter() query.Filter {
	switch {
	case r.from.IsZero():
		return query.Filter{Op: query.LTE, Value: r.toText()}
	case r.to.IsZero() || r.onwards:
		return query.Filter{Op: query.GTE, Value: r.fromText()}
	}
	return query.Filter{Op: query.Between, Value: r.fromText(), To: r.toText()}
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
	"jan": 1, "feb": 2, "mar": 3, "apr": 4, "jun": 6, "jul": 7, "aug": 8, "sep": 9, "sept": 9, "oct": 10, "nov": 11, "dec": 12,
}

// dayOf returns the day of t (its calendar date, as given) at midnight UTC.
func dayOf(t time.Time) time.Time {
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
}

// datePrepositions introduce a month or year as a date.
var datePrepositions = text.Set("in during since before after of for from until till between and through")

// findDates finds the first date range in the message and marks its tokens used.
// Relative ranges ("last week") are resolved against today, the UTC day of now.
func findDates(ts []token, used []bool, now time.Time) *dateRange {
	today := dayOf(now)
	words := wordsOf(ts)
	finders := []func([]string, []bool, time.Time) (*dateRange, int, int){
		findISODates, findRelativeDays, findRelativePeriods, findMonths, findQuarters, findYears,
	}
	for _, find := range finders {
		if r, start, end := find(words, used, today); r != nil {
			end = r.openAfter(words, end)
			for k := start; k < end; k++ {
				used[k] = true
			}
			r.pos = start
			return r
		}
	}
	return nil
}

// laterWords and earlierWords after a period open its end ("in 2020 or later")
// or its start ("March or earlier").
var (
	laterWords   = phrases("or later", "or after", "and later", "and after", "onwards", "onward", "or newer")
	earlierWords = phrases("or earlier", "or before", "and earlier", "and before", "or older")
)

// openAfter opens r on the side a phrase at end names, and returns the end of
// the words read.
func (r *dateRange) openAfter(words []string, end int) int {
	for _, ph := range laterWords {
		if ph.At(words, end) && !r.from.IsZero() {
			r.to, r.onwards, r.label = time.Time{}, false, r.label+" or later"
			return end + len(ph)
		}
	}
	for _, ph := range earlierWords {
		if ph.At(words, end) && !r.to.IsZero() {
			r.from, r.onwards, r.label = time.Time{}, false, r.label+" or earlier"
			return end + len(ph)
		}
	}
	return end
}

// findISODates reads one or two days: "2025-04-01", "1 Oct", "the 1st of
// September 2025", "October 5th", "3/10" (day first, or month first when a day
// of the message says so: "10/20"), with "between D1 and D2", "from D1 to D2",
// "since D", "before D". A day with no year is its latest occurrence up to today.
// A slash day two ways readable ("3/10") gives a range that is unsure.
func findISODates(words []string, used []bool, today time.Time) (*dateRange, int, int) {
	order, ok := slashOrder(words)
	if !ok {
		return nil, 0, 0
	}
	for i := range words {
		if used[i] {
			continue
		}
		d, end, unsure := dayAt(words, i, today, order)
		if d.IsZero() {
			if r, start, stop := sharedMonthPair(words, i, today); r != nil {
				return r, start, stop
			}
			continue
		}
		r, start, stop := dayRange(words, i, end, d, today, order)
		if unsure {
			r.unsure = fmt.Sprintf("“%s” can be read day first or month first; please write the month's name", words[i])
		}
		return r, start, stop
	}
	return nil, 0, 0
}

// dayRange reads the range a day found at [i, end) opens: a pair after
// "between" or "from", or the open range of the preposition before it.
func dayRange(words []string, i, end int, d, today time.Time, order int) (*dateRange, int, int) {
	j := i
	if j > 0 && words[j-1] == "the" {
		j--
	}
	prev := ""
	if j > 0 {
		prev = words[j-1]
	}
	if (prev == "between" || prev == "from") && end+1 < len(words) && rangeJoins[words[end]] {
		k := end + 1
		if words[k] == "the" {
			k++
		}
		if e, stop, _ := dayAt(words, k, today, order); !e.IsZero() {
			if e.Before(d) {
				d, e = e, d
			}
			return &dateRange{from: d, to: e, label: "between " + dayText(d) + " and " + dayText(e)}, j - 1, stop
		}
	}
	r, start, _ := openRange(words, j, d, d, dayText(d))
	return r, start, end
}

// sharedMonthPair reads "between the 1st and the 15th of September", "from 5 to
// 12 October": two days of the month named after the second.
func sharedMonthPair(words []string, i int, today time.Time) (*dateRange, int, int) {
	n := dayNumber(words[i])
	j := i
	if j > 0 && words[j-1] == "the" {
		j--
	}
	if n == 0 || j == 0 || (words[j-1] != "between" && words[j-1] != "from") {
		return nil, 0, 0
	}
	k := i + 1
	if k < len(words) && ordinalSuffixes[words[k]] {
		k++
	}
	if k >= len(words) || !rangeJoins[words[k]] {
		return nil, 0, 0
	}
	k++
	if k < len(words) && words[k] == "the" {
		k++
	}
	if k >= len(words) || dayNumber(words[k]) == 0 {
		return nil, 0, 0
	}
	e, stop, _ := dayAt(words, k, today, 0)
	if e.IsZero() {
		return nil, 0, 0
	}
	d := time.Date(e.Year(), e.Month(), n, 0, 0, 0, 0, time.UTC)
	if d.After(e) || d.Month() != e.Month() {
		return nil, 0, 0
	}
	return &dateRange{from: d, to: e, label: "between " + dayText(d) + " and " + dayText(e)}, j - 1, stop
}

// rangeJoins join the two ends of a range of days.
var rangeJoins = text.Set("and to until till through")

// slashOrder decides how the slash days of a message read: 1 day first, 2 month
// first, 0 undecided; false when they contradict each other.
func slashOrder(words []string) (int, bool) {
	order := 0
	for _, w := range words {
		a, b, _, ok := slashParts(w)
		if !ok {
			continue
		}
		o := 0
		switch {
		case a > 12:
			o = 1
		case b > 12:
			o = 2
		}
		if o != 0 && order != 0 && o != order {
			return 0, false
		}
		order = max(order, o)
	}
	return order, true
}

// slashParts splits "3/10" or "3/10/2025" into its numbers (year 0 when none).
func slashParts(w string) (a, b, y int, ok bool) {
	parts := strings.Split(w, "/")
	if len(parts) < 2 {
		return 0, 0, 0, false
	}
	fmt.Sscanf(parts[0], "%d", &a)
	fmt.Sscanf(parts[1], "%d", &b)
	if len(parts) == 3 {
		fmt.Sscanf(parts[2], "%d", &y)
		if y < 100 {
			y += 2000
		}
	}
	return a, b, y, a > 0 && b > 0
}

// dayAt reads a day starting at position i: the day (zero when none), the end
// of its words, and whether it is a slash day readable both ways.
func dayAt(words []string, i int, today time.Time, order int) (time.Time, int, bool) {
	w := words[i]
	if len(w) == 10 && w[4] == '-' {
		d, err := time.Parse("2006-01-02", w)
		if err != nil {
			return time.Time{}, 0, false
		}
		return d, i + 1, false
	}
	if a, b, y, ok := slashParts(w); ok {
		day, month := a, b
		if order == 2 {
			day, month = b, a
		}
		d, ok := makeDay(y, time.Month(month), day, today)
		if !ok {
			return time.Time{}, 0, false
		}
		return d, i + 1, order == 0 && a != b && a <= 12 && b <= 12
	}
	if n := dayNumber(w); n > 0 {
		return dayMonth(words, i, n, today)
	}
	if m, ok := months[w]; ok && w != "may" || w == "may" && i > 0 && datePrepositions[words[i-1]] {
		return monthDay(words, i, m, today)
	}
	return time.Time{}, 0, false
}

// dayMonth reads "1 Oct", "1st of October 2025" from the day number n at i.
func dayMonth(words []string, i, n int, today time.Time) (time.Time, int, bool) {
	k := i + 1
	if k < len(words) && ordinalSuffixes[words[k]] {
		k++
	}
	if k < len(words) && words[k] == "of" {
		k++
	}
	if k >= len(words) {
		return time.Time{}, 0, false
	}
	m, ok := months[words[k]]
	if !ok {
		return time.Time{}, 0, false
	}
	y, end := yearAfter(words, k+1)
	d, ok := makeDay(y, m, n, today)
	if !ok {
		return time.Time{}, 0, false
	}
	return d, end, false
}

// monthDay reads "October 5th", "Oct 5, 2025", "September 15" at the month at
// i: the number must be marked as a day (a suffix, a year, the end of the
// question or of a range) so that "October 5 stars" stays a month and a number.
func monthDay(words []string, i int, m time.Month, today time.Time) (time.Time, int, bool) {
	k := i + 1
	if k < len(words) && words[k] == "the" {
		k++
	}
	if k >= len(words) {
		return time.Time{}, 0, false
	}
	n := dayNumber(words[k])
	if n == 0 {
		return time.Time{}, 0, false
	}
	k++
	marked := k >= len(words) || words[k] == "?" || rangeJoins[words[k]]
	if k < len(words) && ordinalSuffixes[words[k]] {
		k, marked = k+1, true
	}
	if k < len(words) && words[k] == "," {
		k++
	}
	y, end := yearAfter(words, k)
	if !marked && y == 0 {
		return time.Time{}, 0, false
	}
	d, ok := makeDay(y, m, n, today)
	if !ok {
		return time.Time{}, 0, false
	}
	return d, end, false
}

// dayNumber returns the day of the month a word names (1 to 31), or 0.
func dayNumber(w string) int {
	var n int
	if _, err := fmt.Sscanf(w, "%d", &n); err != nil || fmt.Sprint(n) != w || n < 1 || n > 31 {
		return 0
	}
	return n
}

// yearAfter returns the year at position k and the end of the words read, or 0
// and k.
func yearAfter(words []string, k int) (int, int) {
	if k < len(words) {
		if y := yearOf(words[k]); y > 0 {
			return y, k + 1
		}
	}
	return 0, k
}

// makeDay builds a day; with no year (y 0), its latest occurrence up to today.
// False when the day does not exist (31 June).
func makeDay(y int, m time.Month, day int, today time.Time) (time.Time, bool) {
	year := y
	if year == 0 {
		year = today.Year()
	}
	d := time.Date(year, m, day, 0, 0, 0, 0, time.UTC)
	if d.Month() != m || m < 1 || m > 12 {
		return time.Time{}, false
	}
	if y == 0 && d.After(today) {
		d = d.AddDate(-1, 0, 0)
	}
	return d, true
}

// openRange applies the preposition before position i to the period [first,
// last]: since/after (and from, before a single day) open the end, before/until
// open the start.
func openRange(words []string, i int, first, last time.Time, name string) (*dateRange, int, int) {
	prev := ""
	if i > 0 {
		prev = words[i-1]
	}
	start := i
	if datePrepositions[prev] || prev == "on" {
		start = i - 1
	}
	if prev == "from" && !first.Equal(last) {
		return &dateRange{from: first, to: last, label: "in " + name, onwards: true}, start, i + 1
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

// findRelativeDays reads today, yesterday, "since Monday" and "last/past N
// days|weeks|months".
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
		if d, ok := weekdays[w]; ok && i > 0 && (words[i-1] == "since" || words[i-1] == "from") {
			from := today.AddDate(0, 0, -((int(today.Weekday()) - int(d) + 7) % 7))
			return &dateRange{from: from, label: "since " + strings.ToUpper(w[:1]) + w[1:]}, i - 1, i + 1
		}
		if (w == "last" || w == "past") && i+2 < len(words) && isCount(words[i+1]) {
			if r := rolling(today, words[i+1], words[i+2]); r != nil {
				return r, i, i + 3
			}
		}
	}
	return nil, 0, 0
}

// weekdays name the days of the week: "since Monday" starts on the latest one.
var weekdays = map[string]time.Weekday{"monday": time.Monday, "tuesday": time.Tuesday, "wednesday": time.Wednesday,
	"thursday": time.Thursday, "friday": time.Friday, "saturday": time.Saturday, "sunday": time.Sunday}

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
		if i > 0 && months[words[i-1]] != 0 && (words[i+1] == "year") {
			continue // "september this year": the month's, read by findMonths
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
	case "previous2 month":
		return &dateRange{from: first.AddDate(0, -2, 0), to: first.AddDate(0, -1, -1), label: "the month before last"}
	case "past month":
		return &dateRange{from: today.AddDate(0, 0, -29), to: today, label: "in the past month (30 days)"}
	case "this year":
		return &dateRange{from: jan1, to: today, label: label}
	case "last year", "previous year":
		return &dateRange{from: jan1.AddDate(-1, 0, 0), to: jan1.AddDate(0, 0, -1), label: label}
	}
	if futureWords[which] && (periodWords[unit] || unit == "year" || unit == "quarter") {
		return &dateRange{from: today.AddDate(0, 0, 1), label: label,
			unsure: fmt.Sprintf("“%s” has not begun, and I only have the responses up to today; I don't forecast", label)}
	}
	return nil
}

// futureWords name a period after today.
var futureWords = text.Set("next coming upcoming following")

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
		if end+1 < len(words) && words[end] == "and" && months[words[end+1]] != 0 {
			second, stop := monthAt(words, end+1, months[words[end+1]], today)
			if second.After(first) { // "over july and august": both months
				start := i
				if i > 0 && datePrepositions[words[i-1]] || i > 0 && words[i-1] == "over" {
					start = i - 1
				}
				return &dateRange{from: first, to: second.AddDate(0, 1, -1),
					label: "in " + first.Format("January") + " and " + second.Format("January 2006")}, start, stop
			}
		}
		r, start, stop := openRange(words, i, first, first.AddDate(0, 1, -1), first.Format("January 2006"))
		return r, start, max(stop, end)
	}
	return nil, 0, 0
}

// quarters name the quarters of a year by their first month.
var quarters = map[string]time.Month{"q1": time.January, "q2": time.April, "q3": time.July, "q4": time.October}

// findQuarters reads "Q3", "in q2 2025", "since Q1": three months, in the year
// named after it, else the latest such quarter begun by today.
func findQuarters(words []string, used []bool, today time.Time) (*dateRange, int, int) {
	for i, w := range words {
		m, ok := quarters[w]
		if !ok || used[i] {
			continue
		}
		first, end := monthAt(words, i, m, today)
		r, start, stop := openRange(words, i, first, first.AddDate(0, 3, -1), strings.ToUpper(w)+" "+first.Format("2006"))
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
	if i+2 < len(words) && words[i+2] == "year" && (words[i+1] == "this" || words[i+1] == "last") {
		y := today.Year() // "september this year", "march last year"
		if words[i+1] == "last" {
			y--
		}
		return time.Date(y, m, 1, 0, 0, 0, 0, time.UTC), i + 3
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

// shift moves a period by one unit: "the week before that" is dir -1, unit "week".
type shift struct {
	dir  int
	unit string
}

// shiftUnits are the periods a follow-up moves by.
var shiftUnits = text.Set("day week month year")

// periodShift reads "the week before (that)", "the month after", "a week
// earlier" and marks their words used; nil when the message has none.
func (p *parser) periodShift() *shift {
	for i := 1; i+1 < len(p.words); i++ {
		unit, way := p.words[i], p.words[i+1]
		dir := map[string]int{"before": -1, "earlier": -1, "prior": -1, "after": 1, "later": 1}[way]
		if !shiftUnits[unit] || dir == 0 || !(p.words[i-1] == "the" || p.words[i-1] == "a" || p.words[i-1] == "one") {
			continue
		}
		end := i + 2
		if end < len(p.words) && (p.words[end] == "that" || p.words[end] == "this" || p.words[end] == "it") {
			end++
		}
		for k := i - 1; k < end; k++ {
			p.used[k] = true
		}
		return &shift{dir: dir, unit: unit}
	}
	return nil
}

// shifted returns r moved by one s.unit in s.dir, when r is one whole such unit
// (a calendar week may be this week, up to today), with "" or why it can't be.
func (r *dateRange) shifted(s shift, today time.Time) (*dateRange, string) {
	if r.from.IsZero() || r.to.IsZero() {
		return nil, fmt.Sprintf("%s is open-ended, so I can't tell which %s is %s it", r.label, s.unit, shiftWord(s))
	}
	var from, to time.Time
	switch {
	case s.unit == "day" && r.from.Equal(r.to):
		from = r.from.AddDate(0, 0, s.dir)
		to = from
	case s.unit == "week" && r.from.Weekday() == time.Monday && r.to.Sub(r.from) <= 6*24*time.Hour:
		from = r.from.AddDate(0, 0, 7*s.dir)
		to = from.AddDate(0, 0, 6)
	case s.unit == "month" && r.from.Day() == 1 && r.to.Before(r.from.AddDate(0, 1, 0)):
		from = r.from.AddDate(0, s.dir, 0)
		to = from.AddDate(0, 1, -1)
	case s.unit == "year" && r.from.YearDay() == 1 && r.to.Before(r.from.AddDate(1, 0, 0)):
		from = r.from.AddDate(s.dir, 0, 0)
		to = from.AddDate(1, 0, -1)
	default:
		return nil, fmt.Sprintf("%s is not one calendar %s, so I can't tell which %s is %s it", r.describe(), s.unit, s.unit, shiftWord(s))
	}
	if from.After(today) {
		return nil, fmt.Sprintf("the %s %s %s has not begun, and I only have the responses up to today; I don't forecast", s.unit, shiftWord(s), r.label)
	}
	if to.After(today) {
		to = today
	}
	return &dateRange{from: from, to: to, label: shiftedLabel(s.unit, from), pos: r.pos}, ""
}

// shiftedLabel names a period a shift gives.
func shiftedLabel(unit string, from time.Time) string {
	switch unit {
	case "day":
		return "on " + dayText(from)
	case "month":
		return "in " + from.Format("January 2006")
	case "year":
		return "in " + from.Format("2006")
	}
	return "in the " + unit
}

// shiftWord says which way a shift goes.
func shiftWord(s shift) string {
	if s.dir < 0 {
		return "before"
	}
	return "after"
}
