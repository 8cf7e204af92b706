package generate

import (
	"regexp"
	"strings"
	"unicode"

	"forma/internal/ai/text"
)

// language is the language a prompt is written in. The generator reads English,
// German, French and Spanish prompts; a form keeps its prompt's language (the
// question texts are the prompt's own words, and what the generator adds is
// translated).
type language string

const (
	english language = "en"
	german  language = "de"
	french  language = "fr"
	spanish language = "es"
)

// foreignLanguages are the languages besides English, in the order their word lists
// are tried.
var foreignLanguages = []language{german, french, spanish}

// languageClues are words that mark a language: its function words and the names
// of forms. A word counts once however often it occurs; a word of two languages
// ("de", "la") counts for both.
var languageClues = map[language]map[string]bool{
	german: text.Set("und oder mit der die das den dem des ein eine einen einem einer für zum zur von bis " +
		"ihr ihre ihren ihrer sie wie was welche welcher welches sind ist wir uns nicht bitte ich auf über " +
		"nach bei beim aus sowie möchten würden haben können anzahl umfrage anmeldung bewerbung " +
		"fragebogen buchung bestellung antrag vorname nachname"),
	french: text.Set("et ou avec le la les de des du un une pour votre vos nous vous est sont que qui quel " +
		"quelle quels quelles au aux sur par ce cette je en formulaire sondage enquête inscription demande " +
		"réservation candidature nom prénom téléphone courriel adresse"),
	spanish: text.Set("y o con el la los las de del una para por su sus tu tus nos es son qué cuál al mi en " +
		"formulario encuesta inscripción solicitud reserva pedido nombre apellido apellidos teléfono correo " +
		"dirección fecha"),
	english: text.Set("and or with the for of to your their our you we is are what how which do please " +
		"form survey"),
}

// languageLetters are letters that only one of the languages uses; each counts as
// one more clue.
var languageLetters = map[language]string{german: "äöüß", french: "çèêàùœ", spanish: "ñ¿¡"}

// languageOf tells the language of a prompt by its clues: a foreign language wins
// when it has more clues than English and than the other foreign languages. A
// German compound ("Terminbuchung") is a clue too.
func languageOf(prompt string) language {
	lower := strings.ToLower(prompt)
	ws := strings.FieldsFunc(lower, func(r rune) bool { return !unicode.IsLetter(r) && r != '\'' })
	seen := map[string]bool{}
	count := map[language]int{}
	for _, w := range ws {
		if seen[w] {
			continue
		}
		seen[w] = true
		for lang, clues := range languageClues {
			if clues[w] {
				count[lang]++
			}
		}
		if compoundHead(accentFolder.Replace(w)) != "" {
			count[german]++
		}
	}
	for lang, letters := range languageLetters {
		if strings.ContainsAny(lower, letters) {
			count[lang]++
		}
	}
	best := english
	for _, lang := range foreignLanguages {
		if count[lang] > count[best] {
			best = lang
		}
	}
	return best
}

// connectives are the words that join fields and choices in each language, with the
// English word the parser knows: lists are split at them, and the words are put
// back into the texts the form keeps (see toEnglish and fromEnglish).
var connectives = map[language][][2]string{
	german: {{"und", "and"}, {"sowie", "and"}, {"oder", "or"}, {"mit", "with"}, {"inklusive", "including"},
		{"einschließlich", "including"}, {"bestehend aus", "including"}},
	french: {{"et", "and"}, {"ainsi que", "and"}, {"ou", "or"}, {"avec", "with"}, {"comprenant", "including"},
		{"incluant", "including"}, {"y compris", "including"}},
	spanish: {{"y", "and"}, {"e", "and"}, {"así como", "and"}, {"o", "or"}, {"u", "or"}, {"con", "with"},
		{"incluyendo", "including"}, {"que incluya", "including"}},
}

// connectiveRes find each language's connectives as whole words.
var connectiveRes = func() map[language]*regexp.Regexp {
	res := map[language]*regexp.Regexp{}
	for lang, pairs := range connectives {
		var alts []string
		for _, p := range pairs {
			alts = append(alts, regexp.QuoteMeta(p[0]))
		}
		res[lang] = regexp.MustCompile(`(?i)(^|\s)(` + strings.Join(alts, "|") + `)(\s)`)
	}
	return res
}()

// englishConnectiveRe finds the English connectives that toEnglish writes.
var englishConnectiveRe = regexp.MustCompile(`(\s)(and|or|with|including)(\s)`)

// toEnglish writes the connectives of a foreign prompt as English ones, so that the
// parser splits its lists; English prompts are returned unchanged.
func (l language) toEnglish(s string) string {
	re, ok := connectiveRes[l]
	if !ok {
		return s
	}
	return re.ReplaceAllStringFunc(s, func(m string) string {
		word := strings.ToLower(strings.TrimSpace(m))
		for _, p := range connectives[l] {
			if p[0] == word {
				return strings.Replace(m, strings.TrimSpace(m), p[1], 1)
			}
		}
		return m
	})
}

// fromEnglish puts a foreign language's connectives back into a text the form keeps
// (a question that says "Name und Vorname" was parsed as "Name and Vorname").
func (l language) fromEnglish(s string) string {
	if l == english {
		return s
	}
	return englishConnectiveRe.ReplaceAllStringFunc(s, func(m string) string {
		word := strings.TrimSpace(m)
		for _, p := range connectives[l] {
			if p[1] == word {
				return strings.Replace(m, word, p[0], 1)
			}
		}
		return m
	})
}
