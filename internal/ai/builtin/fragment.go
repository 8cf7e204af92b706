package builtin

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"forma/internal/form"
)

// fragment is one field of the prompt taken apart: the words left for its question
// text, and what the prompt says about its answers.
type fragment struct {
	text     string
	options  []string          // choices the prompt gives, as written
	scale    *scale            // a numeric range ("1-5", "0 to 10")
	hint     form.QuestionType // a type the prompt names ("dropdown", "upload")
	multi    bool              // the prompt asks for several choices
	required *bool             // the prompt says required or optional
	currency string            // the currency the field names, "" if none
}

// analyse takes one item of the prompt apart.
func analyse(raw string) fragment {
	f := fragment{text: raw}
	f.currency, f.text = takeCurrency(f.text)
	f.takeParens()
	f.takeRequirement()
	f.takeHints()
	if f.options == nil {
		f.takeIntroducedOptions()
	}
	if f.options == nil {
		f.options = alternatives(f.text)
	}
	if f.scale == nil {
		if sc, loc, ok := findScale(f.text); ok {
			f.scale = &sc
			f.text = f.text[:loc[0]] + f.text[loc[1]:]
		}
	}
	f.text = strings.Join(strings.Fields(f.text), " ")
	return f
}

var parensRe = regexp.MustCompile(`\(([^()]*)\)`)

// takeParens reads each parenthesised group: choices, a scale, "optional" or
// "select all that apply". Other groups stay in the text.
func (f *fragment) takeParens() {
	f.text = parensRe.ReplaceAllStringFunc(f.text, func(g string) string {
		inner := strings.TrimSpace(g[1 : len(g)-1])
		if req, ok := requirement(inner); ok {
			f.required = &req
			return ""
		}
		if multiHintRe.MatchString(inner) {
			f.multi = true
			return ""
		}
		if sc, loc, ok := findScale(inner); ok && !hasContent(inner[:loc[0]]+inner[loc[1]:]) {
			f.scale = &sc
			return ""
		}
		if opts := splitOptions(stripIntroducer(inner)); len(opts) >= 2 && f.options == nil {
			f.options = opts
			return ""
		}
		return g
	})
}

var (
	requiredRe    = regexp.MustCompile(`(?i)^(required|mandatory|must|compulsory)$`)
	optionalRe    = regexp.MustCompile(`(?i)^(optional|not required|if any|if applicable|optionally)$`)
	requirementRe = regexp.MustCompile(`(?i)(^\s*(optional|required|mandatory)\b|\b(optional|required|mandatory|if any|if applicable)\s*$)`)
)

// requirement reads "required" or "optional".
func requirement(s string) (required, ok bool) {
	s = strings.TrimSpace(s)
	switch {
	case requiredRe.MatchString(s):
		return true, true
	case optionalRe.MatchString(s):
		return false, true
	}
	return false, false
}

// takeRequirement reads "required" or "optional" at either end of the text.
func (f *fragment) takeRequirement() {
	loc := requirementRe.FindStringIndex(f.text)
	if loc == nil {
		return
	}
	if req, ok := requirement(f.text[loc[0]:loc[1]]); ok {
		f.required = &req
		f.text = f.text[:loc[0]] + f.text[loc[1]:]
	}
}

// hints are the words with which a prompt names a question type. They are taken out
// of the question text, except an "upload" that starts it ("upload your photo").
var hints = []struct {
	re  *regexp.Regexp
	typ form.QuestionType
}{
	{multiHintRe, form.MultiSelect},
	{hintRe(`drop[- ]?down|select box|radio( buttons?)?|single choice|multiple choice|single select|pick one|choose one`), form.Select},
	{hintRe(`(range )?slider`), form.Slider},
	{hintRe(`star rating`), form.Rating},
	{hintRe(`yes/no|yes or no|y/n|toggle`), form.YesNo},
	{hintRe(`text ?box|text area|textarea|long answer|paragraph|free text|open text|long text|open-?ended`), form.Textarea},
	{hintRe(`short answer|short text|text field|single line`), form.Text},
	{hintRe(`date ?picker`), form.Date},
	{hintRe(`time ?picker`), form.Time},
	{hintRe(`numeric|number field|as a number`), form.Number},
	{hintRe(`file upload|upload|attachment`), form.FileUpload},
}

var multiHintRe = hintRe(`check ?boxe?s?|multi-?select|multiple select|(select|check|pick|choose|tick) all( that (apply|work|applies))?|` +
	`all that apply|multiple answers|select multiple|one or more`)

// hintRe matches the naming words alts with the "as a"/"with a" that may lead them.
func hintRe(alts string) *regexp.Regexp {
	return regexp.MustCompile(`(?i)(\b(as|with|in|using)\s+)?(\ban?\s+)?\b(` + alts + `)\b`)
}

// takeHints records the first type the text names and removes the naming words.
func (f *fragment) takeHints() {
	for _, h := range hints {
		loc := h.re.FindStringIndex(f.text)
		if loc == nil {
			continue
		}
		if h.typ == form.MultiSelect {
			f.multi = true
		} else if f.hint == "" {
			f.hint = h.typ
		}
		if h.typ == form.FileUpload && !hasContent(f.text[:loc[0]]) {
			continue
		}
		f.text = f.text[:loc[0]] + " " + f.text[loc[1]:]
	}
}

// takeIntroducedOptions reads choices that follow "such as", "between", a colon and
// the like.
func (f *fragment) takeIntroducedOptions() {
	if !opensOptions(f.text) {
		return
	}
	loc := introducerRe.FindStringIndex(f.text)
	if opts := splitOptions(f.text[loc[1]:]); len(opts) >= 2 {
		f.options = opts
		f.text = f.text[:loc[0]]
	}
}

var alternativesRe = regexp.MustCompile(`(?i)^(do|does|are|is|will|would|can|could|should|have)\s+(you|we)\b.*?\b(\w+) or (\w+)\s*\??$`)

// determinersOfAlternatives before "X or Y" make it one thing asked about ("any
// allergies or intolerances").
var determinersOfAlternatives = set("any a an the some")

// alternatives reads the choices of a question that offers two ("do you own or
// rent?"), which is not a yes/no question. "Any allergies or intolerances" and "or
// not" stay yes/no.
func alternatives(s string) []string {
	m := alternativesRe.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil || strings.EqualFold(m[4], "not") {
		return nil
	}
	before := words(s[:strings.LastIndex(strings.ToLower(s), strings.ToLower(m[3]+" or"))])
	if len(before) > 0 && determinersOfAlternatives[before[len(before)-1]] {
		return nil
	}
	return []string{capitalize(m[3]), capitalize(m[4])}
}

var introRe = regexp.MustCompile(`(?i)^\s*(such as|including|like|one of|either|options:?|choices:?|choose from)\s+`)

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
	s = strings.ReplaceAll(strings.TrimSpace(s), " \x00 ", " and ")
	other := openEndRe.MatchString(s)
	s = openEndRe.ReplaceAllString(s, "")
	s = protectedAnd.ReplaceAllStringFunc(s, func(m string) string { return strings.ReplaceAll(m, " and ", " \x00 ") })
	parts := splitTop(s, ",;")
	if len(parts) == 1 && !orRe.MatchString(s) && !lastAndRe.MatchString(s) {
		if days := weekdayRange(s); days != nil {
			return days
		}
		parts = splitSlash(s)
	}
	var out []string
	seen := map[string]bool{}
	for i, p := range parts {
		var pieces []string
		for _, q := range orRe.Split(p, -1) {
			if i == len(parts)-1 {
				pieces = append(pieces, lastAndRe.Split(q, -1)...)
			} else {
				pieces = append(pieces, q)
			}
		}
		for _, o := range pieces {
			o = strings.Trim(optPrefix.ReplaceAllString(strings.Trim(o, optTrimSet), ""), optTrimSet)
			o = truncate(strings.ReplaceAll(o, " \x00 ", " and "), form.MaxOptionLen)
			if o != "" && !seen[strings.ToLower(o)] && len(out) < maxOptions {
				seen[strings.ToLower(o)] = true
				out = append(out, o)
			}
		}
	}
	if other && !seen["other"] && len(out) > 0 {
		out = append(out, "Other")
	}
	return out
}

var (
	weekdays       = []string{"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"}
	weekdayRangeRe = regexp.MustCompile(`(?i)^(mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?\s*(-|to|through|until|till)\s*(mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?$`)
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

// scale is a numeric range the prompt gives for an answer.
type scale struct{ lo, hi int }

// String writes the scale as the prompt would ("1-5").
func (s scale) String() string { return fmt.Sprintf("%d-%d", s.lo, s.hi) }

// isRating reports whether the scale is the 1 to 5 of a star rating.
func (s scale) isRating() bool { return s.lo == 1 && s.hi == 5 }

var scaleRes = []*regexp.Regexp{
	regexp.MustCompile(`(?i)\b((on )?a scale (of|from) |scale (of|from) |from |rated? |score )?(\d{1,3}) ?(-|to) ?(\d{1,3})\b( ?(stars?|points?|scale))?`),
	regexp.MustCompile(`(?i)\b(on a scale )?between (\d{1,3}) and (\d{1,3})\b`),
	regexp.MustCompile(`(?i)\b(rated? |score )?out of (\d{1,3})\b( ?stars?)?`),
	regexp.MustCompile(`(?i)\b(\d{1,2})[- ]?(stars?|point scale)\b`),
}

// findScale finds a numeric range in s and returns it with its location.
func findScale(s string) (scale, []int, bool) {
	for i, re := range scaleRes {
		m := re.FindStringSubmatchIndex(s)
		if m == nil {
			continue
		}
		num := func(g int) int { n, _ := strconv.Atoi(s[m[2*g]:m[2*g+1]]); return n }
		var sc scale
		switch i {
		case 0:
			sc = scale{num(5), num(7)}
		case 1:
			sc = scale{num(2), num(3)}
		case 2:
			sc = scale{1, num(2)}
		case 3:
			sc = scale{1, num(1)}
		}
		if sc.lo < sc.hi && sc.hi <= 1000 {
			return sc, m[:2], true
		}
	}
	return scale{}, nil, false
}
