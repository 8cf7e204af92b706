package dashboard_test

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"forma/internal/server/servertest"
)

// previewForm builds a draft form of three questions through the builder: a
// select, a text question shown only for one of its choices, and a yes/no
// question whose advanced rule keeps a score (set through the API).
func previewForm(t *testing.T, env *servertest.Env, email string) (*builder, apiFormView) {
	t.Helper()
	b := newBuilder(t, env, email, "Lunch order")
	b.change("/questions", url.Values{"type": {"select"}, "question": {"Meal"}, "options": {"Fish\nVegan"}, "required": {"on"}})
	b.change("/questions", url.Values{"type": {"text"}, "question": {"Which vegan dish?"}})
	b.change("/questions", url.Values{"type": {"yes_no"}, "question": {"Dessert?"}})
	f, _ := b.stored()
	meal, dish, dessert := f.Questions[0].ID, f.Questions[1].ID, f.Questions[2].ID
	b.change(b.qpath(dish, "/logic"), url.Values{"for": {fmt.Sprint(meal)}, "target": {fmt.Sprint(meal)}, "operator": {"equals"}, "value": {"Vegan"}})
	r := env.For(t).Do("PATCH", fmt.Sprintf("/api/v1/forms/%d/fields/%d", b.id, dessert), b.key, map[string]any{"conditionalLogic": map[string]any{
		"advanced": map[string]any{"conditionGroups": []any{}, "actions": []any{},
			"scoreRules": []any{map[string]any{"id": "s", "questionId": dessert, "scoreMap": map[string]any{"true": 1}}}}}})
	if r.Status != http.StatusOK {
		t.Fatalf("score rule: %d %s", r.Status, r.Body)
	}
	f, _ = b.stored()
	return b, f
}

// TestPreview: the owner's preview of a draft is the public page's own markup
// and script, with a banner, nothing to post to and the full definition (its
// score rules too); another account gets 404, a signed-out visitor the sign-in
// page; only this server may frame it, while the public page stays embeddable
// anywhere.
func TestPreview(t *testing.T) {
	each(t, func(t *testing.T, env *servertest.Env) {
		b, f := previewForm(t, env, "ada@example.com")
		path := b.path + "/preview"
		p := b.get(path)
		if p.Status != http.StatusOK {
			t.Fatalf("preview: %d\n%s", p.Status, p.Body)
		}
		dish := fmt.Sprintf(`id="question-%d"`, f.Questions[1].ID)
		for _, want := range []string{`<strong>Preview</strong> — answers are not recorded.`, `id="forma-form"`, `data-preview`,
			`id="forma-next" disabled>Submit</button>`, `<title>Preview: Lunch order</title>`, dish, `/assets/form/`,
			`<option value="Vegan">Vegan</option>`, `scoreRules`} {
			if !strings.Contains(p.Body, want) {
				t.Errorf("the preview lacks %q", want)
			}
		}
		for _, absent := range []string{"action=", "/submissions"} {
			if strings.Contains(p.Body, absent) {
				t.Errorf("the preview has %q: it could post", absent)
			}
		}
		for name, want := range map[string]string{"X-Frame-Options": "SAMEORIGIN", "Cache-Control": "no-store"} {
			if got := p.Header.Get(name); got != want {
				t.Errorf("preview %s: %q", name, got)
			}
		}
		csp := p.Header.Get("Content-Security-Policy")
		for _, want := range []string{"frame-ancestors 'self'", "form-action 'none'", "script-src 'self'", "default-src 'none'"} {
			if !strings.Contains(csp, want) {
				t.Errorf("preview CSP %q lacks %q", csp, want)
			}
		}

		editor := b.get(b.path)
		if !strings.Contains(editor.Body, `<iframe class="preview-frame" src="`+path+`"`) ||
			!strings.Contains(editor.Header.Get("Content-Security-Policy"), "frame-src 'self'") ||
			!strings.Contains(editor.Header.Get("Content-Security-Policy"), "frame-ancestors 'none'") {
			t.Errorf("the editor does not frame its preview (CSP %q)", editor.Header.Get("Content-Security-Policy"))
		}

		// The public page keeps its own policy, and its definition no score rules.
		b.change("/publish", nil)
		share := b.get(b.path)
		token := regexp.MustCompile(`id="share-link" value="[^"]*/f/([^"]+)"`).FindStringSubmatch(share.Body)
		if token == nil {
			t.Fatal("no share link")
		}
		public := b.get("/f/" + token[1])
		if !strings.Contains(public.Header.Get("Content-Security-Policy"), "frame-ancestors *") ||
			public.Header.Get("X-Frame-Options") != "" || strings.Contains(public.Body, "answers are not recorded") ||
			strings.Contains(public.Body, "scoreRules") || !strings.Contains(public.Body, `action="/f/`+token[1]+`/submissions"`) {
			t.Errorf("the public page changed: %v", public.Header)
		}
		if p := b.get(path); p.Status != http.StatusOK || !strings.Contains(p.Body, "answers are not recorded") {
			t.Errorf("the preview of a published form: %d", p.Status)
		}

		// Nothing can be recorded through it.
		if p := b.post(path, url.Values{fmt.Sprintf("q_%d", f.Questions[0].ID): {"Fish"}}); p.Status != http.StatusNotFound {
			t.Errorf("POST to the preview: %d", p.Status)
		}
		r := env.For(t).Do("GET", fmt.Sprintf("/api/v1/forms/%d/responses", b.id), b.key, nil)
		if r.Status != http.StatusOK || r.JSON(t)["total"] != float64(0) {
			t.Errorf("responses after the preview: %d %s", r.Status, r.Body)
		}

		bob := newBuilder(t, env, "bob@example.com", "Bob's")
		if p := bob.get(path); p.Status != http.StatusNotFound || strings.Contains(p.Body, "Which vegan dish?") {
			t.Errorf("another account's preview: %d", p.Status)
		}
		out := newBrowser(t, env)
		if p := out.get(path); p.Status != http.StatusSeeOther || p.Location != "/signin?next="+url.QueryEscape(path) {
			t.Errorf("signed-out preview: %d %q", p.Status, p.Location)
		}
	})
}

// TestDragMove: the editor marks each question with the move endpoint its drag
// handle posts to and loads the builder script (only there); that post, as the
// script sends it (a same-origin fetch), moves the question; a cross-site one is
// refused.
func TestDragMove(t *testing.T) {
	each(t, func(t *testing.T, env *servertest.Env) {
		b, f := previewForm(t, env, "ada@example.com")
		last := f.Questions[2].ID
		move := fmt.Sprintf("%s/questions/%d/move", b.path, last)
		editor := b.get(b.path)
		script := regexp.MustCompile(`<script src="(/assets/dashboard/builder\.js\?v=[0-9a-f]+)" defer>`).FindStringSubmatch(editor.Body)
		if script == nil || !strings.Contains(editor.Body, `data-move="`+move+`" data-order="3"`) ||
			!strings.Contains(editor.Body, `data-drag-handle hidden aria-hidden="true"`) {
			t.Fatalf("the editor lacks the drag markup or its script")
		}
		if js := b.get(script[1]); js.Status != http.StatusOK || !strings.Contains(js.Header.Get("Content-Type"), "javascript") {
			t.Errorf("builder.js: %d %s", js.Status, js.Header.Get("Content-Type"))
		}
		if forms := b.get("/forms"); strings.Contains(forms.Body, "builder.js") {
			t.Error("the forms list loads the builder script")
		}
		if p := b.post(move, url.Values{"to": {"1"}}, "Sec-Fetch-Site", "cross-site"); p.Status != http.StatusForbidden {
			t.Errorf("a cross-site move: %d", p.Status)
		}
		p := b.post(move, url.Values{"to": {"1"}}, "Sec-Fetch-Site", "same-origin", "Sec-Fetch-Mode", "cors")
		if p.Status != http.StatusSeeOther || p.Location != fmt.Sprintf("%s?done=move&q=%d#q-%d", b.path, last, last) {
			t.Fatalf("the drag's move: %d %q", p.Status, p.Location)
		}
		got, _ := b.stored()
		var order []string
		for _, q := range got.Questions {
			order = append(order, q.Question)
		}
		if strings.Join(order, "|") != "Dessert?|Meal|Which vegan dish?" {
			t.Errorf("order after the drag: %v", order)
		}
	})
}

// TestPreviewSpeaksTheFormsLanguage: the preview of a German form has its
// banner, its title and the script's "nothing was recorded" sentence in German.
func TestPreviewSpeaksTheFormsLanguage(t *testing.T) {
	each(t, func(t *testing.T, env *servertest.Env) {
		b, key := signedInOwner(t, env, "ada@example.com")
		s := newSurvey(t, env, key, "Umfrage", text)
		if r := env.For(t).Do("PATCH", fmt.Sprintf("/api/v1/forms/%d", s.ID), key, map[string]any{"language": "de"}); r.Status != http.StatusOK {
			t.Fatalf("patch: %d %s", r.Status, r.Body)
		}
		p := b.get(fmt.Sprintf("/forms/%d/preview", s.ID))
		for _, want := range []string{`<html lang="de"`, `<strong>Vorschau</strong> — Antworten werden nicht gespeichert.`,
			`<title>Vorschau: Umfrage</title>`, `Dies ist eine Vorschau: Nichts wurde gesendet oder gespeichert.`} {
			if !strings.Contains(p.Body, want) {
				t.Errorf("the German preview lacks %q", want)
			}
		}
	})
}
