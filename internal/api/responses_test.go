package api_test

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"forma/internal/form"
	"forma/internal/server/servertest"
	"forma/internal/store"
)

// publishedForm creates and publishes a form, returning its path and question ids.
func publishedForm(t *testing.T, env *servertest.Env, key, body string) (string, string, []string) {
	t.Helper()
	f := createForm(t, env, key, body)
	path := "/api/v1/forms/" + id(f["id"])
	expectStatus(t, env.Do("POST", path+"/publish", key, nil), 200)
	var qids []string
	for _, q := range f["questions"].([]any) {
		qids = append(qids, id(q.(map[string]any)["id"]))
	}
	return path, f["shareUrl"].(string), qids
}

func submit(t *testing.T, env *servertest.Env, token, answers string) string {
	t.Helper()
	r := env.Do("POST", "/f/"+token+"/submissions", "", `{"answers":`+answers+`}`)
	expectStatus(t, r, 201)
	return r.JSON(t)["id"].(string)
}

func TestResponsesList(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		env := servertest.New(t, d)
		key := env.NewKey()
		path, token, q := publishedForm(t, env, key, `{"title":"R","questions":[
			{"question":"Name"},{"question":"Name"},{"type":"yes_no","question":"Happy?"},
			{"type":"multi_select","question":"Tags","options":["a","b","c"]}]}`)
		var ids []string
		for i := range 5 {
			ids = append(ids, submit(t, env, token, fmt.Sprintf(`{"%s":"first %d","%s":"second","%s":true,"%s":["c","a"]}`, q[0], i, q[1], q[2], q[3])))
			time.Sleep(2 * time.Millisecond)
		}
		r := env.Do("GET", path+"/responses?limit=2", key, nil)
		expectStatus(t, r, 200)
		body := r.JSON(t)
		if body["total"] != 5.0 || body["hasMore"] != true || body["limit"] != 2.0 || body["offset"] != 0.0 {
			t.Fatalf("envelope %s", r.Body)
		}
		items := body["responses"].([]any)
		first := items[0].(map[string]any)
		if first["id"] != ids[4] || items[1].(map[string]any)["id"] != ids[3] {
			t.Errorf("not newest first: %s", r.Body)
		}
		if !timestampRE.MatchString(first["submittedAt"].(string)) {
			t.Errorf("submittedAt %v", first["submittedAt"])
		}
		want := `{"Name":"first 4","Name (2)":"second","Happy?":true,"Tags":["a","c"]}`
		if !strings.Contains(string(r.Body), `"data":`+want) {
			t.Errorf("data shape: %s, want %s", r.Body, want)
		}
		asc := env.Do("GET", path+"/responses?order=asc&limit=1", key, nil).JSON(t)
		if asc["responses"].([]any)[0].(map[string]any)["id"] != ids[0] {
			t.Errorf("order=asc: %v", asc)
		}
		last := env.Do("GET", path+"/responses?offset=4&limit=500", key, nil).JSON(t)
		if len(last["responses"].([]any)) != 1 || last["hasMore"] != false {
			t.Errorf("last page: %v", last)
		}
		beyond := env.Do("GET", path+"/responses?offset=50", key, nil).JSON(t)
		if len(beyond["responses"].([]any)) != 0 || beyond["hasMore"] != false || beyond["total"] != 5.0 {
			t.Errorf("beyond the end: %v", beyond)
		}
		for _, bad := range []string{"limit=501", "limit=0", "limit=ten", "offset=-1", "order=sideways", "since=yesterday"} {
			expectError(t, env.Do("GET", path+"/responses?"+bad, key, nil), 400, "validation_error", strings.Split(bad, "=")[0])
		}
		future := time.Now().Add(time.Hour).UTC().Format(time.RFC3339)
		if n := env.Do("GET", path+"/responses?since="+future, key, nil).JSON(t)["total"]; n != 0.0 {
			t.Errorf("since the future: %v", n)
		}
		if n := env.Do("GET", path+"/responses?until="+future, key, nil).JSON(t)["total"]; n != 5.0 {
			t.Errorf("until the future: %v", n)
		}

		// Renaming a question renames its key; a deleted question keeps its last text.
		expectStatus(t, env.Do("PATCH", path+"/fields/"+q[2], key, map[string]any{"question": "Glad?"}), 200)
		expectStatus(t, env.Do("DELETE", path+"/fields/"+q[3], key, nil), 204)
		one := env.Do("GET", path+"/responses/"+ids[0], key, nil)
		expectStatus(t, one, 200)
		if !strings.Contains(string(one.Body), `"data":{"Name":"first 0","Name (2)":"second","Glad?":true,"Tags":["a","c"]}`) {
			t.Errorf("after rename and delete: %s", one.Body)
		}
		expectStatus(t, env.Do("DELETE", path+"/responses/"+ids[0], key, nil), 204)
		expectError(t, env.Do("GET", path+"/responses/"+ids[0], key, nil), 404, "not_found", "Submission not found")
		expectError(t, env.Do("DELETE", path+"/responses/"+ids[0], key, nil), 404, "not_found", "Submission not found")
		if n := env.Do("GET", path+"/responses", key, nil).JSON(t)["total"]; n != 4.0 {
			t.Errorf("total after delete: %v", n)
		}
		// Another account cannot read them.
		expectError(t, env.Do("GET", path+"/responses", env.NewKey(), nil), 404, "not_found", "Form not found")
	})
}

func TestExportCSVAndJSON(t *testing.T) {
	env := servertest.New(t, store.SQLite)
	key := env.NewKey()
	path, token, q := publishedForm(t, env, key, `{"title":"E","questions":[
		{"question":"=Label"},{"type":"number","question":"N"},{"type":"multi_select","question":"M","options":["x","y"]},{"type":"yes_no","question":"Y"}]}`)
	dangerous := []string{"=HYPERLINK(\"http://evil\")", "+1+2", "-2+3", "@SUM(A1)", "\tTab", "plain"}
	for _, v := range dangerous {
		submit(t, env, token, fmt.Sprintf(`{"%s":%q,"%s":-5,"%s":["x","y"],"%s":false}`, q[0], v, q[1], q[2], q[3]))
		time.Sleep(2 * time.Millisecond) // distinct completion times: ties order by random id
	}
	r := env.Do("GET", path+"/responses/export?format=csv&order=asc", key, nil)
	expectStatus(t, r, 200)
	if r.Header.Get("Content-Type") != "text/csv; charset=utf-8" || !strings.Contains(r.Header.Get("Content-Disposition"), "attachment") {
		t.Errorf("headers %v", r.Header)
	}
	rows, err := csv.NewReader(strings.NewReader(string(r.Body))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(rows[0], "|") != "id|submittedAt|score|'=Label|N|M|Y" {
		t.Errorf("header %q", rows[0])
	}
	wantFirst := []string{`'=HYPERLINK("http://evil")`, "'+1+2", "'-2+3", "'@SUM(A1)", "'\tTab", "plain"}
	for i, w := range wantFirst {
		row := rows[i+1]
		if row[3] != w || row[4] != "-5" || row[5] != "x, y" || row[6] != "No" {
			t.Errorf("row %d: %q, want %q", i, row, w)
		}
	}
	j := env.Do("GET", path+"/responses/export?format=json", key, nil)
	expectStatus(t, j, 200)
	var items []map[string]any
	if err := json.Unmarshal(j.Body, &items); err != nil || len(items) != 6 {
		t.Fatalf("json export: %v %s", err, j.Body)
	}
	if items[0]["data"].(map[string]any)["=Label"] != "plain" {
		t.Errorf("json export is newest first with raw values: %v", items[0])
	}
	expectError(t, env.Do("GET", path+"/responses/export?format=xml", key, nil), 400, "validation_error", "format")
}

// TestExportHundredThousandInBoundedMemory streams 100,000 responses as CSV and
// JSON while sampling the heap: streaming keeps the growth far below the size of
// the data.
func TestExportHundredThousandInBoundedMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("loads 100,000 responses")
	}
	env := servertest.New(t, store.SQLite)
	key := env.NewKey()
	path, _, q := publishedForm(t, env, key, `{"title":"Big","questions":[{"question":"Comment"},{"type":"number","question":"N"}]}`)
	formID := mustInt(path[len("/api/v1/forms/"):])
	qa, qb := mustInt(q[0]), mustInt(q[1])
	const n = 100_000
	batch := make([]form.Submission, 0, 10_000)
	now := time.Now().UTC()
	for i := range n {
		at := now.Add(-time.Duration(i) * time.Second)
		batch = append(batch, form.Submission{ID: fmt.Sprintf("bulk-%06d", i), FormID: formID, StartedAt: at, UpdatedAt: at, CompletedAt: &at,
			Answers: map[int64]any{qa: strings.Repeat("words ", 20) + fmt.Sprint(i), qb: float64(i)}})
		if len(batch) == cap(batch) {
			if err := env.Store.CreateSubmissions(t.Context(), batch); err != nil {
				t.Fatal(err)
			}
			batch = batch[:0]
		}
	}
	for _, format := range []string{"csv", "json"} {
		runtime.GC()
		var base runtime.MemStats
		runtime.ReadMemStats(&base)
		var peak atomic.Uint64
		done := make(chan struct{})
		go func() {
			var m runtime.MemStats
			for {
				select {
				case <-done:
					return
				case <-time.After(20 * time.Millisecond):
					runtime.ReadMemStats(&m)
					if m.HeapInuse > peak.Load() {
						peak.Store(m.HeapInuse)
					}
				}
			}
		}()
		req, _ := http.NewRequest("GET", env.URL+path+"/responses/export?format="+format, nil)
		req.Header.Set("X-API-Key", key)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		size, _ := io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		close(done)
		growth := int64(peak.Load()) - int64(base.HeapInuse)
		t.Logf("export %s: %d responses, %.1f MiB streamed, peak heap growth %.1f MiB", format, n, float64(size)/(1<<20), float64(growth)/(1<<20))
		fmt.Printf("export %s of %d responses: %.1f MiB body, peak heap growth %.1f MiB\n", format, n, float64(size)/(1<<20), float64(growth)/(1<<20))
		if size < 10<<20 {
			t.Errorf("%s export only %d bytes", format, size)
		}
		if growth > 48<<20 {
			t.Errorf("%s export grew the heap by %d MiB: not streaming", format, growth>>20)
		}
	}
}

func mustInt(s string) int64 {
	var n int64
	fmt.Sscan(s, &n)
	return n
}
