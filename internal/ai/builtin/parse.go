package builtin

import (
	"regexp"
	"strings"
	"unicode"
)

// parsed is a prompt taken apart: what it says about the form as a whole, and the
// fields it lists, in order.
type parsed struct {
	headers   []string // sentences or parts that describe the form itself
	items     []item   // the fields the prompt lists
	multiStep bool     // the prompt asks for one question at a time
	only      bool     // the prompt says "only" or "just": no template enrichment
}

// item is the raw text of one field of the prompt.
type item struct {
	text     string
	origin   origin
	sentence int // index of the sentence (or bullet line) it came from
}

// origin says how an item was written.
type origin int

const (
	prose  origin = iota // alone in a sentence
	listed               // in a list: after "asking for" or among commas
	bullet               // on a bullet or numbered line
)

var (
	normalizer = strings.NewReplacer("\r\n", "\n", "\r", "\n", "\t", " ", "“", "\"", "”", "\"", "‘", "'",
		"’", "'", "–", "-", "—", ", ", "…", "...", "&", " and ")
	exampleRe    = regexp.MustCompile(`(?i)(\be\.g\.?|\beg\.|\bi\.e\.?|\bfor example\b|\bfor instance\b),?`)
	etcRe        = regexp.MustCompile(`(?i)\betc\b\.?`)
	titleAbbrRe  = regexp.MustCompile(`(?i)\b(mr|mrs|ms|dr|st|vs)\.`)
	slashListRe  = regexp.MustCompile(`\s+/\s+`)
	dashListRe   = regexp.MustCompile(`([^\d\s]) +- +([^-()\n]*,[^-()\n]*?) +- +`)
	spacedDashRe = regexp.MustCompile(`([^\d\s]) +- +([^\d\s])`)
	multiStepRe  = regexp.MustCompile(`(?i)\b(multi[- ]?step|multi[- ]?page|step[- ]by[- ]step|one question (at a time|per (page|step|screen))|one (at a time|per page)|wizard([- ]style)?|paginated)\b`)
	onlyRe       = regexp.MustCompile(`(?i)\b(only|just)\b`)
	bulletRe     = regexp.MustCompile(`^\s*([-*•·+]|\d{1,3}[.)])\s+`)
)

// normalize rewrites typographic variants and abbreviations into one plain form:
// "e.g." becomes "such as", "etc." loses its full stop, a spaced slash separates
// like a comma, a list between spaced dashes becomes a parenthesis, and a single
// spaced dash introduces like a colon.
func normalize(s string) string {
	s = normalizer.Replace(s)
	s = exampleRe.ReplaceAllString(s, " such as ")
	s = etcRe.ReplaceAllString(s, " etc")
	s = titleAbbrRe.ReplaceAllString(s, "$1")
	s = slashListRe.ReplaceAllString(s, ", ")
	s = dashListRe.ReplaceAllString(s, "$1 ($2) ")
	return spacedDashRe.ReplaceAllString(s, "$1: $2")
}

// parsePrompt splits a prompt into its header sentences and field items.
func parsePrompt(prompt string) parsed {
	text := normalize(prompt)
	p := parsed{multiStep: multiStepRe.MatchString(text), only: onlyRe.MatchString(text)}
	text = multiStepRe.ReplaceAllString(text, " ")
	sentence := 0
	for _, line := range strings.Split(text, "\n") {
		if loc := bulletRe.FindStringIndex(line); loc != nil {
			p.addParts(splitItems(line[loc[1]:]), bullet, sentence)
			sentence++
			continue
		}
		for _, s := range splitSentences(line) {
			p.addSentence(s, sentence)
			sentence++
		}
	}
	p.items = rateGroups(optionSentences(attachQualifiers(p.items)))
	return p
}

// addSentence files a sentence as header, list, or both.
func (p *parsed) addSentence(s string, sentence int) {
	header, list, ok := splitAtMarker(s)
	if ok {
		if hasContent(header) {
			p.headers = append(p.headers, header)
		}
		p.addParts(splitItems(list), listed, sentence)
		return
	}
	parts := splitItems(s)
	ws := words(s)
	switch k := lastHeaderPart(parts); {
	case k >= 0:
		p.headers = append(p.headers, strings.Join(parts[:k+1], " "))
		p.addParts(parts[k+1:], listed, sentence)
	case len(parts) == 1 && !strings.ContainsAny(s, "?()") && findIntent(ws) != nil:
		p.headers = append(p.headers, s)
	case len(parts) == 1:
		p.addParts(parts, prose, sentence)
	default:
		p.addParts(parts, listed, sentence)
	}
}

// lastHeaderPart returns the index of the part that names the form ("I run a
// bakery and want an order form"), or -1. Parts before it belong to the header too.
func lastHeaderPart(parts []string) int {
	for i, part := range parts {
		if hasFormNoun(words(part)) {
			return i
		}
	}
	return -1
}

func (p *parsed) addParts(parts []string, o origin, sentence int) {
	for _, t := range parts {
		if t = strings.Trim(t, " ,;:-"); t != "" {
			p.items = append(p.items, item{text: t, origin: o, sentence: sentence})
		}
	}
}

// splitSentences splits a line at full stops, exclamation and question marks that
// end a sentence: outside parentheses and followed by a capital, a digit or the end.
// The choices of a question may follow its question mark: "Which? (a, b) Next?".
func splitSentences(line string) []string {
	var out []string
	rs := []rune(line)
	depth, start := 0, 0
	afterQuestion := false
	for i, r := range rs {
		switch r {
		case '(', '[':
			if depth == 0 {
				afterQuestion = strings.HasSuffix(strings.TrimSpace(string(rs[start:i])), "?")
			}
			depth++
		case ')', ']':
			depth = max(depth-1, 0)
			if depth == 0 && afterQuestion && endsSentence(rs, i) {
				out = append(out, string(rs[start:i+1]))
				start = i + 1
			}
		case '.', '!', '?':
			if depth == 0 && endsSentence(rs, i) {
				end := i
				if r == '?' {
					end++
				}
				out = append(out, string(rs[start:end]))
				start = i + 1
			}
		}
	}
	out = append(out, string(rs[start:]))
	var kept []string
	for _, s := range out {
		if s = strings.TrimSpace(s); s != "" {
			kept = append(kept, s)
		}
	}
	return kept
}

func endsSentence(rs []rune, i int) bool {
	j := i + 1
	if j == len(rs) {
		return true
	}
	if !unicode.IsSpace(rs[j]) {
		return false
	}
	for j < len(rs) && unicode.IsSpace(rs[j]) {
		j++
	}
	return j == len(rs) || unicode.IsUpper(rs[j]) || unicode.IsDigit(rs[j]) || rs[j] == '"'
}

// markers introduce the list of fields in a sentence ("a form asking for ...").
// Longer markers come first so that the longest one at a position wins.
var markerRe = regexp.MustCompile(`(?i)\b((we'?d|we would|i'?d|i would|would) like to (know|ask( for| about)?|collect|get|see)|` +
	`asking (them |users |people )?(for|about|to)|asking them|asking|` +
	`where (people|users|candidates|customers|applicants|participants|guests|students|visitors|clients|members|` +
	`attendees|employees|they|you)( can| should| will| must| need to)?|` +
	`(that|which) asks? (for|about)|asks for|ask (them )?(for|about|to)|ask them|ask|` +
	`with (the following (fields|questions)|fields for|questions (about|for|on)|a question about|fields|questions)|` +
	`with|(that )?includes?|including|(that |to )?collects?|collecting|(to )?capture|capturing|(to )?gather|gathering|` +
	`containing|contains|(we|i) (need|want)|needs?|should (have|ask for|ask|include|collect|capture)|` +
	`must (include|have)|give|provide|enter|fill in|specify|(also )?add|fields are|questions are)\b|:`)

// fillerWords may stand before a marker without making the text a field
// ("Customers should give ...").
var fillerWords = set("i we you they them he she please can could would will need needs want like to create " +
	"make build generate design set up a an the me us our my for just some quick simple short basic new " +
	"little small online also it should must have get give let's lets i'd we'd i'm we're help " +
	"customers users people applicants attendees guests participants respondents visitors clients " +
	"students parents patients employees members fields field questions question following form " +
	"include it's this that these those here is are")

// splitAtMarker finds the first marker whose preceding text describes the form (or
// is filler) and returns the text before it and the list after it.
func splitAtMarker(s string) (header, list string, ok bool) {
	for _, loc := range markerRe.FindAllStringIndex(s, -1) {
		before, after := s[:loc[0]], s[loc[1]:]
		if headerLike(before, s[loc[0]:loc[1]] == ":") && !startsHeader(after) && hasContent(after) {
			return before, after, true
		}
	}
	return "", "", false
}

func headerLike(before string, colon bool) bool {
	if len(splitTop(before, ",")) > 2 {
		return false
	}
	ws := words(before)
	if allFiller(ws) || hasFormNoun(ws) || findIntent(ws) != nil {
		return true
	}
	return colon && len(ws) <= 3
}

func startsHeader(after string) bool {
	ws := words(after)
	return hasFormNoun(ws[:min(len(ws), 6)])
}

func allFiller(ws []string) bool {
	for _, w := range ws {
		if !fillerWords[w] {
			return false
		}
	}
	return true
}

// hasContent reports whether s has a word that is neither filler nor noise.
func hasContent(s string) bool {
	for _, w := range words(s) {
		if !fillerWords[w] && !gibberish(w) {
			return true
		}
	}
	return false
}

// formNouns name a form itself ("a feedback form", "the registration").
var formNouns = set("form forms survey questionnaire quiz poll application registration signup sign-up " +
	"booking reservation report request evaluation checklist sheet rsvp inquiry enquiry intake proposal")

func hasFormNoun(ws []string) bool {
	for _, w := range ws {
		if formNouns[w] {
			return true
		}
	}
	return false
}

// protectedAnd are phrases whose "and" does not separate two fields or choices.
var protectedAnd = regexp.MustCompile(`(?i)\b(terms and conditions|make and model|rock and roll|black and white|` +
	`bed and breakfast|salt and pepper|fish and chips|mac and cheese|q and a|r and d|health and safety|` +
	`food and drinks?|arts and crafts|pros and cons|\d+ and \d+)\b`)

// splitItems splits a list into fields: at semicolons when it has any, otherwise at
// commas and at "and"/"plus"; never inside parentheses. Choices that follow
// "such as" or a colon are put back together with their field.
func splitItems(list string) []string {
	list = protectedAnd.ReplaceAllStringFunc(list, func(m string) string { return strings.ReplaceAll(m, " and ", " \x00 ") })
	var parts []string
	if strings.Contains(list, ";") {
		parts = splitTop(list, ";")
	} else {
		for _, p := range splitTop(list, ",") {
			parts = append(parts, splitAnd(p)...)
		}
	}
	parts = absorbOptions(parts)
	for i := range parts {
		parts[i] = strings.TrimSpace(strings.ReplaceAll(parts[i], " \x00 ", " and "))
	}
	return parts
}

// splitTop splits s at any of seps outside parentheses.
func splitTop(s, seps string) []string {
	var out []string
	depth, start := 0, 0
	for i, r := range s {
		switch {
		case r == '(' || r == '[':
			depth++
		case r == ')' || r == ']':
			depth = max(depth-1, 0)
		case depth == 0 && strings.ContainsRune(seps, r):
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

var andRe = regexp.MustCompile(`(?i)\s+(and|plus|as well as|along with)\s+`)

// noAndSplit start fields whose "and" belongs to one question ("how satisfied are
// you with food and service").
var noAndSplit = set("how what which why when where who whose do does did are is was were will would can " +
	"could should have has had whether if describe explain")

// splitAnd splits a comma-separated part at "and", outside parentheses, unless the
// part is a question. A lone attribute after "and" takes the modifier of the one
// before it: "emergency contact name and phone" asks for the emergency contact's
// phone.
func splitAnd(part string) []string {
	ws := words(part)
	if len(ws) == 0 || noAndSplit[ws[0]] {
		return []string{part}
	}
	var pieces []string
	start := 0
	for _, loc := range andRe.FindAllStringIndex(part, -1) {
		if strings.Count(part[:loc[0]], "(") == strings.Count(part[:loc[0]], ")") {
			pieces = append(pieces, part[start:loc[0]])
			start = loc[1]
		}
	}
	pieces = append(pieces, part[start:])
	for i := 1; i < len(pieces); i++ {
		pieces[i] = inheritModifier(pieces[i-1], pieces[i])
	}
	return pieces
}

var (
	attributeNouns = set("name email phone address date time number")
	ownModifiers   = set("full first last middle legal nick user given family your their my his her")
)

func inheritModifier(prev, next string) string {
	pw, nw := words(prev), words(next)
	if len(nw) != 1 || !attributeNouns[nw[0]] || len(pw) < 2 || !attributeNouns[pw[len(pw)-1]] || ownModifiers[pw[len(pw)-2]] {
		return next
	}
	fs := strings.Fields(prev)
	return strings.Join(fs[:len(fs)-1], " ") + " " + strings.TrimSpace(next)
}

// introducerRe finds where a field's choices begin.
var introducerRe = regexp.MustCompile(`(?i)\b(such as|including|between|from|either|one of|choose from|options are|options|choices|among)\b|:|\blike\b`)

// absorbOptions puts back choices that the comma split separated from their field:
// in "flavour such as vanilla, chocolate, their email", "chocolate" belongs to the
// flavour.
func absorbOptions(parts []string) []string {
	var out []string
	for i := 0; i < len(parts); i++ {
		p := parts[i]
		if opensOptions(p) {
			first := words(p[introducerRe.FindStringIndex(p)[1]:])
			for i+1 < len(parts) && optionLike(parts[i+1], first) {
				i++
				p += ", " + parts[i]
			}
		}
		out = append(out, p)
	}
	return out
}

// opensOptions reports whether p ends with an introducer followed by a first choice.
func opensOptions(p string) bool {
	loc := introducerRe.FindStringIndex(p)
	if loc == nil || strings.ContainsAny(p[loc[0]:], "()") {
		return false
	}
	tail := p[loc[1]:]
	if _, _, ok := findScale(tail); ok || !hasContent(tail) || !hasContent(p[:loc[0]]) {
		return false
	}
	return !strings.EqualFold(p[loc[0]:loc[1]], "like") || likeIntroduces(p[:loc[0]])
}

// likeIntroduces tells "flavours like vanilla" from "what they would like".
func likeIntroduces(before string) bool {
	ws := words(before)
	return len(ws) > 0 && !set("would 'd i'd they'd you'd you they we i feel look looks sound")[ws[len(ws)-1]]
}

// optionLike reports whether p reads as one more choice rather than a new field:
// short, not a question, not possessive, and not a field of its own unless the first
// choice was one too (as in "contact method: email, phone").
func optionLike(p string, first []string) bool {
	ws := words(p)
	if len(ws) == 0 || len(ws) > 5 || strings.ContainsAny(p, "()?") || noAndSplit[ws[0]] {
		return false
	}
	if set("their your his her the our my")[ws[0]] || anyWord(ws, pronouns) {
		return false
	}
	if _, ok := matchConcept(ws); ok {
		_, firstIsField := matchConcept(first)
		return firstIsField
	}
	return true
}

// pronouns rarely appear in a choice; an item with one is a field of its own.
var pronouns = set("you you'd you're your they their we our i my")

func anyWord(ws []string, in map[string]bool) bool {
	for _, w := range ws {
		if in[w] {
			return true
		}
	}
	return false
}

// attachQualifiers moves items that only qualify the field before them ("1 to 5",
// "optional", "select all that apply") into that field, in parentheses.
func attachQualifiers(items []item) []item {
	var out []item
	for _, it := range items {
		if len(out) > 0 && qualifierOnly(it.text) {
			out[len(out)-1].text += " (" + it.text + ")"
			continue
		}
		out = append(out, it)
	}
	return out
}

func qualifierOnly(t string) bool {
	f := analyse("x (" + t + ")")
	return strings.TrimSpace(f.text) == "x" && (f.scale != nil || f.multi || f.required != nil)
}

// optionSentences turns a sentence of bare choices that follows a question into that
// question's choices: "How would you like to pay? Card, PayPal or transfer".
func optionSentences(items []item) []item {
	var out []item
	for i := 0; i < len(items); i++ {
		it := items[i]
		if next := sentenceAfter(items, i); strings.HasSuffix(it.text, "?") && it.origin != bullet && len(next) > 0 {
			if opts, multi, ok := choicesOnly(next); ok {
				it.text += " (" + strings.Join(opts, ", ") + ")"
				if multi {
					it.text += " (select all that apply)"
				}
				i += len(next)
			}
		}
		out = append(out, it)
	}
	return out
}

// sentenceAfter returns the items of the sentence that follows item i, when item i
// ends its own sentence.
func sentenceAfter(items []item, i int) []item {
	j := i + 1
	if j >= len(items) || items[j].sentence == items[i].sentence {
		return nil
	}
	k := j
	for k < len(items) && items[k].sentence == items[j].sentence {
		k++
	}
	return items[j:k]
}

// choicesOnly returns the choices that items list when they are nothing but choices,
// and whether they ask for several.
func choicesOnly(items []item) (opts []string, multi, ok bool) {
	for _, it := range items {
		f := analyse(it.text)
		if !optionLike(f.text, nil) {
			return nil, false, false
		}
		opts = append(opts, f.text)
		multi = multi || f.multi
	}
	return opts, multi, len(splitOptions(strings.Join(opts, ", "))) >= 2
}

// rateGroups lets "rate cleanliness, friendliness and value from 1 to 5" ask three
// rating questions: bare items after a "rate ..." item are rated too, on the scale
// the group names. A "rate" item with its own scale stands alone.
func rateGroups(items []item) []item {
	for i := 0; i < len(items); i++ {
		if ws := words(items[i].text); len(ws) < 2 || ws[0] != "rate" || analyse(items[i].text).scale != nil {
			continue
		}
		j := i + 1
		for j < len(items) && items[j].sentence == items[i].sentence && bareItem(items[j].text) {
			items[j].text = "rate " + items[j].text
			j++
		}
		shareScale(items[i:j])
		i = j - 1
	}
	return items
}

// notRated open items that ask for a choice or an opinion, not a rating.
var notRated = set("rate favourite favorite best worst most least any")

func bareItem(t string) bool {
	ws := words(analyse(t).text)
	if len(ws) == 0 || len(ws) > 5 || noAndSplit[ws[0]] || notRated[ws[0]] {
		return false
	}
	_, ok := matchConcept(ws)
	return !ok || analyse(t).scale != nil
}

// shareScale gives every item of a rating group the scale one of them names.
func shareScale(group []item) {
	for _, it := range group {
		if sc := analyse(it.text).scale; sc != nil {
			for k := range group {
				if analyse(group[k].text).scale == nil {
					group[k].text += " (" + sc.String() + ")"
				}
			}
			return
		}
	}
}
