package generate_test

import (
	"cmp"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"forma/internal/ai"
	"forma/internal/ai/generate"
	"forma/internal/form"
)

// The generator is measured on three sets of prompts, each a JSON array of
// promptCase:
//
//   - testdata/dev_prompts.json, the development set: the generator may be tuned
//     on it;
//   - testdata/heldout_prompts.json, held-out set 1: 76 prompts written before the
//     generator was tuned (commit 277f4c9), never changed since. Its misses were
//     printed once by mistake at commit fe1192c; it has not been tuned on, but it
//     is no longer unseen;
//   - testdata/heldout2_prompts.json, held-out set 2: 72 prompts written at that
//     point (commit c176807), before any further change, and never tuned on.
//
// Held-out misses are not logged unless FORMA_SHOW_HELDOUT_MISSES=1: whoever
// reads them can no longer tune the generator and call the set held out.
//
// Each expected field is matched to at most one generated question, and each
// question to at most one field: the fields, in the order listed, each take the
// first question not yet taken whose lower-cased text contains the field's keyword
// or one of its synonyms (lower-cased, as substrings), preferring a question of the
// expected type when several match. Then
//
//	field recall  = matched fields / expected fields
//	type accuracy = matched fields whose question has the expected type / matched fields
//
// A refused prompt misses all its fields. Every generated form must also be valid,
// have at most ai.MaxGeneratedQuestions questions, and use the display mode a case
// names.

// promptCase is a prompt as a person would write it, and the fields a good form
// for it has.
type promptCase struct {
	Prompt      string          `json:"prompt"`
	Lang        string          `json:"lang"`        // "en" when empty
	DisplayMode string          `json:"displayMode"` // unchecked when empty
	Expect      []expectedField `json:"expect"`
}

// expectedField is one question a person expects: found by its keyword or a
// synonym in the question text, and of its type.
type expectedField struct {
	Field    string            `json:"field"`
	Synonyms []string          `json:"synonyms"`
	Type     form.QuestionType `json:"type"`
}

// Floors under which the figures fail the suite: what the generator reaches, or
// 95% where it reaches more. Held-out set 1 reaches 93.9% type accuracy (370/394).
const (
	devRecallFloor      = 0.95
	devTypeFloor        = 0.95
	heldOutRecallFloor  = 0.95
	heldOutTypeFloor    = 0.939
	heldOut2RecallFloor = 0.95
	heldOut2TypeFloor   = 0.95
)

func TestGenerateQualityDevelopment(t *testing.T) {
	checkQuality(t, "development", "testdata/dev_prompts.json", devRecallFloor, devTypeFloor)
}

func TestGenerateQualityHeldOut(t *testing.T) {
	checkQuality(t, "held-out", "testdata/heldout_prompts.json", heldOutRecallFloor, heldOutTypeFloor)
}

func TestGenerateQualityHeldOut2(t *testing.T) {
	checkQuality(t, "held-out 2", "testdata/heldout2_prompts.json", heldOut2RecallFloor, heldOut2TypeFloor)
}

// showHeldOutMisses lists the held-out sets' misses too (see above).
var showHeldOutMisses = os.Getenv("FORMA_SHOW_HELDOUT_MISSES") == "1"

// checkQuality generates a form for every case of the set at path, prints the
// figures, overall and by language, and fails when they fall below the floors.
func checkQuality(t *testing.T, name, path string, recallFloor, typeFloor float64) {
	cases := loadPrompts(t, path)
	total := score{}
	byLang := map[string]*score{}
	heldOut := name != "development"
	for i, c := range cases {
		s := evaluate(t, c, caseName(c, i, heldOut))
		total.add(s)
		lang := cmp.Or(c.Lang, "en")
		if byLang[lang] == nil {
			byLang[lang] = &score{}
		}
		byLang[lang].add(s)
	}
	msg := fmt.Sprintf("generation quality, %s set (%d prompts): %s", name, len(cases), total)
	for _, lang := range sortedKeys(byLang) {
		msg += fmt.Sprintf("\n  %s: %s", lang, byLang[lang])
	}
	fmt.Println(msg)
	t.Log(msg)
	if !heldOut || showHeldOutMisses {
		for _, m := range total.misses {
			t.Log("miss: " + m)
		}
	}
	if r := total.recall(); r < recallFloor {
		t.Errorf("%s field recall %.1f%% is below %.1f%%", name, 100*r, 100*recallFloor)
	}
	if a := total.typeAccuracy(); a < typeFloor {
		t.Errorf("%s type accuracy %.1f%% is below %.1f%%", name, 100*a, 100*typeFloor)
	}
}

// score counts expected fields, those matched, and those matched with the
// expected type.
type score struct {
	expected, matched, typed int
	misses                   []string
}

func (s *score) add(o score) {
	s.expected += o.expected
	s.matched += o.matched
	s.typed += o.typed
	s.misses = append(s.misses, o.misses...)
}

func (s score) recall() float64 { return ratio(s.matched, s.expected) }

func (s score) typeAccuracy() float64 { return ratio(s.typed, s.matched) }

func (s score) String() string {
	return fmt.Sprintf("field recall %.1f%% (%d/%d), type accuracy %.1f%% (%d/%d)",
		100*s.recall(), s.matched, s.expected, 100*s.typeAccuracy(), s.typed, s.matched)
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// caseName names a case in failures: by its prompt, or, in a held-out set whose
// misses are not shown, by its index only.
func caseName(c promptCase, i int, heldOut bool) string {
	if heldOut && !showHeldOutMisses {
		return fmt.Sprintf("held-out case %d", i)
	}
	return fmt.Sprintf("%q", c.Prompt)
}

// evaluate generates the form of one case, checks that it is a valid form, and
// scores its questions against the expected fields. A refused prompt misses all
// its fields (and fails the development set).
func evaluate(t *testing.T, c promptCase, name string) score {
	t.Helper()
	s := score{expected: len(c.Expect)}
	in, err := generate.Form(c.Prompt)
	if err != nil {
		if !strings.HasPrefix(name, "held-out") {
			t.Errorf("Form(%s): %v", name, err)
		}
		s.misses = append(s.misses, fmt.Sprintf("%q: error %v", short(c.Prompt), err))
		return s
	}
	if _, err := form.NewForm(in); err != nil {
		t.Errorf("Form(%s) is not a valid form: %v", name, err)
	}
	if len(in.Questions) > ai.MaxGeneratedQuestions {
		t.Errorf("Form(%s) has %d questions", name, len(in.Questions))
	}
	if want := c.DisplayMode; want != "" && string(in.DisplayMode) != want {
		t.Errorf("Form(%s) display mode %q, want %q", name, in.DisplayMode, want)
	}
	taken := make([]bool, len(in.Questions))
	for _, e := range c.Expect {
		i := matchField(in.Questions, taken, e)
		switch {
		case i < 0:
			s.misses = append(s.misses, fmt.Sprintf("%q: no question about %q; got %s", short(c.Prompt), e.Field, summary(in)))
		case in.Questions[i].Type != e.Type:
			s.matched++
			s.misses = append(s.misses, fmt.Sprintf("%q: %q is %s, want %s", short(c.Prompt), *in.Questions[i].Question, in.Questions[i].Type, e.Type))
		default:
			s.matched++
			s.typed++
		}
		if i >= 0 {
			taken[i] = true
		}
	}
	return s
}

// matchField returns the index of the question that matches e by the rule above,
// or -1.
func matchField(qs []form.QuestionInput, taken []bool, e expectedField) int {
	keywords := append([]string{e.Field}, e.Synonyms...)
	first := -1
	for i, q := range qs {
		if taken[i] || !containsAny(strings.ToLower(*q.Question), keywords) {
			continue
		}
		if q.Type == e.Type {
			return i
		}
		if first < 0 {
			first = i
		}
	}
	return first
}

func containsAny(s string, keywords []string) bool {
	return slices.ContainsFunc(keywords, func(k string) bool { return strings.Contains(s, strings.ToLower(k)) })
}

func loadPrompts(t *testing.T, path string) []promptCase {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var cases []promptCase
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return cases
}

// namedCase is a case of any set with the name its failures give it (see
// caseName).
type namedCase struct {
	promptCase
	name string
}

// suiteCases returns the cases of the three sets, for the checks that every
// generated form must pass.
func suiteCases(t *testing.T) []namedCase {
	var all []namedCase
	for _, set := range []string{"dev_prompts.json", "heldout_prompts.json", "heldout2_prompts.json"} {
		for i, c := range loadPrompts(t, "testdata/"+set) {
			all = append(all, namedCase{c, caseName(c, i, set != "dev_prompts.json")})
		}
	}
	return all
}

func sortedKeys(m map[string]*score) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func summary(in form.FormInput) string {
	var parts []string
	for _, q := range in.Questions {
		parts = append(parts, fmt.Sprintf("%s %q", q.Type, *q.Question))
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

func short(s string) string {
	if r := []rune(s); len(r) > 60 {
		return string(r[:60]) + "..."
	}
	return s
}
