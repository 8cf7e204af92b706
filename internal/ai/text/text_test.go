package text_test

import (
	"reflect"
	"strings"
	"testing"

	"forma/internal/ai/text"
)

func TestWords(t *testing.T) {
	got := text.Words("Your child's T-shirt size (S/M/L), 100% ‘cotton’ -- thanks!")
	want := []string{"your", "child's", "t-shirt", "size", "s", "m", "l", "100", "%", "cotton", "thanks"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Words = %q, want %q", got, want)
	}
	if got := text.SplitWords("SaaS B2B"); !reflect.DeepEqual(got, []string{"SaaS", "B2B"}) {
		t.Errorf("SplitWords = %q", got)
	}
}

func TestPhrases(t *testing.T) {
	ws := text.Words("How did the parties hear about our comments")
	forms := text.Phrases("party|comment|hear about")
	for i, want := range []int{3, 7, 4} {
		if got := forms[i].IndexForms(ws); got != want {
			t.Errorf("%q.IndexForms = %d, want %d", forms[i], got, want)
		}
	}
	if forms[0].Index(ws) != -1 || forms[2].Index(ws) != 4 {
		t.Error("Index matches only word for word")
	}
	if !text.AnyForms(ws, forms[:1]) || text.Any(ws, forms[:2]) || !text.Any(ws, forms) {
		t.Error("Any and AnyForms")
	}
	if !(text.Phrase{"hear", "about"}).At(ws, 4) || (text.Phrase{"hear"}).At(ws, -1) || !forms[1].EqualsForms([]string{"comments"}) {
		t.Error("At and EqualsForms")
	}
}

func TestInflections(t *testing.T) {
	for w, want := range map[string]string{"heard": "hear", "liked": "like", "tried": "try", "went": "go"} {
		if got, ok := text.PastTense(w); !ok || got != want {
			t.Errorf("PastTense(%q) = %q, %v", w, got, ok)
		}
	}
	if _, ok := text.PastTense("given"); ok {
		t.Error("a participle is not a past tense")
	}
	for w, want := range map[string]string{"gave": "give", "given": "give", "taught": "teach"} {
		if got, ok := text.IrregularBase(w); !ok || got != want {
			t.Errorf("IrregularBase(%q) = %q, %v", w, got, ok)
		}
	}
	for _, w := range []string{"come", "liked", "table"} {
		if _, ok := text.IrregularBase(w); ok {
			t.Errorf("IrregularBase(%q) is ok", w)
		}
	}
}

func TestExpansions(t *testing.T) {
	r := strings.NewReplacer(text.Expansions("won't", "you're", "it's", "n't")...)
	if got := r.Replace("you're sure it's fine, we won't say we didn't"); got != "you are sure it is fine, we will not say we did not" {
		t.Errorf("Replace = %q", got)
	}
	defer func() {
		if recover() == nil {
			t.Error("Expansions accepted a word that is no contraction")
		}
	}()
	text.Expansions("youre")
}

func TestQuoteCapitalize(t *testing.T) {
	if got := text.Quote("  How did you hear about us? "); got != "“How did you hear about us?”" {
		t.Errorf("Quote = %q", got)
	}
	if got := text.Capitalize("élan"); got != "Élan" {
		t.Errorf("Capitalize = %q", got)
	}
	if text.Capitalize("") != "" {
		t.Error("Capitalize of nothing")
	}
}
