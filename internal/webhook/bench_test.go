package webhook_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"forma/internal/form"
	"forma/internal/server/servertest"
	"forma/internal/store"
)

// BenchmarkDeliveries measures how fast a server drains a burst from the outbox to
// a real local receiver over HTTP, per dialect: b.N completed submissions of one
// 10-question form with its webhook on are stored in large batches (not timed),
// then a server with the default workers starts, and the clock stops when every
// delivery has been received and logged. Run it with a fixed count, e.g.
// -bench Deliveries -benchtime 20000x.
func BenchmarkDeliveries(b *testing.B) {
	servertest.BenchEachDialect(b, func(b *testing.B, d store.Dialect) {
		var got atomic.Int64
		rc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			got.Add(1)
			w.WriteHeader(http.StatusNoContent)
		}))
		defer rc.Close()
		st := servertest.OpenStore(b, d)
		formID := queueBurst(b, st, rc.URL, b.N)
		b.ResetTimer()
		start := time.Now()
		servertest.Start(b, st, allowPrivate)
		waitLogged(b, st, formID, b.N)
		b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "deliveries/s")
		if n := got.Load(); n != int64(b.N) {
			b.Fatalf("the receiver got %d requests for %d jobs", n, b.N)
		}
	})
}

// queueBurst stores n completed submissions of a new 10-question form whose
// webhook points at url, in batches of a thousand; it returns the form's id.
func queueBurst(b *testing.B, st *store.Store, url string, n int) int64 {
	ctx := context.Background()
	acct, err := st.CreateAccount(ctx, "bench@example.com", "scale")
	if err != nil {
		b.Fatal(err)
	}
	f := &form.Form{AccountID: acct.ID, Title: "Burst", DisplayMode: form.SinglePage}
	for i := range 10 {
		f.Questions = append(f.Questions, form.Question{Type: form.Text, Text: fmt.Sprint("Question ", i)})
	}
	if err := st.CreateForm(ctx, f); err != nil {
		b.Fatal(err)
	}
	if _, err := st.UpdateForm(ctx, acct.ID, f.ID, func(f *form.Form) error {
		f.WebhookURL, f.WebhookEnabled = &url, true
		return nil
	}); err != nil {
		b.Fatal(err)
	}
	now := time.Now().UTC()
	for done := 0; done < n; {
		batch := make([]form.Submission, min(1000, n-done))
		for i := range batch {
			answers := map[int64]any{}
			for _, q := range f.Questions {
				answers[q.ID] = fmt.Sprint("answer ", done+i)
			}
			batch[i] = form.Submission{ID: fmt.Sprintf("burst-%07d", done+i), FormID: f.ID,
				StartedAt: now, UpdatedAt: now, CompletedAt: &now, Answers: answers}
		}
		if err := st.CreateSubmissions(ctx, batch); err != nil {
			b.Fatal(err)
		}
		done += len(batch)
	}
	return f.ID
}

// waitLogged polls until a form's delivery log holds n attempts.
func waitLogged(b *testing.B, st *store.Store, formID int64, n int) {
	deadline := time.Now().Add(10 * time.Minute)
	for {
		_, total, err := st.WebhookLogs(context.Background(), formID, 1, 0)
		if err != nil {
			b.Fatal(err)
		}
		if total >= n {
			return
		}
		if time.Now().After(deadline) {
			b.Fatalf("%d of %d deliveries logged after 10 minutes", total, n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
