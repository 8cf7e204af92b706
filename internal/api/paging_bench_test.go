package api_test

import (
	"database/sql"
	"fmt"
	"os"
	"slices"
	"testing"
	"time"

	"forma/internal/form"
	"forma/internal/server/servertest"
	"forma/internal/store"
)

// pagingResponses is how many responses BenchmarkResponsesPage loads; override
// with FORMA_BENCH_RESPONSES for a quicker run.
const pagingResponses = 1_000_000

// BenchmarkResponsesPage measures GET /api/v1/forms/{id}/responses?limit=100 at
// offset 0, at offset 900,000, after a cursor at the same depth, and at offset
// 500,000 (the worst case, as far as can be from either end), of a form with
// 1,000,000 responses, through real HTTP, on SQLite and (with
// FORMA_TEST_DATABASE_URL) PostgreSQL. The responses are loaded once per run
// (a minute or two per database). It reports the median and 99th percentile of
// the requests beside the mean:
//
//	go test ./internal/api -run '^$' -bench ResponsesPage -benchtime 200x
func BenchmarkResponsesPage(b *testing.B) {
	n := pagingResponses
	if v := os.Getenv("FORMA_BENCH_RESPONSES"); v != "" {
		fmt.Sscan(v, &n)
	}
	for _, d := range servertest.Dialects {
		b.Run(string(d), func(b *testing.B) {
			if d == store.Postgres && os.Getenv(servertest.DatabaseEnv) == "" {
				b.Skip("PostgreSQL skipped: set " + servertest.DatabaseEnv)
			}
			env, keys, path := pagingForm(b, d, n)
			deep := n * 9 / 10
			before := env.Do("GET", fmt.Sprintf("%s?limit=100&offset=%d", path, deep-100), keys.next(), nil)
			cursor, ok := before.JSON(b)["nextCursor"].(string)
			if !ok {
				b.Fatalf("no cursor at offset %d: %d %s", deep-100, before.Status, before.Body)
			}
			for _, page := range []struct{ name, query string }{
				{"offset=0", "limit=100&offset=0"},
				{fmt.Sprintf("offset=%d", deep), fmt.Sprintf("limit=100&offset=%d", deep)},
				{fmt.Sprintf("cursor@%d", deep), "limit=100&cursor=" + cursor},
				{fmt.Sprintf("offset=%d", n/2), fmt.Sprintf("limit=100&offset=%d", n/2)}, // the farthest from either end
			} {
				b.Run(page.name, func(b *testing.B) { benchPage(b, env, keys, path+"?"+page.query) })
			}
		})
	}
}

// benchPage requests one page b.N times, after a few untimed requests that
// warm the caches, and reports the median and 99th percentile latency.
func benchPage(b *testing.B, env *servertest.Env, keys *keyRing, path string) {
	for range 5 {
		benchRequest(b, env, "GET", path, keys.next(), "", 200)
	}
	var took []time.Duration
	for b.Loop() {
		key := keys.next()
		start := time.Now()
		benchRequest(b, env, "GET", path, key, "", 200)
		took = append(took, time.Since(start))
	}
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(took[len(took)*99/100].Microseconds())/1000, "p99-ms")
}

// pagingForm starts a server on a fresh database of dialect d with a form of n
// responses to five questions, and returns it with keys of the form's account
// and the form's responses path.
func pagingForm(b *testing.B, d store.Dialect, n int) (*servertest.Env, *keyRing, string) {
	url := servertest.DatabaseURL(b, d)
	st, err := store.Open(b.Context(), url, b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	env := servertest.Start(b, st)
	keys := newKeyRing(env)
	r := env.Do("POST", "/api/v1/forms", keys.next(), `{"title":"Paged","questions":[
		{"question":"Name"},{"type":"rating","question":"Mood"},{"type":"yes_no","question":"Again?"},
		{"type":"select","question":"Plan","options":["Free","Pro"]},{"type":"textarea","question":"Why"}]}`)
	if r.Status != 201 {
		b.Fatalf("create: %d %s", r.Status, r.Body)
	}
	f := r.JSON(b)
	formID := int64(f["id"].(float64))
	var q []int64
	for _, x := range f["questions"].([]any) {
		q = append(q, int64(x.(map[string]any)["id"].(float64)))
	}
	start := time.Now()
	loadPaged(b, st, formID, q, n)
	if d == store.Postgres {
		vacuum(b, url) // index-only scans need the visibility map a bulk load leaves empty
	}
	b.Logf("%s: loaded %d responses in %v", d, n, time.Since(start).Round(time.Second))
	return env, keys, fmt.Sprintf("/api/v1/forms/%d/responses", formID)
}

// loadPaged stores n completed responses of form formID, one a second up to
// now, in batches.
func loadPaged(b *testing.B, st *store.Store, formID int64, q []int64, n int) {
	now := time.Now().UTC().Truncate(time.Second)
	batch := make([]form.Submission, 0, 10_000)
	for i := range n {
		at := now.Add(-time.Duration(n-i) * time.Second)
		batch = append(batch, form.Submission{ID: fmt.Sprintf("p%07d", i), FormID: formID, StartedAt: at.Add(-time.Minute),
			UpdatedAt: at, CompletedAt: &at, Answers: map[int64]any{q[0]: fmt.Sprintf("Respondent %d", i), q[1]: float64(1 + i%5),
				q[2]: i%3 != 0, q[3]: []string{"Free", "Pro"}[i%2], q[4]: "Because it does what it says, quickly."}})
		if len(batch) == cap(batch) || i == n-1 {
			if err := st.LoadSubmissions(b.Context(), formID, batch); err != nil {
				b.Fatal(err)
			}
			batch = batch[:0]
		}
	}
}

// vacuum runs VACUUM ANALYZE on the sessions of the PostgreSQL database at url.
func vacuum(b *testing.B, url string) {
	db, err := sql.Open("pgx", url)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	if _, err := db.ExecContext(b.Context(), `VACUUM ANALYZE sessions`); err != nil {
		b.Fatal(err)
	}
}
