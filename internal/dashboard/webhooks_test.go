package dashboard_test

import (
	"fmt"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"forma/internal/config"
	"forma/internal/server/servertest"
	"forma/internal/webhook"
)

// webhookPath is the dashboard path of the survey's webhook page, with suffix.
func (s survey) webhookPath(suffix string) string {
	return fmt.Sprintf("/forms/%d/webhook%s", s.ID, suffix)
}

// apiWebhook is the webhook config GET /api/v1/forms/{id} reports.
func apiWebhook(t *testing.T, env *servertest.Env, key string, id int64) map[string]any {
	t.Helper()
	r := env.For(t).Do("GET", fmt.Sprintf("/api/v1/forms/%d", id), key, nil)
	if r.Status != http.StatusOK {
		t.Fatalf("get form: %d %s", r.Status, r.Body)
	}
	return r.JSON(t)["webhook"].(map[string]any)
}

// saveWebhook posts the webhook settings form.
func saveWebhook(b *browser, s survey, u string, enabled bool) page {
	v := url.Values{"webhookUrl": {u}}
	if enabled {
		v.Set("webhookEnabled", "on")
	}
	return b.post(s.webhookPath(""), v)
}

var secretInput = regexp.MustCompile(`id="webhook-secret"[^>]*>([^<]*)</textarea>`)

// secretOn is the signing secret a page shows ("" when hidden).
func secretOn(p page) string {
	m := secretInput.FindStringSubmatch(p.Body)
	if m == nil {
		return ""
	}
	return html.UnescapeString(m[1])
}

// TestWebhookSettings: the URL and switch are saved as the API's PATCH saves them
// (the API reads the same config back); loopback, invalid and marked-up URLs are
// refused at the field with the values kept and nothing stored; the log's page
// number is validated; a cross-site post is refused.
func TestWebhookSettings(t *testing.T) {
	each(t, func(t *testing.T, env *servertest.Env) {
		b, key := signedInOwner(t, env, "ada@example.com")
		s := newSurvey(t, env, key, "Hooked form", text)
		p := b.get(s.webhookPath(""))
		for _, want := range []string{`aria-current="page">Webhook</a>`, "No deliveries yet", "None yet", "(hidden)"} {
			if !strings.Contains(p.Body, want) {
				t.Errorf("the empty webhook page lacks %q:\n%s", want, p.Body)
			}
		}
		if p := saveWebhook(b, s, "https://hooks.example.com/forma", true); p.Status != http.StatusSeeOther || p.Location != s.webhookPath("?done=saved") {
			t.Fatalf("save: %d %s\n%s", p.Status, p.Location, p.Body)
		}
		want := map[string]any{"enabled": true, "url": "https://hooks.example.com/forma"}
		if got := apiWebhook(t, env, key, s.ID); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("the API reports %v, want %v", got, want)
		}
		if p := b.get(s.webhookPath("?done=saved")); !strings.Contains(p.Body, "settings were saved") || !strings.Contains(p.Body, `<span class="badge on">On</span>`) {
			t.Errorf("the page after saving:\n%s", p.Body)
		}
		const xss = `https://<script>alert(1)</script>.example/`
		for _, u := range []string{"http://127.0.0.1:9/hook", "http://localhost/x", "http://[::1]/", "ftp://example.com/x", xss} {
			p := saveWebhook(b, s, u, true)
			if p.Status != http.StatusBadRequest || !strings.Contains(p.Body, `id="webhook-url-error" role="alert">The webhook URL `) ||
				inputValue(p, "webhook-url") != u {
				t.Errorf("%s: %d, want 400 with the problem at the field and the value kept\n%s", u, p.Status, p.Body)
			}
			if strings.Contains(p.Body, "<script>alert(1)") {
				t.Errorf("%s: the page shows raw markup", u)
			}
		}
		if p := saveWebhook(b, s, "", true); p.Status != http.StatusBadRequest || !strings.Contains(p.Body, `id="webhook-enabled-error" role="alert">Delivery cannot be true`) {
			t.Errorf("enabled without a URL: %d\n%s", p.Status, p.Body)
		}
		if got := apiWebhook(t, env, key, s.ID); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("refused posts changed the webhook: %v", got)
		}
		for _, bad := range []string{"0", "-1", "x"} {
			if p := b.get(s.webhookPath("?page=" + bad)); p.Status != http.StatusBadRequest {
				t.Errorf("page=%s: %d, want 400", bad, p.Status)
			}
		}
		if p := b.post(s.webhookPath(""), url.Values{"webhookUrl": {""}}, "Sec-Fetch-Site", "cross-site"); p.Status != http.StatusForbidden {
			t.Errorf("a cross-site post: %d, want 403", p.Status)
		}
		if p := saveWebhook(b, s, "", false); p.Status != http.StatusSeeOther {
			t.Fatalf("clear: %d\n%s", p.Status, p.Body)
		}
		if got := apiWebhook(t, env, key, s.ID); got["url"] != nil || got["enabled"] != false {
			t.Errorf("after clearing, the API reports %v", got)
		}
	})
}

// inputValue is the value of the input with id on p.
func inputValue(p page, id string) string {
	m := regexp.MustCompile(`id="` + id + `" name="[^"]*" value="([^"]*)"`).FindStringSubmatch(p.Body)
	if m == nil {
		return ""
	}
	return html.UnescapeString(m[1])
}

// receiver is an httptest server that records the requests it gets and answers
// with status.
type receiver struct {
	*httptest.Server
	mu     sync.Mutex
	got    []*http.Request
	bodies [][]byte
}

func newReceiver(t *testing.T, status int) *receiver {
	rc := &receiver{}
	rc.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		rc.mu.Lock()
		rc.got, rc.bodies = append(rc.got, r), append(rc.bodies, body)
		rc.mu.Unlock()
		w.WriteHeader(status)
	}))
	t.Cleanup(rc.Close)
	return rc
}

// last is the latest request received and its body.
func (rc *receiver) last(t *testing.T) (*http.Request, []byte) {
	t.Helper()
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if len(rc.got) == 0 {
		t.Fatal("the receiver got nothing")
	}
	return rc.got[len(rc.got)-1], rc.bodies[len(rc.bodies)-1]
}

// signedWith reports whether r's signature header holds body's signature under
// secret.
func signedWith(t *testing.T, r *http.Request, body []byte, secret string) bool {
	t.Helper()
	ts, err := strconv.ParseInt(r.Header.Get("webhook-timestamp"), 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	sig, err := webhook.Sign(secret, r.Header.Get("webhook-id"), time.Unix(ts, 0), body)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Contains(" "+r.Header.Get("webhook-signature")+" ", " "+sig+" ")
}

func allowPrivate(c *config.Config) { c.AllowPrivateWebhooks = true }

// TestWebhookDeliveries (private targets allowed): a test to a real receiver
// succeeds, signed with the secret Reveal shows; a failing receiver shows failed
// with its code; a completed response's delivery is in the status and the log;
// rotating after the confirmation changes the secret, and deliveries are then
// signed with both secrets; Reveal agrees with the API's rotation.
func TestWebhookDeliveries(t *testing.T) {
	each(t, func(t *testing.T, env *servertest.Env) {
		b, key := signedInOwner(t, env, "ada@example.com")
		s := newSurvey(t, env, key, "Delivered form", text)
		ok, broken := newReceiver(t, http.StatusOK), newReceiver(t, http.StatusInternalServerError)
		if p := saveWebhook(b, s, ok.URL+"/hook?q=<script>alert(1)</script>", true); p.Status != http.StatusSeeOther {
			t.Fatalf("save: %d\n%s", p.Status, p.Body)
		}
		p := b.post(s.webhookPath("/test"), url.Values{"url": {""}})
		if p.Status != http.StatusOK || !strings.Contains(p.Body, "Test delivered") || !strings.Contains(p.Body, "Status code: 200") {
			t.Fatalf("test to the configured URL: %d\n%s", p.Status, p.Body)
		}
		if strings.Contains(p.Body, "<script>alert(1)") {
			t.Errorf("the page shows the URL's markup raw")
		}
		secret := secretOn(b.post(s.webhookPath("/secret"), nil))
		if !strings.HasPrefix(secret, "whsec_") {
			t.Fatalf("Reveal shows %q", secret)
		}
		if r, body := ok.last(t); !signedWith(t, r, body, secret) {
			t.Errorf("the test is not signed with the revealed secret: %v", r.Header)
		}
		p = b.post(s.webhookPath("/test"), url.Values{"url": {broken.URL}})
		if p.Status != http.StatusOK || !strings.Contains(p.Body, "Test failed") || !strings.Contains(p.Body, "Status code: 500") {
			t.Errorf("test to a failing receiver: %d\n%s", p.Status, p.Body)
		}
		s.submit(t, env, map[int]any{0: "Ada"})
		p = waitForLog(t, b, s)
		for _, want := range []string{`<span class="badge on">Delivered</span>`, `data-label="Code">200</td>`, "1 delivery, newest first"} {
			if !strings.Contains(p.Body, want) {
				t.Errorf("the log lacks %q:\n%s", want, p.Body)
			}
		}
		apiSecret := env.For(t).Do("POST", fmt.Sprintf("/api/v1/forms/%d/webhook/secret", s.ID), key, nil).JSON(t)["secret"]
		if got := secretOn(b.post(s.webhookPath("/secret"), nil)); got != apiSecret {
			t.Errorf("Reveal shows %q after the API rotated to %q", got, apiSecret)
		}
		if p := b.get(s.webhookPath("/rotate")); p.Status != http.StatusOK || !strings.Contains(p.Body, "24 hours after the rotation") {
			t.Errorf("the confirmation: %d\n%s", p.Status, p.Body)
		}
		rotated := secretOn(b.post(s.webhookPath("/rotate"), nil))
		if rotated == "" || rotated == apiSecret {
			t.Fatalf("rotation shows %q (was %q)", rotated, apiSecret)
		}
		secrets, err := env.Store.WebhookSecrets(t.Context(), s.ID, webhook.NewSecret)
		if err != nil || len(secrets) != 2 || secrets[0] != rotated || secrets[1] != apiSecret {
			t.Errorf("the store signs with %v (%v), want the new and the previous secret", secrets, err)
		}
		b.post(s.webhookPath("/test"), nil)
		if r, body := ok.last(t); !signedWith(t, r, body, rotated) || !signedWith(t, r, body, apiSecret.(string)) {
			t.Errorf("after a rotation, a delivery is not signed with both secrets: %v", r.Header)
		}
	}, allowPrivate)
}

// waitForLog waits until the survey's delivery log has an entry and returns the
// page.
func waitForLog(t *testing.T, b *browser, s survey) page {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		p := b.get(s.webhookPath(""))
		if !strings.Contains(p.Body, "No deliveries yet") || time.Now().After(deadline) {
			return p
		}
		time.Sleep(50 * time.Millisecond)
	}
}
