package form

import (
	"golang.org/x/text/language"
)

// A form's language (Settings.Language) is the BCP 47 tag of its public page:
// the page's lang attribute, its writing direction, and the language of the
// page's own words (respond's catalogues; a language without a catalogue gets
// the nearest one, or English).

// MaxLanguageLen bounds a language tag, in bytes: longer than any tag in use
// with its extensions, short enough for a header or an attribute.
const MaxLanguageLen = 35

// DefaultLanguage is the language of a form that names none.
const DefaultLanguage = "en"

// ParseLanguage checks that tag is a well-formed BCP 47 language tag of a known
// language and returns it in its canonical form ("EN-us" is "en-US"); problem
// says what is wrong otherwise.
func ParseLanguage(tag string) (canonical, problem string) {
	const want = "must be a BCP 47 language tag such as en, de, pt-BR or ar"
	if tag == "" || len(tag) > MaxLanguageLen {
		return "", want
	}
	t, err := language.Parse(tag)
	if err != nil {
		return "", want
	}
	if _, conf := t.Base(); conf != language.Exact || t.String() == "und" {
		return "", want
	}
	return t.String(), ""
}

// LanguageTag is the language of the form with settings s: its own, or
// DefaultLanguage.
func (s Settings) LanguageTag() language.Tag {
	if s.Language == "" {
		return language.English
	}
	t, err := language.Parse(s.Language)
	if err != nil {
		return language.English
	}
	return t
}

// setLanguage validates tag and sets it, canonical, as s.Language; "" restores
// the default (English).
func (s *Settings) setLanguage(tag string, p *Problems) {
	if tag == "" {
		s.Language = ""
		return
	}
	canonical, problem := ParseLanguage(tag)
	if problem != "" {
		p.Add("language", "%s", problem)
		return
	}
	s.Language = canonical
}

// PageLanguage is a language the public page's own words come in: its tag and
// its name in itself, as a speaker picks it from a list.
type PageLanguage struct {
	Tag, Name string
}

// PageLanguages are the languages of respond's catalogues, English first
// (respond's TestLocalesComplete fails when the two differ).
var PageLanguages = []PageLanguage{
	{"en", "English"}, {"de", "Deutsch"}, {"fr", "Français"}, {"es", "Español"}, {"pt", "Português"},
	{"it", "Italiano"}, {"nl", "Nederlands"}, {"pl", "Polski"}, {"ar", "العربية"}, {"he", "עברית"},
}
