package webhook_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"forma/internal/config"
	"forma/internal/form"
	"forma/internal/server/servertest"
	"forma/internal/store"
	"forma/internal/webhook"
)

// receiver records what reaches a local webhook endpoint.
type receiver struct {
	*httptest.Server
	mu       sync.Mutex
	requests []received
	status   int
	delay    time.Duration
}

type received struct {
	header http.Header
	body   []byte
}

func newReceiver(t testing.TB, status int) *receiver {
	rc := &receiver{status: status}
	rc.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		rc.mu.Lock()
		rc.requests = append(rc.requests, received{header: r.Header.Clone(), body: body})
		delay, status := rc.delay, rc.status
		rc.mu.Unlock()
		if delay > 0 {
			select {
			case <-time.After(delay):
			case <-r.Context().Done():
			}
		}
		w.WriteHeader(status)
		fmt.Fprint(w, "thanks")
	}))
	t.Cleanup(rc.Close)
	return rc
}

func (rc *receiver) got() []received {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]received(nil), rc.requests...)
}

// bySubmission counts the deliveries received by submission id.
func (rc *receiver) bySubmission() map[string]int {
	n := map[string]int{}
	for _, r := range rc.got() {
		var p map[string]any
		json.Unmarshal(r.body, &p)
		n[p["submission_id"].(string)]++
	}
	return n
}

// waitFor polls until cond holds or the time is up.
func waitFor(t *testing.T, d time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func allowPrivate(c *config.Config) { c.AllowPrivateWebhooks = true; c.SubmitLimit = 0 }

// hookedForm creates a published form whose webhook points at url; it returns the
// form's API path, share token and question ids.
func hookedForm(t *testing.T, env *servertest.Env, key, url string) (string, string, []string) {
	t.Helper()
	r := env.Do("POST", "/api/v1/forms", key, `{"title":"Signup","questions":[{"question":"Name","required":true},{"type":"rating","question":"Mood"}]}`)
	if r.Status != 201 {
		t.Fatalf("create: %s", r.Body)
	}
	f := r.JSON(t)
	path := fmt.Sprintf("/api/v1/forms/%d", int64(f["id"].(float64)))
	var q []string
	for _, x := range f["questions"].([]any) {
		q = append(q, fmt.Sprint(int64(x.(map[string]any)["id"].(float64))))
	}
	if url != "" {
		if r := env.Do("PATCH", path, key, map[string]any{"webhookUrl": url, "webhookEnabled": true}); r.Status != 200 {
			t.Fatalf("webhook: %s", r.Body)
		}
	}
	env.Do("POST", path+"/publish", key, nil)
	return path, f["shareUrl"].(string), q
}

func submitTo(t *testing.T, env *servertest.Env, token string, q []string, name string) string {
	t.Helper()
	r := env.Do("POST", "/f/"+token+"/submissions", "", fmt.Sprintf(`{"answers":{"%s":%q,"%s":4}}`, q[0], name, q[1]))
	if r.Status != 201 {
		t.Fatalf("submit: %d %s", r.Status, r.Body)
	}
	return r.JSON(t)["id"].(string)
}

func TestDeliveryPayloadHeadersAndSignature(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		env := servertest.New(t, d, allowPrivate)
		key := env.NewKey()
		rc := newReceiver(t, 200)
		path, token, q := hookedForm(t, env, key, rc.URL+"/hook")
		secret := env.Do("POST", path+"/webhook/secret", key, nil).JSON(t)["secret"].(string)
		if !strings.HasPrefix(secret, "whsec_") {
			t.Fatalf("secret %q", secret)
		}
		status := env.Do("GET", path+"/webhook/status", key, nil).JSON(t)
		if status["lastDelivery"] != nil || status["enabled"] != true || status["url"] != rc.URL+"/hook" {
			t.Errorf("status before any delivery: %v", status)
		}
		start := time.Now()
		sid := submitTo(t, env, token, q, "Ana <b>")
		waitFor(t, 5*time.Second, "the delivery", func() bool { return len(rc.got()) == 1 })
		if took := time.Since(start); took > time.Second {
			t.Errorf("delivery took %s, want under a second", took)
		}
		req := rc.got()[0]
		if ct := req.header.Get("Content-Type"); ct != "application/json" {
			t.Errorf("Content-Type %q", ct)
		}
		if ua := req.header.Get("User-Agent"); ua != "Forma-Webhook/1.0" {
			t.Errorf("User-Agent %q", ua)
		}
		var p map[string]any
		if err := json.Unmarshal(req.body, &p); err != nil {
			t.Fatal(err)
		}
		if len(p) != 5 || p["form_id"] != float64(mustID(path)) || p["form_name"] != "Signup" || p["submission_id"] != sid {
			t.Errorf("payload %s", req.body)
		}
		if _, err := time.Parse(time.RFC3339, p["submitted_at"].(string)); err != nil {
			t.Errorf("submitted_at %v", p["submitted_at"])
		}
		if !strings.Contains(string(req.body), `"data":{"Name":"Ana \u003cb\u003e","Mood":4}`) {
			t.Errorf("data: %s", req.body)
		}
		// Verified by the reference implementation of Standard Webhooks.
		verifier, err := standardwebhooks.NewWebhook(secret)
		if err != nil {
			t.Fatal(err)
		}
		if err := verifier.Verify(req.body, req.header); err != nil {
			t.Errorf("signature does not verify: %v (headers %v)", err, req.header)
		}
		if req.header.Get("webhook-id") != sid {
			t.Errorf("webhook-id %q", req.header.Get("webhook-id"))
		}
		waitFor(t, 2*time.Second, "the log", func() bool {
			return env.Do("GET", path+"/webhook/status", key, nil).JSON(t)["lastDelivery"] != nil
		})
		last := env.Do("GET", path+"/webhook/status", key, nil).JSON(t)["lastDelivery"].(map[string]any)
		if last["status"] != "success" || last["responseCode"] != 200.0 || last["error"] != nil {
			t.Errorf("lastDelivery %v", last)
		}
		logs := env.Do("GET", path+"/webhook/logs", key, nil).JSON(t)
		entry := logs["logs"].([]any)[0].(map[string]any)
		if logs["total"] != 1.0 || entry["sessionId"] != sid || entry["webhookUrl"] != rc.URL+"/hook" || entry["status"] != "success" || entry["errorMessage"] != nil {
			t.Errorf("logs %v", logs)
		}
		// Exactly once: nothing more arrives.
		time.Sleep(300 * time.Millisecond)
		if n := len(rc.got()); n != 1 {
			t.Errorf("%d deliveries for one completion", n)
		}
	})
}

func mustID(path string) int64 {
	var id int64
	fmt.Sscan(path[strings.LastIndex(path, "/")+1:], &id)
	return id
}

func lastLog(t *testing.T, env *servertest.Env, key, path string) map[string]any {
	t.Helper()
	var entry map[string]any
	waitFor(t, 15*time.Second, "a log entry", func() bool {
		logs := env.Do("GET", path+"/webhook/logs?limit=1", key, nil).JSON(t)["logs"].([]any)
		if len(logs) == 0 {
			return false
		}
		entry = logs[0].(map[string]any)
		return true
	})
	return entry
}

func TestDeliveryFailuresAreLogged(t *testing.T) {
	env := servertest.New(t, store.SQLite, allowPrivate)
	key := env.NewKey()

	failing := newReceiver(t, 500)
	path, token, q := hookedForm(t, env, key, failing.URL)
	submitTo(t, env, token, q, "x")
	if e := lastLog(t, env, key, path); e["status"] != "failed" || e["responseCode"] != 500.0 || !strings.Contains(fmt.Sprint(e["errorMessage"]), "500") {
		t.Errorf("500: %v", e)
	}

	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	refused := "http://" + ln.Addr().String() + "/hook"
	ln.Close()
	path, token, q = hookedForm(t, env, key, refused)
	submitTo(t, env, token, q, "x")
	if e := lastLog(t, env, key, path); e["status"] != "error" || e["responseCode"] != 0.0 || !strings.Contains(fmt.Sprint(e["errorMessage"]), "refused") {
		t.Errorf("refused: %v", e)
	}

	redirect := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, failing.URL+"/elsewhere", http.StatusFound)
	}))
	defer redirect.Close()
	before := len(failing.got())
	path, token, q = hookedForm(t, env, key, redirect.URL)
	submitTo(t, env, token, q, "x")
	if e := lastLog(t, env, key, path); e["status"] != "failed" || e["responseCode"] != 302.0 {
		t.Errorf("redirect: %v", e)
	}
	if len(failing.got()) != before {
		t.Error("the redirect was followed")
	}
}

func TestBlockedAddressAtConnectTime(t *testing.T) {
	// Private targets are not allowed here. The URL is written straight to the
	// database, as if its host name had resolved to a public address when it was
	// saved and to loopback now (DNS rebinding): the connect-time check refuses it.
	env := servertest.New(t, store.SQLite, func(c *config.Config) { c.SubmitLimit = 0 })
	key := env.NewKey()
	rc := newReceiver(t, 200)
	path, token, q := hookedForm(t, env, key, "")
	f, err := env.Store.FormByID(context.Background(), mustID(path))
	if err != nil {
		t.Fatal(err)
	}
	_, err = env.Store.UpdateForm(context.Background(), f.AccountID, f.ID, func(f *form.Form) error {
		u := rc.URL + "/hook"
		f.WebhookURL, f.WebhookEnabled = &u, true
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	submitTo(t, env, token, q, "x")
	e := lastLog(t, env, key, path)
	if e["status"] != "error" || !strings.Contains(fmt.Sprint(e["errorMessage"]), "not allowed") {
		t.Errorf("blocked delivery logged as %v", e)
	}
	if len(rc.got()) != 0 {
		t.Error("a blocked delivery reached the loopback listener")
	}
}

func TestHangingReceiverDoesNotHoldUpOthers(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for the 10 s delivery time-out")
	}
	env := servertest.New(t, store.SQLite, allowPrivate)
	key := env.NewKey()
	slow := newReceiver(t, 200)
	slow.delay = time.Minute
	fast := newReceiver(t, 200)
	slowPath, slowToken, sq := hookedForm(t, env, key, slow.URL)
	_, fastToken, fq := hookedForm(t, env, key, fast.URL)
	start := time.Now()
	for i := range 3 {
		submitTo(t, env, slowToken, sq, fmt.Sprint("slow", i))
	}
	for i := range 20 {
		submitTo(t, env, fastToken, fq, fmt.Sprint("fast", i))
	}
	waitFor(t, 5*time.Second, "the other form's deliveries", func() bool { return len(fast.got()) == 20 })
	t.Logf("20 deliveries of another form done %s after a hanging receiver got its requests", time.Since(start).Round(time.Millisecond))
	e := lastLog(t, env, key, slowPath)
	if e["status"] != "error" || !strings.Contains(fmt.Sprint(e["errorMessage"]), "timed out") {
		t.Errorf("hanging receiver: %v", e)
	}
	if took := time.Since(start); took < 10*time.Second || took > 14*time.Second {
		t.Errorf("the time-out came after %s, want 10 s", took)
	}
}

func TestWebhookTestEndpoint(t *testing.T) {
	env := servertest.New(t, store.SQLite, allowPrivate)
	key := env.NewKey()
	rc := newReceiver(t, 200)
	path, _, _ := hookedForm(t, env, key, "")
	r := env.Do("POST", path+"/webhook/test", key, nil)
	if r.Status != 400 || !strings.Contains(string(r.Body), "url") {
		t.Errorf("no URL anywhere: %d %s", r.Status, r.Body)
	}
	r = env.Do("POST", path+"/webhook/test", key, map[string]any{"url": rc.URL + "/t"})
	if r.Status != 200 || string(r.Body) != `{"success":true,"statusCode":200,"error":null}`+"\n" {
		t.Errorf("success body: %d %s", r.Status, r.Body)
	}
	got := rc.got()
	if len(got) != 1 || !strings.Contains(string(got[0].body), `"submission_id":"test_`) || !strings.Contains(string(got[0].body), `"Mood":5`) {
		t.Errorf("test payload: %v", got)
	}
	rc.mu.Lock()
	rc.status = 503
	rc.mu.Unlock()
	r = env.Do("POST", path+"/webhook/test", key, map[string]any{"url": rc.URL})
	if r.Status != 200 || !strings.Contains(string(r.Body), `"success":false,"statusCode":503`) {
		t.Errorf("failure body: %s", r.Body)
	}
	// Configured URL is used when none is given; test deliveries are not logged.
	// The sample shows the form's hidden fields too.
	env.Do("PATCH", path, key, map[string]any{"webhookUrl": rc.URL + "/configured", "hiddenFields": []string{"utm_source"}})
	env.Do("POST", path+"/webhook/test", key, "")
	if got := rc.got(); !strings.Contains(string(got[len(got)-1].body), "test_") ||
		!strings.Contains(string(got[len(got)-1].body), `"hidden":{"utm_source":"example"}`) {
		t.Errorf("configured URL not tested, or without the sample hidden values: %s", got[len(got)-1].body)
	}
	if s := env.Do("GET", path+"/webhook/status", key, nil).JSON(t); s["lastDelivery"] != nil {
		t.Errorf("a test delivery changed lastDelivery: %v", s)
	}
	strict := servertest.New(t, store.SQLite)
	skey := strict.NewKey()
	spath, _, _ := hookedForm(t, strict, skey, "")
	r = strict.Do("POST", spath+"/webhook/test", skey, map[string]any{"url": rc.URL})
	if r.Status != 400 || !strings.Contains(string(r.Body), "not allowed") {
		t.Errorf("test to loopback without private webhooks: %d %s", r.Status, r.Body)
	}
}

func TestLogsPaginated(t *testing.T) {
	env := servertest.New(t, store.SQLite, allowPrivate)
	key := env.NewKey()
	rc := newReceiver(t, 204)
	path, token, q := hookedForm(t, env, key, rc.URL)
	var ids []string
	for i := range 5 {
		ids = append(ids, submitTo(t, env, token, q, fmt.Sprint(i)))
		waitFor(t, 2*time.Second, "delivery", func() bool { return len(rc.got()) == i+1 })
	}
	waitFor(t, 2*time.Second, "logs", func() bool {
		return env.Do("GET", path+"/webhook/logs", key, nil).JSON(t)["total"] == 5.0
	})
	page := env.Do("GET", path+"/webhook/logs?limit=2&offset=1", key, nil).JSON(t)
	logs := page["logs"].([]any)
	if page["hasMore"] != true || page["limit"] != 2.0 || page["offset"] != 1.0 || len(logs) != 2 ||
		logs[0].(map[string]any)["sessionId"] != ids[3] || logs[1].(map[string]any)["sessionId"] != ids[2] {
		t.Errorf("page: %v", page)
	}
	for _, bad := range []string{"limit=101", "limit=0", "offset=-2"} {
		if r := env.Do("GET", path+"/webhook/logs?"+bad, key, nil); r.Status != 400 {
			t.Errorf("%s: %d", bad, r.Status)
		}
	}
}

func TestJobsSurviveARestart(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		st := servertest.OpenStore(t, d)
		rc := newReceiver(t, 200)
		// First server: no delivery workers, as if it stopped before delivering.
		first := servertest.Start(t, st, func(c *config.Config) { allowPrivate(c); c.WebhookWorkers = 0 })
		key := first.NewKey()
		_, token, q := hookedForm(t, first, key, rc.URL)
		want := map[string]bool{}
		for i := range 10 {
			want[submitTo(t, first, token, q, fmt.Sprint(i))] = true
		}
		time.Sleep(300 * time.Millisecond)
		if len(rc.got()) != 0 {
			t.Fatal("delivered without workers")
		}
		// Second server on the same database delivers them, once each.
		servertest.Start(t, st, allowPrivate)
		waitFor(t, 5*time.Second, "the queued deliveries", func() bool { return len(rc.got()) >= 10 })
		time.Sleep(300 * time.Millisecond)
		got := rc.bySubmission()
		for id := range want {
			if got[id] != 1 {
				t.Errorf("submission %s delivered %d times", id, got[id])
			}
		}
		if len(got) != 10 {
			t.Errorf("%d distinct deliveries", len(got))
		}
	})
}

func TestTwoServersDeliverEachJobOnce(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		if d == store.SQLite {
			t.Skip("several processes share a database on PostgreSQL")
		}
		url := servertest.DatabaseURL(t, d)
		open := func() *store.Store {
			st, err := store.Open(context.Background(), url, t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { st.Close() })
			return st
		}
		rc := newReceiver(t, 200)
		a := servertest.Start(t, open(), allowPrivate)
		b := servertest.Start(t, open(), allowPrivate)
		key := a.NewKey()
		_, token, q := hookedForm(t, a, key, rc.URL)
		const n = 1000
		var wg sync.WaitGroup
		sem := make(chan struct{}, 16)
		for i := range n {
			wg.Add(1)
			sem <- struct{}{}
			go func() {
				defer wg.Done()
				defer func() { <-sem }()
				env := a
				if i%2 == 1 {
					env = b
				}
				submitTo(t, env, token, q, fmt.Sprint(i))
			}()
		}
		wg.Wait()
		waitFor(t, 60*time.Second, "1000 deliveries", func() bool { return len(rc.got()) >= n })
		time.Sleep(500 * time.Millisecond)
		seen := rc.bySubmission()
		dupes := 0
		for _, c := range seen {
			if c > 1 {
				dupes++
			}
		}
		if len(rc.got()) != n || len(seen) != n || dupes != 0 {
			t.Fatalf("%d requests, %d distinct submissions, %d delivered twice; want %d, %d, 0", len(rc.got()), len(seen), dupes, n, n)
		}
	})
}

func TestBatchesKeepThePerFormCap(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		var mu sync.Mutex
		inFlight, most := map[string]int{}, map[string]int{}
		got := map[string]int{}
		rc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			inFlight[r.URL.Path]++
			most[r.URL.Path] = max(most[r.URL.Path], inFlight[r.URL.Path])
			got[r.Header.Get("webhook-id")]++
			mu.Unlock()
			time.Sleep(20 * time.Millisecond)
			mu.Lock()
			inFlight[r.URL.Path]--
			mu.Unlock()
		}))
		defer rc.Close()
		st := servertest.OpenStore(t, d)
		queue := servertest.Start(t, st, func(c *config.Config) { allowPrivate(c); c.WebhookWorkers = 0 })
		key := queue.NewKey()
		_, tokenA, qa := hookedForm(t, queue, key, rc.URL+"/a")
		_, tokenB, qb := hookedForm(t, queue, key, rc.URL+"/b")
		for i := range 40 {
			submitTo(t, queue, tokenA, qa, fmt.Sprint("a", i))
		}
		for i := range 12 {
			submitTo(t, queue, tokenB, qb, fmt.Sprint("b", i))
		}
		servertest.Start(t, st, allowPrivate)
		waitFor(t, 10*time.Second, "52 deliveries", func() bool {
			mu.Lock()
			defer mu.Unlock()
			return len(got) == 52
		})
		time.Sleep(100 * time.Millisecond)
		mu.Lock()
		defer mu.Unlock()
		if most["/a"] > webhook.PerForm || most["/b"] > webhook.PerForm {
			t.Errorf("most deliveries in flight: form a %d, form b %d; want at most %d each", most["/a"], most["/b"], webhook.PerForm)
		}
		for id, n := range got {
			if n != 1 {
				t.Errorf("%s delivered %d times", id, n)
			}
		}
	})
}

func TestInterruptedDeliveryIsSentAgain(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		st := servertest.OpenStore(t, d)
		rc := newReceiver(t, 200)
		queue := servertest.Start(t, st, func(c *config.Config) { allowPrivate(c); c.WebhookWorkers = 0 })
		key := queue.NewKey()
		path, token, q := hookedForm(t, queue, key, rc.URL)
		sid := submitTo(t, queue, token, q, "x")
		// A server claimed it four minutes ago and stopped before recording a result.
		now := st.Now
		st.Now = func() time.Time { return now().Add(-4 * time.Minute) }
		job, err := st.ClaimWebhookJob(context.Background(), "stopped", nil)
		st.Now = now
		if err != nil || job == nil || job.SessionID != sid {
			t.Fatalf("claim: %+v, %v", job, err)
		}
		servertest.Start(t, st, allowPrivate)
		waitFor(t, 5*time.Second, "the delivery after the lease", func() bool { return len(rc.got()) == 1 })
		if id := rc.got()[0].header.Get("webhook-id"); id != sid {
			t.Errorf("webhook-id %q, want the submission id %q", id, sid)
		}
		if e := lastLog(t, queue, key, path); e["status"] != "success" || e["sessionId"] != sid {
			t.Errorf("log %v", e)
		}
		time.Sleep(300 * time.Millisecond)
		if n := len(rc.got()); n != 1 {
			t.Errorf("%d deliveries, want 1", n)
		}
	})
}

func TestStopGivesBackTheJobsNotStarted(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		st := servertest.OpenStore(t, d)
		rc := newReceiver(t, 200)
		rc.delay = 200 * time.Millisecond
		queue := servertest.Start(t, st, func(c *config.Config) { allowPrivate(c); c.WebhookWorkers = 0 })
		key := queue.NewKey()
		_, token, q := hookedForm(t, queue, key, rc.URL)
		want := map[string]bool{}
		for i := range 24 {
			want[submitTo(t, queue, token, q, fmt.Sprint(i))] = true
		}
		t.Run("first server", func(t *testing.T) {
			servertest.Start(t, st, allowPrivate)
			waitFor(t, 5*time.Second, "the first deliveries", func() bool { return len(rc.got()) >= 4 })
		}) // stops it: the deliveries in flight end, the held jobs go back to the outbox
		first := len(rc.got())
		if first >= 24 {
			t.Fatalf("the first server delivered all %d before it stopped", first)
		}
		servertest.Start(t, st, allowPrivate)
		waitFor(t, 10*time.Second, "the rest, long before any lease ends", func() bool { return len(rc.got()) >= 24 })
		time.Sleep(300 * time.Millisecond)
		seen := rc.bySubmission()
		for id := range want {
			if seen[id] != 1 {
				t.Errorf("submission %s delivered %d times", id, seen[id])
			}
		}
		t.Logf("%d delivered before the stop, %d after", first, len(rc.got())-first)
	})
}
