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
		list := path + "/responses"
		future := time.Now().Add(time.Hour).UTC().Format(time.RFC3339)
		table := []scenario{{
			Name: "the first page", Method: "GET", Path: list + "?limit=2", Key: key, ExpectedStatus: 200,
			ExpectedContent: []string{`"data":{"Name":"first 4","Name (2)":"second","Happy?":true,"Tags":["a","c"]}`},
			Check: checks(fields(obj{"total": 5, "hasMore": true, "limit": 2, "offset": 0}), func(t *testing.T, r *servertest.Response) {
				page := items(t, r.JSON(t), "responses")
				if len(page) != 2 || page[0]["id"] != ids[4] || page[1]["id"] != ids[3] {
					t.Errorf("not newest first: %v", page)
				}
				if at, _ := page[0]["submittedAt"].(string); !timestampRE.MatchString(at) {
					t.Errorf("submittedAt %v", page[0]["submittedAt"])
				}
			}),
		}, {
			Name: "oldest first", Method: "GET", Path: list + "?order=asc&limit=1", Key: key, ExpectedStatus: 200,
			Check: func(t *testing.T, r *servertest.Response) {
				if page := items(t, r.JSON(t), "responses"); len(page) == 0 || page[0]["id"] != ids[0] {
					t.Errorf("order=asc: %v", page)
				}
			},
		}, {
			Name: "the last page", Method: "GET", Path: list + "?offset=4&limit=500", Key: key, ExpectedStatus: 200,
			Check: checks(fields(obj{"hasMore": false}), itemCount("responses", 1)),
		}, {
			Name: "beyond the end", Method: "GET", Path: list + "?offset=50", Key: key, ExpectedStatus: 200,
			Check: checks(fields(obj{"hasMore": false, "total": 5}), itemCount("responses", 0)),
		}}
		for _, bad := range []string{"limit=501", "limit=0", "limit=ten", "offset=-1", "order=sideways", "since=yesterday"} {
			table = append(table, scenario{Name: bad, Method: "GET", Path: list + "?" + bad, Key: key, ExpectedStatus: 400,
				Check: apiError("validation_error", strings.Split(bad, "=")[0])})
		}
		table = append(table, []scenario{
			{Name: "since the future", Method: "GET", Path: list + "?since=" + future, Key: key, ExpectedStatus: 200, Check: fields(obj{"total": 0})},
			{Name: "until the future", Method: "GET", Path: list + "?until=" + future, Key: key, ExpectedStatus: 200, Check: fields(obj{"total": 5})},
			// Renaming a question renames its key; a deleted question keeps its last text.
			{Name: "rename a question", Method: "PATCH", Path: path + "/fields/" + q[2], Key: key, Body: obj{"question": "Glad?"}, ExpectedStatus: 200},
			{Name: "delete a question", Method: "DELETE", Path: path + "/fields/" + q[3], Key: key, ExpectedStatus: 204},
			{Name: "one response after the rename and the delete", Method: "GET", Path: list + "/" + ids[0], Key: key, ExpectedStatus: 200,
				ExpectedContent: []string{`"data":{"Name":"first 0","Name (2)":"second","Glad?":true,"Tags":["a","c"]}`}},
			{Name: "delete a response", Method: "DELETE", Path: list + "/" + ids[0], Key: key, ExpectedStatus: 204},
			{Name: "read the deleted response", Method: "GET", Path: list + "/" + ids[0], Key: key, ExpectedStatus: 404,
				Check: apiError("not_found", "Submission not found")},
			{Name: "delete it again", Method: "DELETE", Path: list + "/" + ids[0], Key: key, ExpectedStatus: 404,
				Check: apiError("not_found", "Submission not found")},
			{Name: "total after the delete", Method: "GET", Path: list, Key: key, ExpectedStatus: 200, Check: fields(obj{"total": 4})},
			{Name: "another account cannot read them", Method: "GET", Path: list, Key: env.NewKey(), ExpectedStatus: 404,
				Check: apiError("not_found", "Form not found")},
		}...)
		servertest.Run(t, env, table)
	})
}

// itemCount checks the length of the array under key of an object body.
func itemCount(key string, n int) check {
	return func(t *testing.T, r *servertest.Response) {
		t.Helper()
		if got := len(items(t, r.JSON(t), key)); got != n {
			t.Errorf("%d %s, want %d", got, key, n)
		}
	}
}

func TestExportCSVAndJSON(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		env := servertest.New(t, d)
		key := env.NewKey()
		path, token, q := publishedForm(t, env, key, `{"title":"E","questions":[
		{"question":"=Label"},{"type":"number","question":"N"},{"type":"multi_select","question":"M","options":["x","y"]},{"type":"yes_no","question":"Y"}]}`)
		for _, v := range []string{"=HYPERLINK(\"http://evil\")", "+1+2", "-2+3", "@SUM(A1)", "\tTab", "plain"} {
			submit(t, env, token, fmt.Sprintf(`{"%s":%q,"%s":-5,"%s":["x","y"],"%s":false}`, q[0], v, q[1], q[2], q[3]))
			time.Sleep(2 * time.Millisecond) // distinct completion times: ties order by random id
		}
		servertest.Run(t, env, []scenario{{
			Name: "CSV, oldest first", Method: "GET", Path: path + "/responses/export?format=csv&order=asc", Key: key, ExpectedStatus: 200,
			ExpectedHeaders: map[string]string{"Content-Type": "text/csv; charset=utf-8"},
			Check: func(t *testing.T, r *servertest.Response) {
				if !strings.Contains(r.Header.Get("Content-Disposition"), "attachment") {
					t.Errorf("Content-Disposition %q", r.Header.Get("Content-Disposition"))
				}
				rows, err := csv.NewReader(strings.NewReader(string(r.Body))).ReadAll()
				if err != nil || len(rows) != 7 {
					t.Fatalf("%d rows: %v", len(rows), err)
				}
				if strings.Join(rows[0], "|") != "id|submittedAt|score|'=Label|N|M|Y" {
					t.Errorf("header %q", rows[0])
				}
				// Cells a spreadsheet would run as formulas are quoted.
				for i, w := range []string{`'=HYPERLINK("http://evil")`, "'+1+2", "'-2+3", "'@SUM(A1)", "'\tTab", "plain"} {
					if row := rows[i+1]; row[3] != w || row[4] != "-5" || row[5] != "x, y" || row[6] != "No" {
						t.Errorf("row %d: %q, want %q", i, row, w)
					}
				}
			},
		}, {
			Name: "JSON, newest first", Method: "GET", Path: path + "/responses/export?format=json", Key: key, ExpectedStatus: 200,
			Check: func(t *testing.T, r *servertest.Response) {
				var items []obj
				if err := json.Unmarshal(r.Body, &items); err != nil || len(items) != 6 {
					t.Fatalf("json export: %v, %d items", err, len(items))
				}
				if items[0]["data"].(obj)["=Label"] != "plain" {
					t.Errorf("json export is newest first with raw values: %v", items[0])
				}
			},
		}, {
			Name: "an unknown format", Method: "GET", Path: path + "/responses/export?format=xml", Key: key, ExpectedStatus: 400,
			Check: apiError("validation_error", "format"),
		}})
	})
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
	formID := mustInt(path[len(apiPrefix+"/forms/"):])
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
