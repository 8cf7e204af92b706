package respond

import (
	"embed"
	"encoding/json"
	"errors"
	"path"
	"regexp"
	"slices"
	"strings"

	"golang.org/x/text/language"

	"forma/internal/form"
)

// The public page's own words — buttons, hints, the default closed and
// thank-you texts, the sentences of the validation messages — come from one
// catalogue per language, locales/<language>.json: "page" holds the page's
// words by key, "messages" the sentence of each validation message by its code
// (form.MessageCode). English sentences are the catalogue of internal/form
// itself, so en.json holds only the page's words. Values may hold {name}
// placeholders, filled as form fills its messages. A form's language
// (form.Settings.Language) picks the nearest catalogue; TestLocalesComplete
// fails when one lacks a key that English has, or has one it has not.
//
//go:embed locales/*.json
var localeFiles embed.FS

// locale is the catalogue of one language.
type locale struct {
	// Tag is the catalogue's language.
	Tag string
	// Page holds the page's words by key.
	Page map[string]string `json:"page"`
	// Messages holds the validation sentences by code.
	Messages map[form.MessageCode]string `json:"messages"`
}

// locales are the catalogues by language tag, and matcher picks one of
// localeTags for a form's language (English first: the fallback).
var locales, localeTags, matcher = loadLocales()

func loadLocales() (map[string]*locale, []string, language.Matcher) {
	names, err := localeFiles.ReadDir("locales")
	if err != nil {
		panic(err)
	}
	out := map[string]*locale{}
	tags := []string{"en"}
	for _, n := range names {
		l := &locale{Tag: strings.TrimSuffix(n.Name(), ".json")}
		b, err := localeFiles.ReadFile(path.Join("locales", n.Name()))
		if err == nil {
			err = json.Unmarshal(b, l)
		}
		if err != nil {
			panic("respond: locale " + n.Name() + ": " + err.Error())
		}
		out[l.Tag] = l
		if l.Tag != "en" {
			tags = append(tags, l.Tag)
		}
	}
	en := out["en"]
	en.Messages = map[form.MessageCode]string{}
	for code, m := range form.Catalogue() {
		en.Messages[code] = m.Sentence
	}
	parsed := make([]language.Tag, len(tags))
	for i, t := range tags {
		parsed[i] = language.MustParse(t)
	}
	return out, tags, language.NewMatcher(parsed)
}

// localeOf is the catalogue of the form with settings s: its language's, or
// the nearest one's, or English.
func localeOf(s form.Settings) *locale {
	_, i, conf := matcher.Match(s.LanguageTag())
	if conf == language.No {
		return locales["en"]
	}
	return locales[localeTags[i]]
}

// rtlScripts are the scripts written right to left.
var rtlScripts = []string{"Arab", "Hebr", "Syrc", "Thaa", "Nkoo", "Adlm", "Mand", "Samr", "Rohg"}

// direction is the writing direction of the form language of s: "rtl" for a
// language written in a right-to-left script (Arabic, Hebrew, Persian, Urdu,
// …), "ltr" otherwise.
func direction(s form.Settings) string {
	script, _ := s.LanguageTag().Script()
	if slices.Contains(rtlScripts, script.String()) {
		return "rtl"
	}
	return "ltr"
}

// placeholder is a {name} in a catalogue's text.
var placeholder = regexp.MustCompile(`\{(\w+)\}`)

// word is the page's word key with its {name} placeholders filled from params
// (name, value, name, value, …).
func (l *locale) word(key string, params ...string) string {
	text := l.Page[key]
	if len(params) == 0 {
		return text
	}
	values := map[string]string{}
	for i := 0; i+1 < len(params); i += 2 {
		values[params[i]] = params[i+1]
	}
	return placeholder.ReplaceAllStringFunc(text, func(m string) string {
		if v, ok := values[m[1:len(m)-1]]; ok {
			return v
		}
		return m
	})
}

// sentence is what a respondent reads of the problem r.
func (l *locale) sentence(r form.Reason) string {
	text, ok := l.Messages[r.Code]
	if !ok {
		text = l.Messages[form.MsgInvalid]
	}
	return placeholder.ReplaceAllStringFunc(text, func(m string) string {
		if v, ok := r.Params[m[1:len(m)-1]]; ok {
			return v
		}
		return m
	})
}

// errorSentence is what a respondent reads about err: the sentence of its
// reason, or of its first field's, or MsgInvalid's when it has neither (as
// form.Sentence says it in English).
func (l *locale) errorSentence(err error) string {
	var e *form.Error
	if !errors.As(err, &e) {
		return l.sentence(form.Reason{})
	}
	if e.Reason.Code == "" && len(e.Fields) > 0 {
		return l.sentence(e.Fields[0].Reason)
	}
	return l.sentence(e.Reason)
}

// scriptWords are the page's words that the page script uses.
var scriptWords = []string{"submit", "next", "stepOf", "ratingLabel", "noAnswerYet", "noAnswer", "uploaded",
	"earlierFile", "titleThanks", "tryAgain", "checkConnection", "progressNotSaved", "answerNotSaved",
	"notSubmitted", "notUploaded", "wentWrong", "rateLimited", "previewSaid"}

// scriptData is what the page script needs of l, as JSON: the words it shows
// and every validation sentence (messages.js), in a data- attribute (the
// policy allows no inline script).
func (l *locale) scriptData() string {
	words := make(map[string]string, len(scriptWords))
	for _, k := range scriptWords {
		words[k] = l.Page[k]
	}
	b, err := json.Marshal(map[string]any{"words": words, "messages": l.Messages})
	if err != nil {
		panic(err)
	}
	return string(b)
}
