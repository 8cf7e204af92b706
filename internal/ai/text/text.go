// Package text is the English text toolkit that Forma's offline AI shares: form
// generation (package generate) and chat (package chat) read people's words with
// it, and the analysis (package analyze) quotes with it.
//
// It splits prose into words (Words) and finds phrases among words, word for word
// (Phrase.Index, Any) or allowing plurals and possessives (Phrase.IndexForms,
// AnyForms). It holds
// the language data both readers need: lookup sets (Set), the base forms of past
// tenses and irregular verbs (PastTense, IrregularBase) and the contractions
// (Expansions). Every table is a package variable, built once when the program
// starts; nothing is rebuilt per call.
package text

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Set builds a lookup table from space-separated words.
func Set(list string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(list) {
		m[w] = true
	}
	return m
}

// Words returns the lower-case words of s: runs of letters and digits with the
// apostrophes and hyphens inside them ("child's", "t-shirt"). A "%" is a word of its
// own; every other character separates words.
func Words(s string) []string { return SplitWords(strings.ToLower(s)) }

// SplitWords returns the words of s as written, with the rules of Words; a
// typographic apostrophe becomes "'".
func SplitWords(s string) []string {
	var out []string
	var b strings.Builder
	flush := func() {
		if w := strings.Trim(b.String(), "'-"); w != "" {
			out = append(out, w)
		}
		b.Reset()
	}
	for _, r := range s {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		case r == '\'' || r == '’':
			b.WriteByte('\'')
		case r == '-' && b.Len() > 0:
			b.WriteByte('-')
		case r == '%':
			flush()
			out = append(out, "%")
		default:
			flush()
		}
	}
	flush()
	return out
}

// Capitalize upper-cases the first letter of s.
func Capitalize(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}

// Quote puts a question text (or a form title) between curly quotes for a reply or
// an insight: “How did you hear about us?”.
func Quote(s string) string {
	return "“" + strings.TrimSpace(s) + "”"
}
