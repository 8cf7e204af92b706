package generate

import (
	"regexp"
	"strings"

	"forma/internal/ai/text"
	"forma/internal/form"
)

var alternativesRe = regexp.MustCompile(`(?i)^(do|does|are|is|will|would|can|could|should|have)\s+(you|we)\b.*?\b(\w+) or (\w+)` +
	`(\s+(your|the|a|an|their|my|our|his|her|this|that|it)(\s+\w+)?)?\s*\??$`)

// determinersOfAlternatives before "X or Y" make it one thing asked about ("any
// allergies or intolerances").
var determinersOfAlternatives = text.Set("any a an the some")

// alternatives reads the choices of a question that offers two ("do you own or
// rent your home?"), which is not a yes/no question. "Any allergies or intolerances" and "or
// not" stay yes/no.
func alternatives(s string) []string {
	s = strings.TrimSpace(s)
	if opts := shortAlternatives(s); opts != nil {
		return opts
	}
	m := alternativesRe.FindStringSubmatch(s)
	if m == nil || strings.EqualFold(m[4], "not") {
		return nil
	}
	before := words(s[:strings.LastIndex(strings.ToLower(s), strings.ToLower(m[3]+" or"))])
	if len(before) > 0 && determinersOfAlternatives[before[len(before)-1]] {
		return nil
	}
	return []string{text.Capitalize(m[3]), text.Capitalize(m[4])}
}

var shortAlternativesRe = regexp.MustCompile(`(?i)^([\p{L}'-]+(?: [\p{L}'-]+){0,2}) or ([\p{L}'-]+(?: [\p{L}'-]+){0,2})\s*\?$`)

// shortAlternatives reads the two choices of a short question that is nothing but
// them ("video or in person?", "beginner or experienced?"); "any allergies or
// intolerances?" asks whether there are any, and names no choice.
func shortAlternatives(s string) []string {
	m := shortAlternativesRe.FindStringSubmatch(s)
	if m == nil || strings.EqualFold(m[2], "not") {
		return nil
	}
	if ws := words(m[1]); len(ws) == 0 || determinersOfAlternatives[ws[0]] || noAndSplit[ws[0]] {
		return nil
	}
	return []string{text.Capitalize(m[1]), text.Capitalize(m[2])}
}

var introRe = regexp.MustCompile(`(?i)^\s*(such as|including|like|one of|either|options:?|choices:?|choose from)\s+`)

// stripIntroducer removes "such as" and the like from the start of a choice list.
func stripIntroducer(s string) string { return introRe.ReplaceAllString(s, "") }

var (
	orRe       = regexp.MustCompile(`(?i)\s+or\s+`)
	lastAndRe  = regexp.MustCompile(`(?i)\s+and\s+`)
	openEndRe  = regexp.MustCompile(`(?i)[,\s]*\b(etc|and so on|and more|and others|or others?|or something else)\s*$`)
	optTrimSet = " \"'.!?:;-"
	optPrefix  = regexp.MustCompile(`(?i)^(or|and|either)\s+`)
)

// splitOptions splits a list of choices at commas, at "or", and at the "and" before
// the last choice. An open end ("etc") adds "Other". Choices are kept as written,
// trimmed; duplicates are dropped.
func splitOptions(s string) []string {
	s = strings.TrimSpace(s)
	other := openEndRe.MatchString(s)
	s = protectAnd(openEndRe.ReplaceAllString(s, ""))
	parts := splitTop(s, ",;")
	if len(parts) == 1 && !orRe.MatchString(s) && !lastAndRe.MatchString(s) {
		if days := weekdayRange(s); days != nil {
			return days
		}
		parts = splitSlash(s)
	}
	var out []string
	seen := map[string]bool{}
	for _, o := range optionPieces(parts) {
		o = cleanOption(o)
		if o != "" && !seen[strings.ToLower(o)] && len(out) < maxOptions {
			seen[strings.ToLower(o)] = true
			out = append(out, o)
		}
	}
	if other && !seen["other"] && len(out) > 0 {
		out = append(out, "Other")
	}
	return out
}

// cleanOption trims a choice: spaces, quotes and stray punctuation, and a leading
// "or", "and" or "either".
func cleanOption(o string) string {
	o = strings.Trim(optPrefix.ReplaceAllString(strings.Trim(o, optTrimSet), ""), optTrimSet)
	return truncate(restoreAnd(o), form.MaxOptionLen)
}

// optionPieces splits comma-separated parts at "or", and the last part also at
// "and" ("a, b and c").
func optionPieces(parts []string) []string {
	var pieces []string
	for i, p := range parts {
		for _, q := range orRe.Split(p, -1) {
			if i == len(parts)-1 {
				pieces = append(pieces, lastAndRe.Split(q, -1)...)
			} else {
				pieces = append(pieces, q)
			}
		}
	}
	return pieces
}

var (
	weekdays       = []string{"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"}
	weekdayRangeRe = regexp.MustCompile(`(?i)^(mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?\s*` +
		`(-|to|through|until|till)\s*(mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?$`)
)

// weekdayRange expands "Monday to Friday" into the days it spans; nil when s is not
// a range of weekdays.
func weekdayRange(s string) []string {
	m := weekdayRangeRe.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return nil
	}
	from, to := weekdayIndex(m[1]), weekdayIndex(m[3])
	if from >= to {
		return nil
	}
	return append([]string(nil), weekdays[from:to+1]...)
}

// weekdayIndex returns the index in weekdays of the day a prefix names.
func weekdayIndex(prefix string) int {
	for i, d := range weekdays {
		if strings.EqualFold(d[:3], prefix) {
			return i
		}
	}
	return -1
}

// maxOptions bounds the choices taken from a prompt.
const maxOptions = 50

// splitSlash splits "S/M/L" and "yes/no", but not "24/7" or "n/a".
func splitSlash(s string) []string {
	parts := strings.Split(s, "/")
	for _, p := range parts {
		p = strings.TrimSpace(p)
		if len(p) < 1 || strings.Trim(p, "0123456789") == "" || (len(parts) == 2 && len(p) < 2) {
			return []string{s}
		}
	}
	return parts
}
