package api_test

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"forma/internal/config"
	"forma/internal/form"
	"forma/internal/server/servertest"
	"forma/internal/store"
)

// openSubmissions lifts the per-client submission limit, for tests that submit
// more than an hour's worth from one address.
func openSubmissions(c *config.Config) { c.SubmitLimit = 0 }

// seedResponses stores n completed submissions of form formID, an hour old, two
// to a millisecond so that pages end between rows of the same time; it returns
// their ids, newest first.
func seedResponses(t *testing.T, env *servertest.Env, formID int64, n int) []string {
	t.Helper()
	base := time.Now().UTC().Add(-time.Hour)
	subs := make([]form.Submission, n)
	for i := range subs {
		at := base.Add(time.Duration(i/2) * time.Millisecond)
		subs[i] = form.Submission{ID: fmt.Sprintf("seed-%03d", (i*37)%n), FormID: formID, StartedAt: at, UpdatedAt: at,
			CompletedAt: &at, Answers: map[int64]any{}}
	}
	if err := env.Store.CreateSubmissions(t.Context(), subs); err != nil {
		t.Fatal(err)
	}
	list, _, err := env.Store.ListResponses(t.Context(), formID, store.ResponseFilter{}, 500, 0)
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]string, len(list))
	for i := range list {
		ids[i] = list[i].ID
	}
	return ids
}

// walk reads a list from first (a path with its query) by following nextCursor
// until hasMore is false, calling between each page; it returns the ids of the
// items under key.
func walk(t *testing.T, env *servertest.Env, apiKey, first, key string, between func()) []string {
	t.Helper()
	var ids []string
	path := first
	for {
		page := env.Do("GET", path, apiKey, nil)
		expectStatus(t, page, 200)
		body := page.JSON(t)
		for _, item := range items(t, body, key) {
			ids = append(ids, fmt.Sprint(item["id"]))
		}
		next, _ := body["nextCursor"].(string)
		if body["hasMore"] != true || next == "" {
			return ids
		}
		between()
		u, _ := url.Parse(first)
		q := u.Query()
		q.Set("cursor", next)
		path = u.Path + "?" + q.Encode()
	}
}

// TestCursorWalkWhileSubmitting: walking the responses newest first with a small
// page while another goroutine keeps submitting reads exactly the responses there
// were when the walk started, in order, each once: the new ones arrive above the
// walk.
func TestCursorWalkWhileSubmitting(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		env := servertest.New(t, d, openSubmissions)
		key := env.NewKey()
		path, token, q := publishedForm(t, env, key, `{"title":"Busy","questions":[{"question":"Name"}]}`)
		start := seedResponses(t, env, mustInt(path[len(apiPrefix+"/forms/"):]), 45)

		// The submitter starts after the first page, which is where the walk
		// starts; every later page waits for a submission made after the one
		// before, so that the walk and the submissions interleave.
		var submitted atomic.Int64
		stop := make(chan struct{})
		var wg sync.WaitGroup
		submit := func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				if err := postSubmission(env.URL, token, q[0]); err != nil {
					t.Error(err)
					return
				}
				submitted.Add(1)
			}
		}
		var once sync.Once
		seen := int64(0)
		between := func() {
			once.Do(func() { wg.Go(submit) })
			deadline := time.Now().Add(10 * time.Second)
			for submitted.Load() == seen && time.Now().Before(deadline) {
				time.Sleep(time.Millisecond)
			}
			seen = submitted.Load()
		}
		walked := walk(t, env, key, path+"/responses?limit=4", "responses", between)
		close(stop)
		wg.Wait()

		if !slices.Equal(walked, start) {
			t.Errorf("walked %d responses %v;\nthere were %d when it started %v", len(walked), walked, len(start), start)
		}
		if n := submitted.Load(); n < int64(len(start)/4) {
			t.Errorf("only %d submissions during the walk: it did not interleave", n)
		}
		total := env.Do("GET", path+"/responses?limit=1", key, nil).JSON(t)["total"]
		if want := float64(int64(len(start)) + submitted.Load()); total != want {
			t.Errorf("total %v after the walk, want %v", total, want)
		}
	})
}

// postSubmission submits one answer to a published form through its public JSON
// operation.
func postSubmission(base, token, question string) error {
	body := fmt.Sprintf(`{"answers":{%q:"someone"}}`, question)
	resp, err := http.Post(base+"/f/"+token+"/submissions", "application/json", bytes.NewBufferString(body))
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusCreated {
		return fmt.Errorf("submission: status %d", resp.StatusCode)
	}
	return nil
}

// TestCursorWalks: a walk with cursors reads what offsets read, in both orders,
// with a time filter, and on the webhook log; pages after a cursor report the
// whole list's total and offset 0, and an empty page has no nextCursor.
func TestCursorWalks(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		env := servertest.New(t, d, func(c *config.Config) { c.WebhookWorkers, c.AllowPrivateWebhooks = 0, true })
		key := env.NewKey()
		path, _, _ := publishedForm(t, env, key, `{"title":"Walked","questions":[{"question":"Name"}]}`)
		formID := mustInt(path[len(apiPrefix+"/forms/"):])
		expectStatus(t, env.Do("PATCH", path, key, obj{"webhookUrl": "http://127.0.0.1:9/hook", "webhookEnabled": true}), 200)
		newest := seedResponses(t, env, formID, 30)
		deliverAll(t, env.Store)
		oldest := slices.Clone(newest)
		slices.Reverse(oldest)
		eleventh := items(t, env.Do("GET", path+"/responses?order=asc&limit=1&offset=10", key, nil).JSON(t), "responses")[0]
		since := url.QueryEscape(eleventh["submittedAt"].(string))
		all := func(list, itemsKey string) []string {
			var ids []string
			for _, item := range items(t, env.Do("GET", list, key, nil).JSON(t), itemsKey) {
				ids = append(ids, fmt.Sprint(item["id"]))
			}
			return ids
		}
		for _, c := range []struct{ name, first, all, key string }{
			{"newest first", path + "/responses?limit=7", path + "/responses?limit=500", "responses"},
			{"oldest first", path + "/responses?limit=7&order=asc", path + "/responses?limit=500&order=asc", "responses"},
			{"since", path + "/responses?limit=3&since=" + since, path + "/responses?limit=500&since=" + since, "responses"},
			{"webhook log", path + "/webhook/logs?limit=4", path + "/webhook/logs?limit=100", "logs"},
		} {
			want := all(c.all, c.key)
			if got := walk(t, env, key, c.first, c.key, func() {}); len(want) == 0 || !slices.Equal(got, want) {
				t.Errorf("%s: walked %v, want %v", c.name, got, want)
			}
		}
		if got := all(path+"/responses?limit=500&order=asc", "responses"); !slices.Equal(got, oldest) {
			t.Errorf("oldest first %v, want %v", got, oldest)
		}

		last := env.Do("GET", path+"/responses?limit=30", key, nil).JSON(t)
		after := env.Do("GET", path+"/responses?limit=5&cursor="+last["nextCursor"].(string), key, nil)
		expectStatus(t, after, 200)
		fields(obj{"total": 30, "offset": 0, "limit": 5, "hasMore": false, "nextCursor": nil, "responses": []any{}})(t, after)
	})
}

// deliverAll delivers, as a worker would, every queued webhook job, each as a
// failed attempt.
func deliverAll(t *testing.T, st *store.Store) {
	t.Helper()
	for {
		job, err := st.ClaimWebhookJob(t.Context(), "test", nil)
		if err != nil {
			t.Fatal(err)
		}
		if job == nil {
			return
		}
		d := &store.Delivery{FormID: job.FormID, SessionID: job.SessionID, URL: job.URL, Status: "error"}
		if err := st.FinishWebhookJob(t.Context(), job.ID, d); err != nil {
			t.Fatal(err)
		}
	}
}

// forgeCursor encodes a cursor as the server does (api/cursor.go), so that the
// tests can write the ones it must refuse.
func forgeCursor(version, list byte, formID uint64, at int64, id string) string {
	b := binary.AppendUvarint([]byte{version, list}, formID)
	b = binary.AppendVarint(b, at)
	return base64.RawURLEncoding.EncodeToString(append(b, id...))
}

// TestCursorRefusals: a cursor that is not one the list gave — malformed,
// altered, of another version, list, order or form — or that comes with offset
// is a 400 naming cursor; a well-formed one of the list is read.
func TestCursorRefusals(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		env := servertest.New(t, d)
		key := env.NewKey()
		path, _, _ := publishedForm(t, env, key, `{"title":"Guarded","questions":[{"question":"Name"}]}`)
		formID := uint64(mustInt(path[len(apiPrefix+"/forms/"):]))
		other := formPath(createForm(t, env, key, obj{"title": "Other"}))
		seedResponses(t, env, int64(formID), 3)
		newest := forgeCursor(1, 1, formID, 1_700_000_000_000, "seed-001")
		responses, logs := path+"/responses?cursor=", path+"/webhook/logs?cursor="
		refused := func(name, path string) scenario {
			return scenario{Name: name, Method: "GET", Path: path, Key: key, ExpectedStatus: 400, Check: apiError("validation_error", "cursor")}
		}
		servertest.Run(t, env, []scenario{
			{Name: "a cursor of the list", Method: "GET", Path: responses + newest, Key: key, ExpectedStatus: 200,
				Check: fields(obj{"total": 3, "offset": 0})},
			{Name: "with its order said", Method: "GET", Path: responses + newest + "&order=desc", Key: key, ExpectedStatus: 200},
			{Name: "a cursor of the log", Method: "GET", Path: logs + forgeCursor(1, 3, formID, 7, ""), Key: key, ExpectedStatus: 200,
				Check: fields(obj{"total": 0, "logs": []any{}, "nextCursor": nil})},
			refused("empty", responses),
			refused("not base64url", responses+"%2B%2F%2F%2F"),
			refused("padded", responses+newest+"%3D%3D"),
			refused("with a line break", responses+newest[:4]+"%0A"+newest[4:]),
			refused("another version", responses+forgeCursor(2, 1, formID, 1_700_000_000_000, "seed-001")),
			refused("an unknown list", responses+forgeCursor(1, 9, formID, 1_700_000_000_000, "seed-001")),
			refused("of the other order", responses+forgeCursor(1, 2, formID, 1_700_000_000_000, "seed-001")),
			refused("of another form", other+"/responses?cursor="+newest),
			refused("of the log, on the responses", responses+forgeCursor(1, 3, formID, 7, "")),
			refused("of the responses, on the log", logs+newest),
			refused("a log cursor with bytes after its key", logs+forgeCursor(1, 3, formID, 7, "x")),
			refused("a log cursor before the first id", logs+forgeCursor(1, 3, formID, 0, "")),
			refused("a submission id no submission can have", responses+forgeCursor(1, 1, formID, 5, "a/b")),
			refused("a NUL in the id", responses+forgeCursor(1, 1, formID, 5, "a\x00b")),
			refused("no id", responses+forgeCursor(1, 1, formID, 5, "")),
			refused("form 0", responses+forgeCursor(1, 1, 0, 5, "seed-001")),
			refused("a form id past 63 bits", responses+forgeCursor(1, 1, formID|1<<63, 5, "seed-001")),
			refused("a key that is not canonical", responses+base64.RawURLEncoding.EncodeToString(
				append(binary.AppendUvarint([]byte{1, 1}, formID), 0x8a, 0x00, 's'))),
			refused("cursor and offset", responses+newest+"&offset=0"),
			refused("cursor and offset on the log", logs+forgeCursor(1, 3, formID, 7, "")+"&offset=3"),
		})
	})
}
