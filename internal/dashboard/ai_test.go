package dashboard_test

import (
	"fmt"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"forma/internal/ai"
	"forma/internal/config"
	"forma/internal/server/servertest"
)

// rated is a rating question, so that an analysis has figures.
var rated = map[string]any{"type": "rating", "question": "How was it?"}

// ratedSurvey makes a published survey of ada's with three responses sent
// through the public API.
func ratedSurvey(t *testing.T, env *servertest.Env, key string) survey {
	t.Helper()
	s := newSurvey(t, env, key, "Event feedback", rated, text)
	for i, v := range []int{5, 4, 2} {
		s.submit(t, env, map[int]any{0: v, 1: fmt.Sprintf("Comment %d", i)})
	}
	return s
}

// aiPath is the dashboard path of the survey's AI pages, with suffix.
func (s survey) aiPath(suffix string) string { return fmt.Sprintf("/forms/%d%s", s.ID, suffix) }

// creditsRemaining reads the account's balance from GET /api/v1/usage.
func creditsRemaining(t *testing.T, env *servertest.Env, key string) int {
	t.Helper()
	r := env.For(t).Do("GET", "/api/v1/usage", key, nil)
	if r.Status != http.StatusOK {
		t.Fatalf("usage: %d %s", r.Status, r.Body)
	}
	return int(r.JSON(t)["creditsRemaining"].(float64))
}

// TestAnalyticsPage: the price shows before the click; generating from the
// dashboard stores the analysis the API returns, charged exactly as the API
// charges; the page shows the figures as text; a cross-site post is refused.
func TestAnalyticsPage(t *testing.T) {
	each(t, func(t *testing.T, env *servertest.Env) {
		b, key := signedInOwner(t, env, "ada@example.com")
		s := ratedSurvey(t, env, key)
		p := b.get(s.aiPath("/analytics"))
		if p.Status != http.StatusOK || !strings.Contains(p.Body, "No analysis yet") ||
			!strings.Contains(p.Body, "Costs 10 credits; you have 100 left") || !strings.Contains(p.Body, `aria-current="page">Analytics</a>`) {
			t.Fatalf("analytics page before the first analysis: %d\n%s", p.Status, p.Body)
		}
		if p := b.post(s.aiPath("/analytics"), nil, "Sec-Fetch-Site", "cross-site"); p.Status != http.StatusForbidden {
			t.Errorf("a cross-site generation: %d", p.Status)
		}
		if p := b.post(s.aiPath("/analytics"), nil); p.Status != http.StatusSeeOther || p.Location != s.aiPath("/analytics") {
			t.Fatalf("generate: %d %s\n%s", p.Status, p.Location, p.Body)
		}
		if got := creditsRemaining(t, env, key); got != 90 {
			t.Errorf("credits after one analysis: %d, want 90", got)
		}
		r := env.For(t).Do("GET", fmt.Sprintf("/api/v1/forms/%d/analytics", s.ID), key, nil)
		if r.Status != http.StatusOK {
			t.Fatalf("API analytics: %d %s", r.Status, r.Body)
		}
		rec := r.JSON(t)
		summary := rec["insights"].(map[string]any)["summary"].(string)
		p = b.get(s.aiPath("/analytics"))
		for _, want := range []string{"<dt>Responses</dt><dd>3</dd>", summary, "Key metrics", "Response rate",
			"Costs 10 credits; you have 90 left"} {
			if !strings.Contains(html.UnescapeString(p.Body), want) {
				t.Errorf("the analytics page lacks %q", want)
			}
		}
		if rec["totalResponses"].(float64) != 3 {
			t.Errorf("API totalResponses %v", rec["totalResponses"])
		}
		if p := b.get("/usage"); !strings.Contains(p.Body, "analytics.generate") {
			t.Errorf("the usage history lacks the charge")
		}
	})
}

// TestAIPagesRefuseWithoutCredits: with too few credits, generating and asking
// answer 402 pages that say so, and nothing is charged or stored.
func TestAIPagesRefuseWithoutCredits(t *testing.T) {
	each(t, func(t *testing.T, env *servertest.Env) {
		b, key := signedInOwner(t, env, "ada@example.com")
		s := ratedSurvey(t, env, key)
		p := b.post(s.aiPath("/analytics"), nil)
		if p.Status != http.StatusPaymentRequired || !strings.Contains(p.Body, "Not enough credits") ||
			!strings.Contains(p.Body, "you have 3 left") {
			t.Fatalf("generate without credits: %d\n%s", p.Status, p.Body)
		}
		chat := newConversation(t, b, s)
		p = b.post(chat, url.Values{"message": {"How many responses are there?"}})
		p = b.post(chat, url.Values{"message": {"And now?"}})
		if p.Status != http.StatusPaymentRequired || !strings.Contains(p.Body, "Not enough credits") ||
			!strings.Contains(p.Body, "And now?") {
			t.Fatalf("ask without credits: %d\n%s", p.Status, p.Body)
		}
		if got := creditsRemaining(t, env, key); got != 1 {
			t.Errorf("credits: %d, want 1 (one question of 2 out of 3)", got)
		}
		if r := env.For(t).Do("GET", fmt.Sprintf("/api/v1/forms/%d/analytics", s.ID), key, nil); r.Status != http.StatusNotFound {
			t.Errorf("an analysis was stored: %d", r.Status)
		}
	}, func(c *config.Config) { c.Allowances = "free=3" })
}

// newConversation starts a conversation on s's chat page and returns its path.
func newConversation(t *testing.T, b *browser, s survey) string {
	t.Helper()
	p := b.post(s.aiPath("/chat"), nil)
	if p.Status != http.StatusSeeOther || !regexp.MustCompile(`^/forms/\d+/chat/\d+$`).MatchString(p.Location) {
		t.Fatalf("new conversation: %d %s\n%s", p.Status, p.Location, p.Body)
	}
	return p.Location
}

// TestChatPages: a question is answered with the right number and kept in the
// history the API lists; refused messages are 400 at the field and free;
// message text is escaped; a conversation is deleted after a confirmation.
func TestChatPages(t *testing.T) {
	each(t, func(t *testing.T, env *servertest.Env) {
		b, key := signedInOwner(t, env, "ada@example.com")
		s := ratedSurvey(t, env, key)
		if p := b.get(s.aiPath("/chat")); p.Status != http.StatusOK || !strings.Contains(p.Body, "No conversations yet") {
			t.Fatalf("empty chat page: %d\n%s", p.Status, p.Body)
		}
		chat := newConversation(t, b, s)
		p := b.post(chat, url.Values{"message": {"How many responses are there?"}})
		if p.Status != http.StatusSeeOther || p.Location != chat+"#latest" {
			t.Fatalf("ask: %d %s\n%s", p.Status, p.Location, p.Body)
		}
		p = b.get(chat)
		if !strings.Contains(p.Body, "How many responses are there?") || !regexp.MustCompile(`id="latest">\s*<p class="speaker">AI</p>\s*<p class="model-text">[^<]*\b3\b`).MatchString(p.Body) {
			t.Errorf("the conversation lacks the answer with 3:\n%s", p.Body)
		}
		if !strings.Contains(p.Body, "Costs 2 credits; you have 98 left") {
			t.Errorf("the price is not shown")
		}
		for _, bad := range []string{strings.Repeat("a", ai.MaxMessageLen+1), "How many\x01?", "   "} {
			p := b.post(chat, url.Values{"message": {bad}})
			if p.Status != http.StatusBadRequest || !strings.Contains(p.Body, `<p class="field-error" id="message-error" role="alert">Your message `) {
				t.Errorf("message %.10q: %d\n%s", bad, p.Status, p.Body)
			}
		}
		if creditsRemaining(t, env, key) != 98 {
			t.Errorf("credits: want 98 after one question and three refused")
		}
		xss := `<script>alert("x")</script> how many responses?`
		other := newConversation(t, b, s)
		if p := b.post(other, url.Values{"message": {xss}}); p.Status != http.StatusSeeOther {
			t.Fatalf("ask the escaped question: %d", p.Status)
		}
		for _, path := range []string{other, s.aiPath("/chat"), other + "/delete"} {
			if p := b.get(path); strings.Contains(p.Body, "<script>alert") || !strings.Contains(p.Body, "&lt;script&gt;alert(") {
				t.Errorf("%s does not escape the question", path)
			}
		}
		r := env.For(t).Do("GET", "/api/v1"+s.aiPath("/chat"), key, nil)
		if r.Status != http.StatusOK || r.JSON(t)["total"].(float64) != 2 {
			t.Errorf("API conversations: %d %s", r.Status, r.Body)
		}
		if r := env.For(t).Do("GET", "/api/v1"+chat+"/messages", key, nil); r.JSON(t)["total"].(float64) != 2 {
			t.Errorf("API messages: %s", r.Body)
		}
		if p := b.post(chat+"/delete", nil, "Sec-Fetch-Site", "cross-site"); p.Status != http.StatusForbidden {
			t.Errorf("a cross-site delete: %d", p.Status)
		}
		if p := b.post(chat+"/delete", nil); p.Status != http.StatusSeeOther || p.Location != s.aiPath("/chat?deleted=1") {
			t.Fatalf("delete: %d %s", p.Status, p.Location)
		}
		if p := b.get(chat); p.Status != http.StatusNotFound {
			t.Errorf("a deleted conversation: %d", p.Status)
		}
	})
}
