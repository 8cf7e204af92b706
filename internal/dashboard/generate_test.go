package dashboard_test

import (
	"fmt"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"forma/internal/ai"
	"forma/internal/config"
	"forma/internal/server/servertest"
)

const offsitePrompt = "An RSVP for our team offsite with name, email, meal choice (fish, meat or vegan) and whether they stay overnight"

// generated is a generated form as the API reads it: its title and questions.
type generated struct {
	Title     string
	Questions []string
}

// apiGenerated reads form id through the API.
func apiGenerated(t *testing.T, env *servertest.Env, key string, id int64) generated {
	t.Helper()
	r := env.For(t).Do("GET", fmt.Sprintf("/api/v1/forms/%d", id), key, nil)
	if r.Status != http.StatusOK {
		t.Fatalf("GET form %d: %d %s", id, r.Status, r.Body)
	}
	f := r.JSON(t)
	g := generated{Title: f["title"].(string)}
	for _, q := range f["questions"].([]any) {
		m := q.(map[string]any)
		g.Questions = append(g.Questions, fmt.Sprintf("%s: %s %v", m["type"], m["question"], m["options"]))
	}
	return g
}

// history is the account's credit history as the API lists it.
func history(t *testing.T, env *servertest.Env, key string) []map[string]any {
	t.Helper()
	r := env.For(t).Do("GET", "/api/v1/usage/history", key, nil)
	if r.Status != http.StatusOK {
		t.Fatalf("usage history: %d %s", r.Status, r.Body)
	}
	var out []map[string]any
	for _, e := range r.JSON(t)["history"].([]any) {
		out = append(out, e.(map[string]any))
	}
	return out
}

// TestGenerateForm: the new-form page offers a prompt with its price and the
// progress hook; the post creates the form the API would create from the same
// prompt, charged and recorded as the API charges, and opens its editor; a
// cross-site post is refused and free.
func TestGenerateForm(t *testing.T) {
	each(t, func(t *testing.T, env *servertest.Env) {
		b, key := signedInOwner(t, env, "ada@example.com")
		p := b.get("/forms/new")
		for _, want := range []string{`action="/forms/generate"`, `data-busy="Generating your form…"`, "data-busy-status",
			`id="prompt" name="prompt"`, "Costs 5 credits; you have 100 left", `action="/forms/new"`} {
			if !strings.Contains(p.Body, want) {
				t.Errorf("the new-form page lacks %q", want)
			}
		}
		if p := b.post("/forms/generate", url.Values{"prompt": {offsitePrompt}}, "Sec-Fetch-Site", "cross-site"); p.Status != http.StatusForbidden {
			t.Errorf("a cross-site generation: %d", p.Status)
		}
		p = b.post("/forms/generate", url.Values{"prompt": {offsitePrompt}})
		var id int64
		if _, err := fmt.Sscanf(p.Location, "/forms/%d?done=generated", &id); p.Status != http.StatusSeeOther || err != nil {
			t.Fatalf("generate: %d %q\n%s", p.Status, p.Location, p.Body)
		}
		if p := b.get(p.Location); !strings.Contains(p.Body, "Your form is ready: check its questions") {
			t.Errorf("the editor does not say the form was generated")
		}
		mine := apiGenerated(t, env, key, id)
		r := env.For(t).Do("POST", "/api/v1/forms/generate", key, map[string]any{"prompt": offsitePrompt})
		if r.Status != http.StatusCreated {
			t.Fatalf("API generate: %d %s", r.Status, r.Body)
		}
		apiID := int64(r.JSON(t)["id"].(float64))
		if theirs := apiGenerated(t, env, key, apiID); len(mine.Questions) < 3 || !reflect.DeepEqual(mine, theirs) {
			t.Errorf("the dashboard generated %+v, the API %+v", mine, theirs)
		}
		if got := creditsRemaining(t, env, key); got != 90 {
			t.Errorf("credits after two generations: %d, want 90", got)
		}
		h := history(t, env, key)
		if len(h) != 2 {
			t.Fatalf("history: %v", h)
		}
		for i, want := range []int64{apiID, id} {
			e := h[i]
			if e["endpoint"] != "forms.generate" || e["creditsConsumed"] != 5.0 || e["formId"] != float64(want) || e["formName"] != mine.Title {
				t.Errorf("history entry %d: %v, want form %d", i, e, want)
			}
		}
	})
}

// TestGenerateFormRefusedPrompts: a prompt the API refuses is refused at the
// field, kept (escaped) in it, and costs nothing; nothing is created.
func TestGenerateFormRefusedPrompts(t *testing.T) {
	each(t, func(t *testing.T, env *servertest.Env) {
		b, key := signedInOwner(t, env, "ada@example.com")
		for _, bad := range []string{"   ", "<script>alert(1)</script> a form\x01", strings.Repeat("a", ai.MaxPromptLen+1)} {
			p := b.post("/forms/generate", url.Values{"prompt": {bad}})
			if p.Status != http.StatusBadRequest || !strings.Contains(p.Body, `<p class="field-error" id="prompt-error" role="alert">Your description `) ||
				!strings.Contains(p.Body, `aria-describedby="prompt-hint prompt-error" aria-invalid="true"`) {
				t.Errorf("prompt %.12q: %d\n%s", bad, p.Status, p.Body)
			}
			if strings.Contains(p.Body, "<script>alert") {
				t.Errorf("the refused prompt is not escaped")
			}
		}
		if got := creditsRemaining(t, env, key); got != 100 {
			t.Errorf("credits after refused prompts: %d", got)
		}
		if r := env.For(t).Do("GET", "/api/v1/forms", key, nil); r.JSON(t)["total"].(float64) != 0 {
			t.Errorf("a refused prompt created a form: %s", r.Body)
		}
	})
}

// TestGenerateFormWithoutCredits: with fewer credits than a generation costs,
// the post answers 402 with the reason at the prompt, which is kept; nothing is
// created or charged.
func TestGenerateFormWithoutCredits(t *testing.T) {
	each(t, func(t *testing.T, env *servertest.Env) {
		b, key := signedInOwner(t, env, "ada@example.com")
		if p := b.get("/forms/new"); !strings.Contains(p.Body, "Costs 5 credits; you have 4 left") {
			t.Errorf("the price is not shown before the click")
		}
		p := b.post("/forms/generate", url.Values{"prompt": {offsitePrompt}})
		if p.Status != http.StatusPaymentRequired || !strings.Contains(p.Body, `id="prompt-error" role="alert">Not enough credits`) ||
			!strings.Contains(p.Body, ">"+offsitePrompt+"</textarea>") {
			t.Fatalf("generate without credits: %d\n%s", p.Status, p.Body)
		}
		if got := creditsRemaining(t, env, key); got != 4 {
			t.Errorf("credits: %d, want 4", got)
		}
		if r := env.For(t).Do("GET", "/api/v1/forms", key, nil); r.JSON(t)["total"].(float64) != 0 {
			t.Errorf("a form was created: %s", r.Body)
		}
		if h := history(t, env, key); len(h) != 0 {
			t.Errorf("history: %v", h)
		}
	}, func(c *config.Config) { c.Allowances = "free=4" })
}
