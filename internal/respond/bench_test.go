package respond_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

	"forma/internal/config"
	"forma/internal/server/servertest"
	"forma/internal/store"
)

// benchSubmission starts a server on SQLite with a published 10-question form and
// returns its submissions URL and a JSON body answering every question.
func benchSubmission(b *testing.B) (url, body string) {
	env := servertest.Start(b, servertest.OpenStore(b, store.SQLite), func(c *config.Config) { c.SubmitLimit = 0 })
	key := env.NewKey()
	r := env.Do("POST", "/api/v1/forms", key, `{"title":"Bench","questions":[
		{"type":"text","question":"Name","required":true},{"type":"email","question":"Email","required":true},
		{"type":"phone","question":"Phone"},{"type":"number","question":"Age"},{"type":"date","question":"Date"},
		{"type":"rating","question":"Rating"},{"type":"yes_no","question":"OK?"},
		{"type":"select","question":"Plan","options":["Free","Pro"]},
		{"type":"multi_select","question":"Tags","options":["a","b","c"]},{"type":"textarea","question":"Comments"}]}`)
	f := r.JSON(b)
	env.Do("POST", fmt.Sprintf("/api/v1/forms/%d/publish", int64(f["id"].(float64))), key, nil)
	var q []int64
	for _, x := range f["questions"].([]any) {
		q = append(q, int64(x.(map[string]any)["id"].(float64)))
	}
	body = fmt.Sprintf(`{"answers":{"%d":"Ana","%d":"ana@example.com","%d":"+1 555 123 4567","%d":42,"%d":"2026-11-22",
		"%d":5,"%d":true,"%d":"Pro","%d":["a","c"],"%d":"Great service, would use again."}}`,
		q[0], q[1], q[2], q[3], q[4], q[5], q[6], q[7], q[8], q[9])
	return env.URL + "/f/" + f["shareUrl"].(string) + "/submissions", body
}

// BenchmarkSubmitJSON measures one-shot JSON submissions of a 10-question form on
// SQLite through real HTTP, one at a time: validation, logic, and the durable commit.
func BenchmarkSubmitJSON(b *testing.B) {
	url, body := benchSubmission(b)
	b.ReportAllocs()
	start := time.Now()
	for b.Loop() {
		resp, err := http.Post(url, "application/json", strings.NewReader(body))
		if err != nil {
			b.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 201 {
			b.Fatalf("status %d", resp.StatusCode)
		}
	}
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "submissions/s")
}

// BenchmarkSubmitJSONParallel is BenchmarkSubmitJSON from 64 concurrent clients,
// where concurrent submissions share commits.
func BenchmarkSubmitJSONParallel(b *testing.B) {
	url, body := benchSubmission(b)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	b.SetParallelism(max(1, 64/runtime.GOMAXPROCS(0)))
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			resp, err := client.Post(url, "application/json", strings.NewReader(body))
			if err != nil {
				b.Error(err)
				return
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 201 {
				b.Errorf("status %d", resp.StatusCode)
				return
			}
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "submissions/s")
}

// BenchmarkPublicForm measures GET /f/{s} (the HTML page) and GET /f/{s}/definition
// of a published 20-question form: "handler" is the server's own cost per request,
// without a network; "load" is throughput over real HTTP from 64 clients on a
// 2-core machine (servertest.Load).
func BenchmarkPublicForm(b *testing.B) {
	servertest.BenchDialects(b, func(b *testing.B, d store.Dialect) {
		env := servertest.Start(b, servertest.OpenStore(b, d))
		_, token, _ := published(b, env, env.NewKey(), servertest.TwentyQuestions())
		for _, name := range []string{"page", "definition"} {
			path := strings.TrimSuffix("/f/"+token+"/"+name, "/page")
			b.Run(name+"/handler", func(b *testing.B) {
				env.ServeInProcess(b, 200, func() *http.Request { return httptest.NewRequest("GET", path, nil) })
			})
			b.Run(name+"/load", func(b *testing.B) {
				env.Load(b, 200, func() *http.Request {
					req, _ := http.NewRequest("GET", env.URL+path, nil)
					return req
				})
			})
		}
	})
}
