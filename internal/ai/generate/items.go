package generate

import (
	"regexp"
	"strings"

	"forma/internal/ai/text"
)

// protectedAnd are phrases whose "and" does not separate two fields or choices.
var protectedAnd = regexp.MustCompile(`(?i)\b(terms and conditions|make and model|rock and roll|black and white|` +
	`bed and breakfast|salt and pepper|fish and chips|mac and cheese|q and a|r and d|health and safety|` +
	`food and drinks?|arts and crafts|pros and cons|\d+ and \d+)\b`)

// protectAnd hides the "and" of protected phrases from splitting; restoreAnd brings
// it back.
func protectAnd(s string) string {
	return protectedAnd.ReplaceAllStringFunc(s, func(m string) string { return strings.ReplaceAll(m, " and ", " \x00 ") })
}

func restoreAnd(s string) string { return strings.ReplaceAll(s, " \x00 ", " and ") }

// splitItems splits a list into fields: at semicolons when it has any, otherwise at
// commas and at "and"/"plus"; never inside parentheses. Choices that follow
// "such as" or a colon are put back together with their field.
func splitItems(list string) []string {
	list = protectAnd(list)
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
func splitAnd(part string) []string {
	ws := text.Words(part)
	if len(ws) == 0 {
		return []string{part}
	}
	question := noAndSplit[ws[0]]
	var pieces []string
	start := 0
	for _, loc := range andRe.FindAllStringIndex(part, -1) {
		if question && !startsQuestion(part[loc[1]:]) {
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

// startsQuestion reports whether s opens with a question word.
func startsQuestion(s string) bool {
	ws := text.Words(s)
	return len(ws) > 0 && (whWords[ws[0]] || ws[0] == "whether" || ws[0] == "if")
}

var (
	attributeNouns = text.Set("name email phone address date time number")
	ownModifiers   = text.Set("full first last middle legal nick user given family your their my his her")
)

// inheritModifier gives next the modifier of prev when next is a lone attribute
// noun after an attribute noun with a modifier of its own.
func inheritModifier(prev, next string) string {
	pw, nw := text.Words(prev), text.Words(next)
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
			first := text.Words(p[introducerRe.FindStringIndex(p)[1]:])
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

// likeVerbs before "like" make it a verb, not an introducer.
var likeVerbs = text.Set("would 'd i'd they'd you'd you they we i feel look looks sound")

// likeIntroduces tells "flavours like vanilla" from "what they would like".
func likeIntroduces(before string) bool {
	ws := text.Words(before)
	return len(ws) > 0 && !likeVerbs[ws[len(ws)-1]]
}

// optionLike reports whether p reads as one more choice rather than a new field:
// short, not a question, not possessive, and not a field of its own unless the first
// choice was one too (as in "contact method: email, phone").
func optionLike(p string, first []string) bool {
	ws := text.Words(p)
	if len(ws) == 0 || len(ws) > 5 || strings.ContainsAny(p, "()?") || noAndSplit[ws[0]] {
		return false
	}
	if possessives[ws[0]] || anyWord(ws, pronouns) {
		return false
	}
	if _, ok := matchConcept(ws); ok {
		_, firstIsField := matchConcept(first)
		return firstIsField
	}
	return true
}

var (
	// possessives open fields ("their phone"), not choices.
	possessives = text.Set("their your his her the our my")
	// pronouns rarely appear in a choice; an item with one is a field of its own.
	pronouns = text.Set("you you'd you're your they their we our i my")
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
		if ws := text.Words(items[i].text); len(ws) < 2 || ws[0] != "rate" || analyse(items[i].text).scale != nil {
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
var notRated = text.Set("rate favourite favorite best worst most least any")

// bareItem reports whether t is a short thing to rate that names no other kind of
// field: "staff friendliness", "value for money from 1 to 5".
func bareItem(t string) bool {
	f := analyse(t)
	ws := text.Words(f.text)
	if len(ws) == 0 || len(ws) > 5 || noAndSplit[ws[0]] || notRated[ws[0]] {
		return false
	}
	_, ok := matchConcept(ws)
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
