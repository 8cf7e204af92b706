package generate

import (
	"strings"

	"forma/internal/ai/text"
)

// words returns the words of s as the generator compares them: lower case, as
// text.Words splits them, with accents folded ("téléphone" is "telephone"), French
// elisions taken apart ("d'intérêt" is "de interet", "l'animal" is "animal"), and
// German compounds split before the field noun they end in ("Telefonnummer" is
// "telefon nummer", "E-Mail-Adresse" is "e-mail adresse"), so that one phrase
// finds a field in all its compounds.
func words(s string) []string {
	var out []string
	for _, w := range text.Words(accentFolder.Replace(s)) {
		out = append(out, splitCompound(unElide(w)...)...)
	}
	return out
}

// phrases splits a "|"-separated list into phrases of words, as words reads a
// prompt, so that a phrase written with accents or as a compound finds the same
// words.
func phrases(list string) []text.Phrase {
	var out []text.Phrase
	for _, p := range strings.Split(list, "|") {
		if ws := words(p); len(ws) > 0 {
			out = append(out, text.Phrase(ws))
		}
	}
	return out
}

// wordSet builds a lookup table of the words of list, as words reads them.
func wordSet(list string) map[string]bool {
	m := map[string]bool{}
	for _, w := range words(list) {
		m[w] = true
	}
	return m
}

// accentFolder writes the accented Latin letters of German, French and Spanish
// without their accents.
var accentFolder = strings.NewReplacer(
	"á", "a", "à", "a", "â", "a", "ä", "a", "ã", "a", "Á", "a", "À", "a", "Â", "a", "Ä", "a",
	"é", "e", "è", "e", "ê", "e", "ë", "e", "É", "e", "È", "e", "Ê", "e",
	"í", "i", "ì", "i", "î", "i", "ï", "i", "Í", "i", "Î", "i",
	"ó", "o", "ò", "o", "ô", "o", "ö", "o", "õ", "o", "Ó", "o", "Ô", "o", "Ö", "o",
	"ú", "u", "ù", "u", "û", "u", "ü", "u", "Ú", "u", "Û", "u", "Ü", "u",
	"ñ", "n", "Ñ", "n", "ç", "c", "Ç", "c", "ß", "ss", "œ", "oe", "Œ", "oe", "æ", "ae", "ÿ", "y")

// elisions are the French words that lose their vowel before another ("d'",
// "l'"), with the word they stand for when it matters to the reading: "de" is a
// preposition, "que" asks a question.
var elisions = map[string]string{"d": "de", "l": "", "qu": "que", "j": "", "n": "", "s": "", "m": "", "t": "", "c": ""}

// unElide takes a French elision off the front of w.
func unElide(w string) []string {
	i := strings.IndexByte(w, '\'')
	if i <= 0 || i == len(w)-1 {
		return []string{w}
	}
	full, ok := elisions[w[:i]]
	switch {
	case !ok:
		return []string{w}
	case full == "":
		return []string{w[i+1:]}
	}
	return []string{full, w[i+1:]}
}

// compoundHeads are the German nouns that end the compounds forms ask for
// ("Geburtsdatum", "Lieferadresse", "Anmeldeformular"); none is an English word.
var compoundHeads = []string{"nummer", "datum", "adresse", "zeit", "formular", "bogen", "umfrage", "anmeldung",
	"buchung", "bestellung", "meldung", "antrag", "anfrage", "bewerbung", "reservierung", "termin", "kontakt",
	"erfahrung", "bewertung", "foto", "bild", "grosse", "wunsch", "vorschlag", "vorschlage", "zufriedenheit"}

// splitCompound splits each German compound of ws before its head noun, and a
// hyphenated word whose last part is a head ("e-mail-adresse"): "telefonnummer"
// is "telefon nummer". A head needs three letters before it.
func splitCompound(ws ...string) []string {
	var out []string
	for _, w := range ws {
		head := compoundHead(w)
		if head == "" {
			out = append(out, w)
			continue
		}
		out = append(out, strings.TrimSuffix(w[:len(w)-len(head)], "-"), head)
	}
	return out
}

// compoundHead returns the head noun w ends in after at least three letters, or "".
func compoundHead(w string) string {
	for _, h := range compoundHeads {
		if len(w) >= len(h)+3 && strings.HasSuffix(w, h) {
			return h
		}
	}
	return ""
}
