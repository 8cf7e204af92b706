package generate

import (
	"regexp"
	"strings"
	"unicode"

	"forma/internal/ai/text"
)

// protectedAnd are phrases whose "and" does not separate two fields or choices.
var protectedAnd = regexp.MustCompile(`(?i)\b(terms and conditions|make and model|rock and roll|black and white|` +
	`bed and breakfast|salt and pepper|fish and chips|mac and cheese|q and a|r and d|health and safety|` +
	`food and drinks?|arts and crafts|pros and cons|\d+ and \d+)\b`)

// protectAnd hides from splitting the "and" of protected phrases, and the "and",
// "or" and commas of quoted text ("'Klara and the Sun'"); restoreAnd brings them
// back.
func protectAnd(s string) string {
	s = protectedAnd.ReplaceAllStringFunc(s, func(m string) string { return strings.ReplaceAll(m, " and ", " \x00 ") })
	return mapQuoted(s, quotedProtector.Replace)
}

func restoreAnd(s string) string { return quotedRestorer.Replace(s) }

var (
	quotedProtector = strings.NewReplacer(" and ", " \x00 ", " or ", " \x01 ", ",", "\x02")
	quotedRestorer  = strings.NewReplacer(" \x00 ", " and ", " \x01 ", " or ", "\x02", ",")
)

// mapQuoted applies f to the text between quotes in s: double quotes, or single
// quotes that open after a space and close before one (not the apostrophes of
// "month's" or "parents'").
func mapQuoted(s string, f func(string) string) string {
	var b strings.Builder
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		end := closingQuote(rs, i)
		if end < 0 {
			b.WriteRune(rs[i])
			continue
		}
		b.WriteString(string(rs[i]) + f(string(rs[i+1:end])) + string(rs[end]))
		i = end
	}
	return b.String()
}

// closingQuote returns the index of the quote that closes one opening at rs[i], or
// -1 when rs[i] opens no quotation.
func closingQuote(rs []rune, i int) int {
	q := rs[i]
	if q != '"' && q != '\'' || i > 0 && !unicode.IsSpace(rs[i-1]) && rs[i-1] != '(' {
		return -1
	}
	for j := i + 1; j < len(rs); j++ {
		if rs[j] == q && (j+1 == len(rs) || !unicode.IsLetter(rs[j+1])) && j > i+1 {
			return j
		}
	}
	return -1
}

// splitItems splits a list into fields: at semicolons when it has any, otherwise at
// commas, spaced plus signs and "and"/"plus"; never inside parentheses or quotes. Choices that follow
// "such as" or a colon are put back together with their field.
func splitItems(list string, lang language) []string {
	list = protectAnd(spacedPlusRe.ReplaceAllString(list, ", "))
	var parts []string
	if strings.Contains(list, ";") {
		parts = splitTop(list, ";")
	} else {
		for _, p := range joinClauses(splitTop(list, ","), lang) {
			parts = append(parts, splitAnd(p, lang)...)
		}
	}
	parts = absorbOptions(parts, lang)
	for i := range parts {
		parts[i] = strings.TrimSpace(restoreAnd(parts[i]))
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

var spacedPlusRe = regexp.MustCompile(`\s+\+\s+`)

var andRe = regexp.MustCompile(`(?i)\s+(and|plus|as well as|along with)\s+`)

// noAndSplit start fields whose "and" belongs to one question ("how satisfied are
// you with food and service").
var noAndSplit = text.Set("how what which why when where who whose do does did are is was were will would can " +
	"could should have has had whether if describe explain")

// splitAnd splits a comma-separated part at "and", outside parentheses. In a
// question it splits only where a new question starts ("which features you use and
// what you liked"). A lone attribute after "and" takes the modifier of the one
// before it: "emergency contact name and phone" asks for the emergency contact's
// phone.
func splitAnd(part string, lang language) []string {
	ws := words(part)
	if len(ws) == 0 {
		return []string{part}
	}
	question := opensQuestion(ws, lang)
	var pieces []string
	start := 0
	for _, loc := range andRe.FindAllStringIndex(part, -1) {
		if question && !startsQuestion(part[loc[1]:], lang) {
			continue
		}
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

// startsQuestion reports whether s opens with a question word of the language.
func startsQuestion(s string, lang language) bool {
	ws := words(s)
	return len(ws) > 0 && (whWords[ws[0]] || questionGloss[lang][ws[0]] != "" || ws[0] == "whether" || ws[0] == "if")
}

// opensQuestion reports whether ws opens a question in the language: with a
// question word or a verb ("do ...", "Haben Sie ...", "Avez-vous ...").
func opensQuestion(ws []string, lang language) bool {
	switch {
	case noAndSplit[ws[0]] || questionGloss[lang][ws[0]] != "":
		return true
	case lang == german:
		return len(ws) > 1 && germanSubjects[ws[1]]
	case lang == french:
		return frenchInversion(ws[0])
	}
	return false
}

// subordinators open a clause that belongs to the question before its comma
// ("Wie wahrscheinlich ist es, dass Sie uns weiterempfehlen?").
var subordinators = text.Set("dass ob weil because parce porque")

// joinClauses puts a subordinate clause back onto the question its comma split it
// from.
func joinClauses(parts []string, lang language) []string {
	var out []string
	for _, p := range parts {
		ws := words(p)
		if n := len(out); n > 0 && len(ws) > 0 && subordinators[ws[0]] && !strings.HasSuffix(strings.TrimSpace(out[n-1]), "?") {
			if prev := words(out[n-1]); len(prev) > 0 && opensQuestion(prev, lang) {
				out[n-1] += "," + p
				continue
			}
		}
		out = append(out, p)
	}
	return out
}

var (
	attributeNouns = text.Set("name email phone address date time number")
	ownModifiers   = text.Set("full first last middle legal nick user given family your their my his her")
)

// inheritModifier gives next the modifier of prev when next is a lone attribute
// noun after an attribute noun with a modifier of its own.
func inheritModifier(prev, next string) string {
	pw, nw := words(prev), words(next)
	if len(nw) != 1 || !attributeNouns[nw[0]] || len(pw) < 2 || !attributeNouns[pw[len(pw)-1]] || ownModifiers[pw[len(pw)-2]] {
		return next
	}
	fs := strings.Fields(prev)
	return strings.Join(fs[:len(fs)-1], " ") + " " + strings.TrimSpace(next)
}

// introducerRe finds where a field's choices begin.
var introducerRe = regexp.MustCompile(`(?i)\b(such as|including|between|either|one of|choose from|pick from|select from|options are|options|choices|among)\b|:|\blike\b`)

// absorbOptions puts back choices that the comma split separated from their field:
// in "flavour such as vanilla, chocolate, their email", "chocolate" belongs to the
// flavour.
func absorbOptions(parts []string, lang language) []string {
	var out []string
	for i := 0; i < len(parts); i++ {
		p := parts[i]
		if opensOptions(p) {
			first := words(p[introducerRe.FindStringIndex(p)[1]:])
			for i+1 < len(parts) && optionLike(parts[i+1], first, lang) {
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

// likeVerbs before "like" make it a verb, not an introducer.
var likeVerbs = text.Set("would 'd i'd they'd you'd you they we i feel look looks sound")

// likeIntroduces tells "flavours like vanilla" from "what they would like".
func likeIntroduces(before string) bool {
	ws := words(before)
	return len(ws) > 0 && !likeVerbs[ws[len(ws)-1]]
}

// optionLike reports whether p reads as one more choice rather than a new field:
// short, not a question (the last choice may end the question: "…: Tuesday or
// Thursday?"), not possessive, and not a field of its own unless the first choice
// was one too (as in "contact method: email, phone").
func optionLike(p string, first []string, lang language) bool {
	ws := words(p)
	if len(ws) == 0 || len(ws) > 5 || strings.ContainsAny(strings.TrimSuffix(p, "?"), "()?¿") || opensQuestion(ws, lang) {
		return false
	}
	if possessives[ws[0]] || ws[0] == "any" || anyWord(ws, pronouns) {
		return false
	}
	if _, ok := matchConcept(ws, lang); ok {
		_, firstIsField := matchConcept(first, lang)
		return firstIsField
	}
	return true
}

var (
	// possessives open fields ("their phone", "Ihre Adresse"), not choices.
	possessives = wordSet("their your his her the our my ihr ihre ihren votre vos su sus tu tus")
	// pronouns rarely appear in a choice; an item with one is a field of its own.
	pronouns = wordSet("you you'd you're your they their we our i my sie ihr ihre vous votre usted")
)

// anyWord reports whether any word of ws is in the set.
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

// qualifierOnly reports whether t says nothing but how the previous field is
// answered. It is read as the parenthesis of a placeholder field "x", so that the
// same rules as for "rating (1-5)" apply.
func qualifierOnly(t string) bool {
	f := analyse("x (" + t + ")")
	return strings.TrimSpace(f.text) == "x" && (f.scale != nil || f.multi || f.required != nil || yesNoOptions(f.options))
}

// optionSentences turns a sentence of bare choices that follows a question into that
// question's choices: "How would you like to pay? Card, PayPal or transfer".
func optionSentences(items []item, lang language) []item {
	var out []item
	for i := 0; i < len(items); i++ {
		it := items[i]
		if next := sentenceAfter(items, i); strings.HasSuffix(it.text, "?") && it.origin != bullet && len(next) > 0 {
			if opts, multi, ok := choicesOnly(next, lang); ok {
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
func choicesOnly(items []item, lang language) (opts []string, multi, ok bool) {
	for _, it := range items {
		f := analyse(it.text)
		if !optionLike(f.text, nil, lang) {
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
func rateGroups(items []item, lang language) []item {
	for i := 0; i < len(items); i++ {
		if ws := words(items[i].text); len(ws) < 2 || ws[0] != "rate" || analyse(items[i].text).scale != nil {
			continue
		}
		j := i + 1
		for j < len(items) && items[j].sentence == items[i].sentence && bareItem(items[j].text, lang) {
			items[j].text = "rate " + items[j].text
			j++
		}
		shareScale(items[i:j])
		i = j - 1
	}
	return items
}

// notRated open items that ask for a choice or an opinion, not a rating.
var notRated = text.Set("rate favourite favorite best worst most least any")

// bareItem reports whether t is a short thing to rate that names no other kind of
// field: "staff friendliness", "value for money from 1 to 5".
func bareItem(t string, lang language) bool {
	f := analyse(t)
	ws := words(f.text)
	if len(ws) == 0 || len(ws) > 5 || noAndSplit[ws[0]] || notRated[ws[0]] {
		return false
	}
	_, ok := matchConcept(ws, lang)
	return !ok || f.scale != nil
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
