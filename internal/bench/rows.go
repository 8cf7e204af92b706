package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"forma/internal/store"
)

// measure runs the rows in turn. The submissions come first, so that the peak
// memory after them is the peak under the submission load; the webhook row is
// measured with them and listed where issue 11 lists it.
func (r *run) measure(ctx context.Context) error {
	hooks, err := r.submissions(ctx)
	if err != nil {
		return err
	}
	_, peak := r.srv.memory()
	subRSS := Row{Name: "server RSS, peak under submissions", Bytes: peak, Target: atMost(250)}
	page, api := "/f/"+r.forms.twenty.ShareURL, fmt.Sprintf("/api/v1/forms/%d", r.forms.twenty.ID)
	r.loaded(ctx, "GET /f/{s} (20 questions)", atLeast(15_000), r.get(page, false))
	r.loaded(ctx, "GET /f/{s}/definition (20 questions)", atLeast(25_000), r.get(page+"/definition", false))
	r.loaded(ctx, "GET /api/v1/forms/{id} (20 questions)", atLeast(15_000), r.get(api, true))
	for _, offset := range []int{0, r.o.Paging * 9 / 10} {
		path := fmt.Sprintf("/api/v1/forms/%d/responses?limit=100&offset=%d", r.forms.paging.ID, offset)
		name := fmt.Sprintf("responses page of 100, offset %s of %s", thousands(float64(offset)), thousands(float64(r.o.Paging)))
		r.loaded(ctx, name, medianAtMost(20*time.Millisecond), r.get(path, true))
		r.oneClient(ctx, name+", one client", medianAtMost(20*time.Millisecond), r.get(path, true))
	}
	r.report.Rows = append(r.report.Rows, hooks)
	r.analytics(ctx)
	if err := r.chat(ctx); err != nil {
		return err
	}
	_, peak = r.srv.memory()
	r.report.Rows = append(r.report.Rows, r.idle, subRSS, Row{Name: "server RSS, peak over the whole run", Bytes: peak})
	return ctx.Err()
}

// submissions measures one-shot submissions to the ten-question form with its
// webhook on, then waits up to drainRows rows' duration for the webhook backlog
// (what is left is delivered during the next rows, and slows them), and
// returns the webhook row: deliveries per second from the first submission to
// the last delivery, and their lag behind the submission.
func (r *run) submissions(ctx context.Context) (Row, error) {
	bodies, err := submissionBodies(tenQuestions(), r.forms.submit.ids())
	if err != nil {
		return Row{}, err
	}
	target := both(atLeast(10_000), p99AtMost(20*time.Millisecond))
	if r.st.Dialect() == store.Postgres {
		target = atLeast(5_000)
		target.Text += " (PostgreSQL)"
	}
	start := time.Now()
	res := r.load(ctx, "one-shot submissions (10 questions, webhook on)", target, http.StatusCreated,
		r.post("/f/"+r.forms.submit.ShareURL+"/submissions", false, bodies...))
	acked := res.n - res.errors
	delivered, _ := r.hook.deliveries()
	wait := drainRows * r.o.Duration
	r.progress("waiting up to %s for the webhook backlog of %s", wait, thousands(float64(acked-delivered)))
	left := r.drain(ctx, acked, wait)
	row := r.row("webhook deliveries to a local receiver", r.hook.result(start), atLeast(3_000))
	row.Note = fmt.Sprintf("p50/p99: submission to delivery; backlog %s after the submissions, %s after %s more",
		thousands(float64(acked-delivered)), thousands(float64(left)), wait)
	return row, nil
}

// drainRows bounds the wait for the webhook backlog, in rows' durations.
const drainRows = 3

// drain waits until want deliveries arrived or d passed, and returns how many
// are still missing.
func (r *run) drain(ctx context.Context, want int, d time.Duration) int {
	deadline := time.Now().Add(d)
	for {
		got, _ := r.hook.deliveries()
		if got >= want || time.Now().After(deadline) || ctx.Err() != nil {
			return max(want-got, 0)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// loaded measures a GET row that answers 200 under the full load.
func (r *run) loaded(ctx context.Context, name string, t Target, next request) {
	r.load(ctx, name, t, http.StatusOK, next)
}

// load measures a row under the full load (Connections for Duration) and adds it.
func (r *run) load(ctx context.Context, name string, t Target, want int, next request) result {
	r.progress("%s: %d connections for %s", name, r.o.Connections, r.o.Duration)
	res := load(ctx, r.client, r.o.Connections, r.o.Duration, want, next)
	r.report.Rows = append(r.report.Rows, r.row(name, res, t))
	return res
}

// row turns a result into a report row, logging its first error.
func (r *run) row(name string, res result, t Target) Row {
	if res.firstError != nil {
		r.progress("%s: %d errors; the first: %v", name, res.errors, res.firstError)
	}
	return Row{Name: name, N: res.n, Rate: res.rate(), P50: res.percentile(0.5), P99: res.percentile(0.99), Errors: res.errors, Target: t}
}

// pagesOneClient is how many pages the one-client rows read, one after the other.
const pagesOneClient = 200

// oneClient measures a GET row read by one client, one request at a time: the
// latency of a page for a client that syncs, without 63 other clients queueing
// for the same two cores.
func (r *run) oneClient(ctx context.Context, name string, t Target, next request) {
	r.progress("%s: %d requests", name, pagesOneClient)
	row := r.row(name, sequential(ctx, r.client, pagesOneClient, http.StatusOK, next), t)
	row.Note = "one request at a time"
	r.report.Rows = append(r.report.Rows, row)
}

// analytics times a few analyses of the AI form, one after the other.
func (r *run) analytics(ctx context.Context) {
	name := fmt.Sprintf("analytics over %s responses", thousands(float64(r.o.AI)))
	r.progress("%s: %d calls", name, r.o.AnalyticsCalls)
	res := sequential(ctx, r.client, r.o.AnalyticsCalls, http.StatusOK,
		r.post(fmt.Sprintf("/api/v1/forms/%d/analytics/generate", r.forms.ai.ID), true))
	row := r.row(name, res, p99AtMost(time.Second))
	row.Note = "one call at a time; p99 is the slowest"
	r.report.Rows = append(r.report.Rows, row)
}

// chatQuestions are asked in turn in one conversation about the AI form.
var chatQuestions = []string{
	"How many responses do we have?",
	"What's the average rating?",
	"What percentage would recommend us to a friend?",
	"Which feature is used the most?",
	"Show me the breakdown of plans",
	"What's the most common way people heard about us?",
}

// chat times the first message of a conversation about the AI form, then the
// later ones (the target is theirs: the first may load the responses).
func (r *run) chat(ctx context.Context) error {
	var conv struct {
		ID int64 `json:"id"`
	}
	if err := r.call(ctx, http.MethodPost, fmt.Sprintf("/api/v1/forms/%d/chat", r.forms.ai.ID), nil, http.StatusCreated, &conv); err != nil {
		return fmt.Errorf("start a chat: %w", err)
	}
	bodies := make([][]byte, len(chatQuestions))
	for i, q := range chatQuestions {
		bodies[i], _ = json.Marshal(map[string]string{"message": q})
	}
	path := fmt.Sprintf("/api/v1/forms/%d/chat/%d/messages", r.forms.ai.ID, conv.ID)
	name := fmt.Sprintf("chat message over %s responses", thousands(float64(r.o.AI)))
	r.progress("%s: 1 + %d messages", name, r.o.ChatMessages)
	first := sequential(ctx, r.client, 1, http.StatusCreated, r.post(path, true, bodies[0]))
	r.report.Rows = append(r.report.Rows, r.row(name+", the first", first, Target{}))
	later := sequential(ctx, r.client, r.o.ChatMessages, http.StatusCreated, r.post(path, true, bodies[1:]...))
	row := r.row(name+", later ones", later, p99AtMost(150*time.Millisecond))
	row.Note = "one at a time; p99 is the slowest"
	r.report.Rows = append(r.report.Rows, row)
	return nil
}
