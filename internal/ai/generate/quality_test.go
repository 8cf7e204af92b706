package generate_test

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"forma/internal/ai"
	"forma/internal/ai/generate"
	"forma/internal/form"
)

// promptCase is one entry of testdata/generate_prompts.json: a prompt as a user would
// write it and the fields a good form for it must have.
type promptCase struct {
	Prompt      string `json:"prompt"`
	DisplayMode string `json:"displayMode"`
	Expect      []struct {
		Field string            `json:"field"`
		Type  form.QuestionType `json:"type"`
	} `json:"expect"`
}

func loadPrompts(t *testing.T) []promptCase {
	t.Helper()
	b, err := os.ReadFile("testdata/generate_prompts.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []promptCase
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	return cases
}

// TestGenerateQuality measures recall over the prompt suite: the share of expected
// fields that the generated form asks with the right type. Every generated form must
// also be valid, have at most 30 questions, and use the expected display mode.
func TestGenerateQuality(t *testing.T) {
	cases := loadPrompts(t)
	found, total := 0, 0
	var misses []string
	for _, c := range cases {
		in, err := generate.Form(c.Prompt)
		if err != nil {
			t.Errorf("Form(%q): %v", c.Prompt, err)
			total += len(c.Expect)
			continue
		}
		if _, err := form.NewForm(in); err != nil {
			t.Errorf("Form(%q) is not a valid form: %v", c.Prompt, err)
		}
		if len(in.Questions) > ai.MaxGeneratedQuestions {
			t.Errorf("Form(%q) has %d questions", c.Prompt, len(in.Questions))
		}
		if want := c.DisplayMode; want != "" && string(in.DisplayMode) != want {
			t.Errorf("Form(%q) display mode %q, want %q", c.Prompt, in.DisplayMode, want)
		}
		for _, e := range c.Expect {
			total++
			if hasField(in, e.Field, e.Type) {
				found++
				continue
			}
			misses = append(misses, fmt.Sprintf("%q: no %s question about %q; got %s", short(c.Prompt), e.Type, e.Field, summary(in)))
		}
	}
	recall := float64(found) / float64(total)
	msg := fmt.Sprintf("generation quality: recall %.2f (%d/%d expected fields with the right type)", recall, found, total)
	t.Log(msg)
	fmt.Println(msg)
	for _, m := range misses {
		t.Log("miss: " + m)
	}
	if recall < 0.90 {
		t.Errorf("recall %.2f is below 0.90", recall)
	}
}

func hasField(in form.FormInput, keyword string, typ form.QuestionType) bool {
	for _, q := range in.Questions {
		if q.Type == typ && strings.Contains(strings.ToLower(*q.Question), strings.ToLower(keyword)) {
			return true
		}
	}
	return false
}

func summary(in form.FormInput) string {
	var parts []string
	for _, q := range in.Questions {
		parts = append(parts, fmt.Sprintf("%s %q", q.Type, *q.Question))
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

func short(s string) string {
	if len(s) > 60 {
		return s[:60] + "..."
	}
	return s
}
