package respond

import (
	"maps"
	"regexp"
	"slices"
	"testing"

	"forma/internal/form"
)

// TestLocalesComplete: every catalogue has exactly the page words English has
// and a sentence for every validation message, each with the same
// placeholders as English; en.json's defaults are internal/form's, and the
// catalogues are the languages form.PageLanguages offers.
func TestLocalesComplete(t *testing.T) {
	var want []string
	for _, l := range form.PageLanguages {
		want = append(want, l.Tag)
	}
	slices.Sort(want)
	if got := slices.Sorted(maps.Keys(locales)); !slices.Equal(got, want) {
		t.Fatalf("catalogues %v, want %v", got, want)
	}
	en := locales["en"]
	if en.Page["closedDefault"] != form.DefaultClosedMessage || en.Page["thanksTitle"] != form.DefaultThankYouTitle {
		t.Error("en.json's closed and thank-you defaults differ from internal/form's")
	}
	names := regexp.MustCompile(`\{\w+\}`)
	same := func(lang, key, got, english string) {
		if got == "" {
			t.Errorf("%s lacks %s", lang, key)
			return
		}
		if a, b := slices.Sorted(slices.Values(names.FindAllString(got, -1))), slices.Sorted(slices.Values(names.FindAllString(english, -1))); !slices.Equal(a, b) {
			t.Errorf("%s %s has placeholders %v, English %v", lang, key, a, b)
		}
	}
	for lang, l := range locales {
		for key, english := range en.Page {
			same(lang, key, l.Page[key], english)
		}
		for key := range l.Page {
			if _, ok := en.Page[key]; !ok {
				t.Errorf("%s has %s, which English has not", lang, key)
			}
		}
		for code, m := range form.Catalogue() {
			same(lang, string(code), l.Messages[code], m.Sentence)
		}
		if len(l.Messages) != len(form.Catalogue()) {
			t.Errorf("%s has %d messages, the catalogue %d", lang, len(l.Messages), len(form.Catalogue()))
		}
	}
}

// TestLocaleOf: a form's language picks its catalogue, a regional variant its
// language's, an unknown one English; Arabic, Hebrew and Persian are written
// right to left.
func TestLocaleOf(t *testing.T) {
	for lang, want := range map[string]string{"": "en", "de": "de", "de-AT": "de", "pt-BR": "pt", "fr-CA": "fr", "sv": "en", "he": "he", "ar-EG": "ar"} {
		if got := localeOf(form.Settings{Language: lang}).Tag; got != want {
			t.Errorf("%q: catalogue %s, want %s", lang, got, want)
		}
	}
	for lang, want := range map[string]string{"": "ltr", "de": "ltr", "ar": "rtl", "he": "rtl", "fa": "rtl", "ur": "rtl", "sr-Latn": "ltr"} {
		if got := direction(form.Settings{Language: lang}); got != want {
			t.Errorf("%q: direction %s, want %s", lang, got, want)
		}
	}
	if got := localeOf(form.Settings{Language: "de"}).sentence(form.NewReason(form.MsgBetween, "1", "9")); got != "Diese Antwort muss zwischen 1 und 9 liegen." {
		t.Errorf("German sentence %q", got)
	}
}
