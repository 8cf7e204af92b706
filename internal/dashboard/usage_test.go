package dashboard_test

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"forma/internal/config"
	"forma/internal/server/servertest"
)

// fact is the value of the usage page's figure named dt.
func fact(t *testing.T, body, dt string) string {
	t.Helper()
	m := regexp.MustCompile(`<dt>` + regexp.QuoteMeta(dt) + `</dt><dd>(?:<span class="badge">)?([^<]*)`).FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("the usage page has no %q\n%s", dt, body)
	}
	return strings.TrimSpace(m[1])
}

// requestsToday is the usage page's count of requests today for the key whose
// prefix is given.
func requestsToday(t *testing.T, body, prefix string) string {
	t.Helper()
	m := regexp.MustCompile(regexp.QuoteMeta(prefix) + `…</code></span></td><td data-label="Daily limit">[^<]*</td><td class="num" data-label="Requests today">(\d+)</td>`).FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("no requests today for %s\n%s", prefix, body)
	}
	return m[1]
}

// generate charges the account of key for one generated form.
func generate(t *testing.T, env *servertest.Env, key string, n int) {
	t.Helper()
	r := env.Do(http.MethodPost, "/api/v1/forms/generate", key, map[string]any{
		"prompt": fmt.Sprintf("a feedback form number %d asking for a name, an email and a rating", n)})
	if r.Status != http.StatusCreated {
		t.Fatalf("generate: %d %s", r.Status, r.Body)
	}
}

func TestUsageMatchesTheAPI(t *testing.T) {
	each(t, func(t *testing.T, env *servertest.Env) {
		acct := withPassword(t, env, "usage@example.com", password)
		if err := env.Store.SetTier(t.Context(), acct.Email, "builder"); err != nil {
			t.Fatal(err)
		}
		b := newBrowser(t, env)
		b.signIn(acct.Email, password)
		spender := b.createKey(url.Values{"name": {"spender"}})
		reader := b.createKey(url.Values{"name": {"reader"}, "dailyLimit": {"100"}})
		for i := range 3 {
			generate(t, env, spender, i)
		}
		for range 2 {
			apiStatus(env, reader)
		}
		u := env.Do(http.MethodGet, "/api/v1/usage", spender, nil).JSON(t)
		p := b.get("/usage")
		if p.Status != http.StatusOK {
			t.Fatalf("usage page: %d\n%s", p.Status, p.Body)
		}
		date := func(v any) string {
			d, err := time.Parse(time.RFC3339, v.(string))
			if err != nil {
				t.Fatal(err)
			}
			return d.Format("2 Jan 2006")
		}
		allowance := u["creditsMonthlyAllowance"].(float64)
		remaining := u["creditsRemaining"].(float64)
		for dt, want := range map[string]string{
			"Plan":                u["tier"].(string),
			"Daily request limit": fmt.Sprint(u["rateLimitDaily"]) + " ",
			"Credits remaining":   fmt.Sprint(remaining),
			"Monthly allowance":   fmt.Sprint(allowance),
			"Credits used":        fmt.Sprint(allowance - remaining + u["overageCreditsUsed"].(float64)),
			"Overage used":        fmt.Sprint(u["overageCreditsUsed"]),
		} {
			if got := fact(t, p.Body, dt); got != strings.TrimSpace(want) {
				t.Errorf("%s: the page says %q, the API %q", dt, got, want)
			}
		}
		if fact(t, p.Body, "Credits used") != "15" || fact(t, p.Body, "Overage used") != "5" {
			t.Errorf("the figures do not follow the configured allowance of 10\n%s", p.Body)
		}
		cycle := fmt.Sprintf("Billing cycle: %s to %s, %v days left.", date(u["billingCycleStart"]), date(u["billingCycleEnd"]), u["daysRemaining"])
		if !strings.Contains(p.Body, cycle) {
			t.Errorf("the page lacks %q\n%s", cycle, p.Body)
		}
		keys := keysOf(t, env, acct)
		// The spender made 3 generations and the usage call; the reader 2 calls.
		if got := requestsToday(t, p.Body, keys[0].Prefix); got != "4" {
			t.Errorf("the spender's requests today: %s", got)
		}
		if got := requestsToday(t, p.Body, keys[1].Prefix); got != "2" {
			t.Errorf("the reader's requests today: %s", got)
		}
	}, func(c *config.Config) { c.Allowances = "builder=10" })
}

func TestUsageHistoryPages(t *testing.T) {
	each(t, func(t *testing.T, env *servertest.Env) {
		acct := withPassword(t, env, "history@example.com", password)
		b := newBrowser(t, env)
		b.signIn(acct.Email, password)
		if p := b.get("/usage"); !strings.Contains(p.Body, "No credits used yet") || strings.Contains(p.Body, "Page 1 of") {
			t.Errorf("empty history\n%s", p.Body)
		}
		key := b.createKey(url.Values{"name": {"history"}})
		for i := range 21 {
			generate(t, env, key, i)
		}
		hist := env.Do(http.MethodGet, "/api/v1/usage/history?limit=100", key, nil).JSON(t)["history"].([]any)
		names := make([]string, len(hist))
		for i, h := range hist {
			names[i] = h.(map[string]any)["formName"].(string)
		}
		first, second := b.get("/usage"), b.get("/usage?page=2")
		for _, c := range []struct {
			p          page
			names      []string
			link, page string
		}{{first, names[:20], `href="/usage?page=2" rel="next"`, "Page 1 of 2 (21 charges)"},
			{second, names[20:], `href="/usage?page=1" rel="prev"`, "Page 2 of 2 (21 charges)"}} {
			if c.p.Status != http.StatusOK || !strings.Contains(c.p.Body, c.link) || !strings.Contains(c.p.Body, c.page) {
				t.Errorf("%s: %d\n%s", c.page, c.p.Status, c.p.Body)
			}
			rows := regexp.MustCompile(`<tr><td data-label="Operation"><code>forms\.generate</code></td><td class="num" data-label="Credits">1</td><td class="wrap" data-label="Form">([^<]*)</td>`).FindAllStringSubmatch(c.p.Body, -1)
			got := make([]string, len(rows))
			for i, r := range rows {
				got[i] = r[1]
			}
			if strings.Join(got, "|") != strings.Join(c.names, "|") {
				t.Errorf("%s lists %q, the API, newest first, %q", c.page, got, c.names)
			}
		}
		if strings.Contains(first.Body, `rel="prev"`) || strings.Contains(second.Body, `rel="next"`) {
			t.Error("a link past the first or last page")
		}
		if p := b.get("/usage?page=3"); p.Status != http.StatusOK || !strings.Contains(p.Body, "no charges on this page") {
			t.Errorf("page 3: %d\n%s", p.Status, p.Body)
		}
		for _, bad := range []string{"0", "-1", "x", "01", "1.5", strconv.Itoa(1 << 21), "99999999999999999999"} {
			if p := b.get("/usage?page=" + url.QueryEscape(bad)); p.Status != http.StatusBadRequest || !strings.Contains(p.Body, "whole number") {
				t.Errorf("page=%s: %d", bad, p.Status)
			}
		}
	}, func(c *config.Config) { c.CreditCosts = "forms.generate=1" })
}
