package generate

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"forma/internal/ai/text"
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
	f.text = strings.Join(strings.Fields(emptyParensRe.ReplaceAllString(f.text, "")), " ")
	return f
}

var emptyParensRe = regexp.MustCompile(`\(\s*\)`)

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
		if loc := multiHintRe.FindStringIndex(inner); loc != nil {
			f.multi = true
			if inner = strings.Trim(inner[:loc[0]]+inner[loc[1]:], " ,;:-"); inner == "" {
				return ""
			}
		}
		if sc, loc, ok := findScale(inner); ok && onlyScale(inner[:loc[0]]+inner[loc[1]:]) {
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

// onlyScale reports whether what is left beside a scale says nothing more: no
// other numbers ("1-10, 11-50" are choices) and no words but those of scales
// ("design score 1-10" names a field).
func onlyScale(rest string) bool {
	for _, w := range words(rest) {
		if !scaleWords[w] {
			return false
		}
	}
	return strings.IndexFunc(rest, unicode.IsDigit) < 0
}

// scaleWords may stand around a scale in a parenthesis: "(on a scale of 1-5)".
var scaleWords = text.Set("on a an the scale of from rated rate score stars star points point out")

var (
	requiredRe = regexp.MustCompile(`(?i)^(required|mandatory|must|compulsory|pflicht|pflichtfeld|erforderlich|` +
		`obligatorisch|obligatoire|requis|obligatorio|requerido)$`)
	optionalRe = regexp.MustCompile(`(?i)^(optional|not required|if any|if applicable|optionally|freiwillig|` +
		`falls zutreffend|facultatif|facultative|optionnel|optionnelle|éventuel|éventuelle|éventuels|éventuelles|` +
		`le cas échéant|opcional|si aplica|si hay)$`)
	requirementRe = regexp.MustCompile(`(?i)(^\s*(optional|required|mandatory)\b|(^|\s)(optional|required|mandatory|` +
		`if any|if applicable|freiwillig|pflicht|pflichtfeld|facultatif|obligatoire|éventuel|éventuelle|` +
		`éventuels|éventuelles|opcional|obligatorio)\s*$)`)
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
	{hintRe(`drop[- ]?down|select box|radio( buttons?)?|single choice|multiple choice|single select|pick one|choose one|` +
		`auswahlliste|einfachauswahl|liste déroulante|choix unique|lista desplegable|menú desplegable|opción única`), form.Select},
	{hintRe(`(range )?slider`), form.Slider},
	{hintRe(`star rating`), form.Rating},
	{hintRe(`yes/no|yes or no|y/n|toggle|ja/nein|ja or nein|oui/non|oui or non|s[ií]/no|s[ií] or no`), form.YesNo},
	{hintRe(`text ?box|text area|textarea|long answer|paragraph|free text|open text|long text|open-?ended|` +
		`freitext|texte libre|texto libre`), form.Textarea},
	{hintRe(`short answer|short text|text field|single line`), form.Text},
	{hintRe(`date ?picker`), form.Date},
	{hintRe(`time ?picker`), form.Time},
	{hintRe(`numeric|number field|as a number`), form.Number},
	{hintRe(`file upload|upload|attachment|hochladen|datei-upload|télécharger|téléverser|joindre|pièce jointe|` +
		`subir|sube|suba|adjuntar|adjunta|adjunte|cargar`), form.FileUpload},
}

var multiHintRe = hintRe(`check ?boxe?s?|multi-?select|multiple select|(select|check|pick|choose|tick) (all|any)( that (apply|work|applies))?|` +
	`all that apply|any that apply|multiple answers|select multiple|one or more|mehrfachauswahl|mehrfachnennungen?|` +
	`mehrere (antworten )?möglich|plusieurs (choix|réponses) possibles?|plusieurs réponses|varias opciones|` +
	`varias respuestas|selección múltiple|todas las que apliquen`)

// hintRe matches the naming words alts with the "as a"/"with a" that may lead them
// (and the "à" of "à joindre").
func hintRe(alts string) *regexp.Regexp {
	return regexp.MustCompile(`(?i)(\b(as|with|in|using|zum|para)\s+|à\s+)?(\ban?\s+)?\b(` + alts + `)\b`)
}

// takeHints records the first type the text names and removes the naming words,
// unless nothing would be left of the field ("a 5 star rating").
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
		rest := f.text[:loc[0]] + " " + f.text[loc[1]:]
		if h.typ == form.FileUpload && !hasContent(f.text[:loc[0]]) || !hasContent(rest) {
			continue
		}
		f.text = rest
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

// scale is a numeric range the prompt gives for an answer.
type scale struct{ lo, hi int }

// String writes the scale as the prompt would ("1-5").
func (s scale) String() string { return fmt.Sprintf("%d-%d", s.lo, s.hi) }

// isRating reports whether the scale is the 1 to 5 of a star rating.
func (s scale) isRating() bool { return s.lo == 1 && s.hi == 5 }

// starWords name the points of a scale, in the four languages.
const starWords = `stars?|points?|scale|point scale|sternen|sterne|punkten|punkte|étoiles|estrellas|puntos`

// scaleRes find a scale: from lo to hi, or out of hi (from 1). "A scale of",
// "von 1 bis 5", "de 1 à 5", "del 1 al 5" and the like.
var scaleRes = []*regexp.Regexp{
	regexp.MustCompile(`(?i)\b((on )?a scale (of|from) |scale (of|from) |from |rated? |score |on an? |` +
		`(auf einer skala |sur une [ée]chelle |en una escala )?(von|de|del) )?` +
		`(?P<lo>\d{1,3}) ?(-|to|bis|à|a|al) ?(?P<hi>\d{1,3})\b( ?(` + starWords + `))?`),
	regexp.MustCompile(`(?i)\b(on a scale )?between (?P<lo>\d{1,3}) and (?P<hi>\d{1,3})\b`),
	regexp.MustCompile(`(?i)\b(rated? |score )?(out of|sur) (?P<hi>\d{1,3})\b( ?(stars?|étoiles))?`),
	regexp.MustCompile(`(?i)\b(?P<hi>\d{1,2})[- ]?(stars?|point scale|sternen|sterne|étoiles|estrellas)\b`),
}

// findScale finds a numeric range in s and returns it with its location.
func findScale(s string) (scale, []int, bool) {
	for _, re := range scaleRes {
		m := re.FindStringSubmatchIndex(s)
		if m == nil {
			continue
		}
		sc := scale{lo: 1, hi: group(s, re, m, "hi")}
		if re.SubexpIndex("lo") >= 0 {
			sc.lo = group(s, re, m, "lo")
		}
		if sc.lo < sc.hi {
			return sc, m[:2], true
		}
	}
	return scale{}, nil, false
}

// group returns the number a named group of a match captured.
func group(s string, re *regexp.Regexp, m []int, name string) int {
	i := re.SubexpIndex(name)
	n, _ := strconv.Atoi(s[m[2*i]:m[2*i+1]])
	return n
}
