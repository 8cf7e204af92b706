package generate

import (
	"regexp"
	"slices"
	"strings"
	"unicode"

	"forma/internal/ai/text"
)

// parsed is a prompt taken apart: what it says about the form as a whole, and the
// fields it lists, in order.
type parsed struct {
	lang      language
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
		"’", "'", "–", "-", "—", ": ", "…", "...", "&", " and ")
	exampleRe = regexp.MustCompile(`(?i)(\be\.g\.?|\beg\.|\bi\.e\.?|\bfor example\b|\bfor instance\b|\bz\. ?b\.|` +
		`\bzum beispiel\b|\bpar exemple\b|\bp\. ?ex\.|\bpor ejemplo\b|\bp\. ?ej\.),?`)
	etcRe        = regexp.MustCompile(`(?i)\betc\b\.?`)
	titleAbbrRe  = regexp.MustCompile(`(?i)\b(mr|mrs|ms|dr|st|vs)\.`)
	signUpRe     = regexp.MustCompile(`(?i)\bsign[- ]up\b`)
	plusOneRe    = regexp.MustCompile(`(?i)\bplus one\b`)
	slashListRe  = regexp.MustCompile(`\s+/\s+`)
	dashListRe   = regexp.MustCompile(`([^\d\s]) +- +([^-()\n]*,[^-()\n]*?) +- +`)
	spacedDashRe = regexp.MustCompile(`([^\d\s]) +- +([^\d\s])`)
	multiStepRe  = regexp.MustCompile(`(?i)\b(multi[- ]?step|multi[- ]?page|step[- ]by[- ]step|` +
		`one question (at a time|per (page|step|screen))|one (at a time|per page)|wizard([- ]style)?|paginated)\b`)
	onlyRe   = regexp.MustCompile(`(?i)\b(only|just)\b`)
	bulletRe = regexp.MustCompile(`^\s*([-*•·+]|\d{1,3}[.)])\s+`)
)

// normalize rewrites typographic variants and abbreviations into one plain form:
// "e.g." becomes "such as", "etc." loses its full stop, "sign up" and "plus one"
// are one word, a spaced slash separates like a comma, a list between spaced
// dashes becomes a parenthesis, and a single spaced dash (or an em dash)
// introduces like a colon.
func normalize(s string) string {
	s = normalizer.Replace(s)
	s = exampleRe.ReplaceAllString(s, " such as ")
	s = etcRe.ReplaceAllString(s, " etc")
	s = titleAbbrRe.ReplaceAllString(s, "$1")
	s = signUpRe.ReplaceAllString(s, "sign-up")
	s = plusOneRe.ReplaceAllString(s, "plus-one")
	s = slashListRe.ReplaceAllString(s, ", ")
	s = dashListRe.ReplaceAllString(s, "$1 ($2) ")
	return spacedDashRe.ReplaceAllString(s, "$1: $2")
}

// parsePrompt splits a prompt in the given language into its header sentences and
// field items. A line that ends with a colon introduces the lines after it.
func parsePrompt(prompt string, lang language) parsed {
	norm := normalize(lang.toEnglish(prompt))
	p := parsed{lang: lang, multiStep: multiStepRe.MatchString(norm), only: onlyRe.MatchString(norm)}
	norm = multiStepRe.ReplaceAllString(norm, " ")
	sentence := 0
	for _, line := range strings.Split(norm, "\n") {
		line = slashList(line, lang)
		if loc := bulletRe.FindStringIndex(line); loc != nil {
			p.addParts(splitItems(line[loc[1]:], lang), bullet, sentence)
			sentence++
			continue
		}
		if t := strings.TrimSpace(line); strings.HasSuffix(t, ":") {
			p.headers = append(p.headers, strings.TrimSuffix(t, ":"))
			continue
		}
		for _, s := range splitSentences(line) {
			p.addSentence(s, sentence)
			sentence++
		}
	}
	p.items = rateGroups(optionSentences(attachQualifiers(p.items), lang), lang)
	return p
}

// slashList turns the slashes of a line that lists fields with them into commas:
// "name/email/phone" lists three fields, while "S/M/L", "and/or" and "Twitter/X
// handle" list none. It takes three parts, two of them known fields.
func slashList(line string, lang language) string {
	parts := splitTop(line, "/")
	if len(parts) < 3 {
		return line
	}
	fields := 0
	for _, p := range parts {
		if _, ok := matchConcept(words(p), lang); ok {
			fields++
		}
	}
	if fields < 2 {
		return line
	}
	return strings.Join(parts, ", ")
}

// addSentence files a sentence as header, list, or both.
func (p *parsed) addSentence(s string, sentence int) {
	header, marker, list, ok := splitAtMarker(s, p.lang)
	if ok {
		parts := splitItems(leadingMarkers(list), p.lang)
		if q, ok := pollQuestion(header, parts, p.lang); ok {
			parts = []string{q}
		}
		if len(parts) > 2 && complement(parts[0], p.lang) {
			header, parts = header+marker+" "+parts[0], parts[1:]
		}
		if hasContent(header) {
			p.headers = append(p.headers, header)
		}
		p.addParts(parts, listed, sentence)
		return
	}
	parts := splitItems(s, p.lang)
	ws := words(s)
	switch k := formNounPart(parts, p.lang); {
	case k >= 0:
		p.headers = append(p.headers, strings.Join(parts[:k+1], " "))
		p.addParts(parts[k+1:], listed, sentence)
	case len(parts) == 1 && !strings.ContainsAny(s, "?()") && findIntent(ws, p.lang) != nil:
		p.headers = append(p.headers, s)
	case len(parts) == 1:
		p.addParts(parts, prose, sentence)
	default:
		p.addParts(parts, listed, sentence)
	}
}

// complement reports whether the first part of a list ends the header's phrase
// rather than naming a field: in "a survey about satisfaction with the canteen,
// rating 1-5 and suggestions", "the canteen" is what the survey is about. It opens
// with an article and names no field, choices or scale.
func complement(part string, lang language) bool {
	ws := words(part)
	if len(ws) < 2 || ws[0] != "the" && !foreignArticles[ws[0]] {
		return false
	}
	if _, known := matchConcept(ws, lang); known {
		return false
	}
	f := analyse(part)
	return len(f.options) < 2 && f.scale == nil && f.hint == ""
}

// pollWords name a vote, whose list is of choices, not of fields.
var pollWords = text.Set("poll vote ballot")

// pollQuestion makes one choice question of a poll's list of bare choices ("a poll
// to vote on next month's book: 'Circe', 'Piranesi' or 'Klara and the Sun'"),
// asking about what the header votes on; ok is false for other lists.
func pollQuestion(header string, parts []string, lang language) (string, bool) {
	ws := words(header)
	if lang != english || len(parts) < 2 || !anyWord(ws, pollWords) {
		return "", false
	}
	for _, part := range parts {
		if !strings.HasPrefix(part, "'") && !strings.HasPrefix(part, `"`) && !optionLike(part, nil, lang) {
			return "", false
		}
	}
	subject := "your choice"
	fs := strings.Fields(header)
	for i := len(fs) - 2; i >= 0; i-- {
		if w := strings.ToLower(fs[i]); w == "on" || w == "for" || w == "about" {
			subject = strings.Join(fs[i+1:], " ")
			break
		}
	}
	return subject + " (" + strings.Join(parts, ", ") + ")", true
}

// formNounPart returns the index of the first part that names the form ("I run a
// bakery and want an order form"), or -1. Parts before it belong to the header too.
// A part names the form when it ends with a form noun ("newsletter form") or names
// no field ("registration date" is a field).
func formNounPart(parts []string, lang language) int {
	for i, part := range parts {
		ws := words(part)
		_, field := matchConcept(ws, lang)
		if hasFormNoun(ws, lang) && (isFormNoun(ws[len(ws)-1], lang) || !field || purposeAfterFormNoun(ws, lang)) {
			return i
		}
	}
	return -1
}

// purposeAfterFormNoun reports whether a preposition follows the form noun of ws:
// "a form for my daughter's birthday party" says what the form is for, while
// "registration date" is a field.
func purposeAfterFormNoun(ws []string, lang language) bool {
	i := slices.IndexFunc(ws, func(w string) bool { return isFormNoun(w, lang) })
	return i >= 0 && slices.ContainsFunc(ws[i+1:], func(w string) bool { return prepositions[w] })
}

// addParts adds the non-empty parts as items.
func (p *parsed) addParts(parts []string, o origin, sentence int) {
	for _, t := range parts {
		if t = strings.Trim(t, " ,;:-"); t != "" {
			p.items = append(p.items, item{text: t, origin: o, sentence: sentence})
		}
	}
}

// splitSentences splits a line at full stops, exclamation and question marks that
// end a sentence: outside parentheses and followed by a capital, a digit or the end
// (a question mark by anything). The choices of a question may follow its question
// mark: "Which? (a, b) Next?".
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
	return nonBlank(append(out, string(rs[start:])))
}

// opensEnglishQuestion reports whether rs starts with an English word that opens a
// question ("would", "what").
func opensEnglishQuestion(rs []rune) bool {
	end := 0
	for end < len(rs) && unicode.IsLetter(rs[end]) {
		end++
	}
	w := string(rs[:end])
	return yesNoStarts[w] && w != "if" || whWords[w]
}

// nonBlank returns the trimmed strings of ss that are not blank.
func nonBlank(ss []string) []string {
	var kept []string
	for _, s := range ss {
		if s = strings.TrimSpace(s); s != "" {
			kept = append(kept, s)
		}
	}
	return kept
}

// endsSentence reports whether the mark at rs[i] ends a sentence: the line ends, or
// space and a capital, a digit, a quote or a Spanish opening mark follow; after a
// question mark, space and anything but the parenthesis of its choices; after a
// full stop, space and a question ("rate it 1-5. would you come back?").
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
	if j == len(rs) || rs[i] == '?' && rs[j] != '(' && rs[j] != '[' {
		return true
	}
	if rs[i] == '.' && opensEnglishQuestion(rs[j:]) {
		return true
	}
	return unicode.IsUpper(rs[j]) || unicode.IsDigit(rs[j]) || strings.ContainsRune("\"¿¡", rs[j])
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
var fillerWords = text.Set("i we you they them he she please can could would will need needs want like to create " +
	"make build generate set up a an the me us our my for just some quick simple short basic new " +
	"little small online also it should must have get give let's lets i'd we'd i'm we're help " +
	"customers users people applicants attendees guests participants respondents visitors clients " +
	"students parents patients employees members fields field questions question following form " +
	"include it's this that these those here is are register sign apply join submit")

// splitAtMarker finds the first marker whose preceding text describes the form (or
// is filler) and returns the text before it, the marker and the list after it.
func splitAtMarker(s string, lang language) (header, marker, list string, ok bool) {
	for _, loc := range markerRe.FindAllStringIndex(s, -1) {
		before, after := s[:loc[0]], s[loc[1]:]
		if headerLike(before, s[loc[0]:loc[1]] == ":", lang) && !startsHeader(after, lang) && hasContent(after) {
			return before, s[loc[0]:loc[1]], after, true
		}
	}
	return "", "", "", false
}

// leadingMarkers strips further markers from the start of a list: "Participants
// need to register with their name" lists "their name".
func leadingMarkers(list string) string {
	for {
		loc := markerRe.FindStringIndex(list)
		if loc == nil || !allFiller(words(list[:loc[0]])) || !hasContent(list[loc[1]:]) {
			return list
		}
		list = list[loc[1]:]
	}
}

// headerLike reports whether the text before a marker describes the form rather
// than listing fields: filler, a form noun, an intent, or a short label before a
// colon: up to three words ("Questions:"), or up to five that name no field and ask
// nothing ("Bike to work week pledge:"). A comma list is never a header.
func headerLike(before string, colon bool, lang language) bool {
	if len(splitTop(before, ",")) > 2 {
		return false
	}
	ws := words(before)
	if allFiller(ws) || hasFormNoun(ws, lang) || findIntent(ws, lang) != nil {
		return true
	}
	_, field := matchConcept(ws, lang)
	return colon && (len(ws) <= 3 || len(ws) <= 5 && !field && !opensQuestion(ws, lang))
}

// startsHeader reports whether the text after a marker goes on to name the form
// ("I need a form for ...") instead of listing fields.
func startsHeader(after string, lang language) bool {
	ws := words(after)
	return hasFormNoun(ws[:min(len(ws), 6)], lang)
}

// allFiller reports whether every word of ws is filler.
func allFiller(ws []string) bool {
	for _, w := range ws {
		if !fillerWords[w] && !foreignFiller[w] {
			return false
		}
	}
	return true
}

// hasContent reports whether s has a word that is neither filler, noise, nor a bare
// number.
func hasContent(s string) bool {
	for _, w := range words(s) {
		if !fillerWords[w] && !foreignFiller[w] && !gibberish(w) && strings.IndexFunc(w, unicode.IsLetter) >= 0 {
			return true
		}
	}
	return false
}

// formNouns name a form itself ("a feedback form", "the registration").
var formNouns = text.Set("form forms survey questionnaire quiz poll application registration signup sign-up " +
	"booking reservation report request evaluation checklist sheet rsvp inquiry enquiry intake proposal " +
	"petition waiver ballot nomination")

// hasFormNoun reports whether ws names a form (or forms: "collect RSVPs").
func hasFormNoun(ws []string, lang language) bool {
	for _, w := range ws {
		if isFormNoun(w, lang) {
			return true
		}
	}
	return false
}

// isFormNoun reports whether the word w (read by words) names a form in a prompt of
// the given language.
func isFormNoun(w string, lang language) bool {
	one := strings.TrimSuffix(w, "s")
	return formNouns[w] || formNouns[one] || lang != english && (foreignFormNouns[w] || foreignFormNouns[one])
}
