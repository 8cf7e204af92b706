package dashboard_test

import (
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"forma/internal/server/servertest"
)

// TestOverview: the overview counts the account's forms and responses and its
// credits left (as GET /api/v1/usage reports them), lists the forms with the
// latest responses first, and directs an account without forms to a first one.
func TestOverview(t *testing.T) {
	each(t, func(t *testing.T, env *servertest.Env) {
		b, key := signedInOwner(t, env, "ada@example.com")
		if p := b.get("/"); p.Status != http.StatusOK || !strings.Contains(p.Body, "Create your first form") ||
			strings.Contains(p.Body, "Latest activity") {
			t.Fatalf("the overview of an account without forms: %d\n%s", p.Status, p.Body)
		}
		quiet := newSurvey(t, env, key, "Quiet survey", text)
		busy := newSurvey(t, env, key, "Busy survey", text)
		busy.submit(t, env, map[int]any{0: "One"})
		quiet.submit(t, env, map[int]any{0: "Two"})
		quiet.submit(t, env, map[int]any{0: "Three"})
		newSurvey(t, env, key, "Untouched draft", text)
		generate(t, env, key, 1)

		p := b.get("/")
		if got := overviewFact(t, p.Body, "Forms"); got != "4" {
			t.Errorf("Forms says %q, want 4 (three surveys and a generated form)", got)
		}
		if got := overviewFact(t, p.Body, "Responses"); got != "3" {
			t.Errorf("Responses says %q, want 3", got)
		}
		usage := env.Do("GET", "/api/v1/usage", key, nil).JSON(t)
		if got, want := overviewFact(t, p.Body, "Credits left"), fmt.Sprint(int(usage["creditsRemaining"].(float64))); got != want {
			t.Errorf("Credits left says %q, the API %q", got, want)
		}
		titles := regexp.MustCompile(`class="recent-title wrap" href="/forms/\d+">([^<]*)<`).FindAllStringSubmatch(p.Body, -1)
		var order []string
		for _, m := range titles {
			order = append(order, m[1])
		}
		if len(order) != 4 || order[0] != "Quiet survey" || order[1] != "Busy survey" {
			t.Errorf("the latest activity lists %v, want the quiet survey (last response) then the busy one, then the rest", order)
		}
	})
}

// overviewFact is the overview's figure named dt, as text.
func overviewFact(t *testing.T, body, dt string) string {
	t.Helper()
	m := regexp.MustCompile(`<dt>` + regexp.QuoteMeta(dt) + `</dt><dd[^>]*>(?:<a href="[^"]*">)?([^<]*)`).FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("the overview has no %q\n%s", dt, body)
	}
	return strings.TrimSpace(m[1])
}
