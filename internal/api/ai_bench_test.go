package api_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"forma/internal/ai/aitest"
	"forma/internal/form"
	"forma/internal/server/servertest"
	"forma/internal/store"
)

// BenchmarkAIOver100k measures, over HTTP and per dialect, an analysis and a chat
// message over 100,000 responses (aitest.Big, stored through
// store.CreateSubmissions in batches before the clock starts): each right after a
// new response (which the next dataset must include) and again with nothing new
// (the kept dataset serves). The first analysis, which loads all the responses, is
// made before the clock starts, and logged; "analytics/first" times it again and
// again: each call follows the deletion of a response, after which the dataset
// is loaded whole. Run it alone, e.g. -bench AIOver100k -run XXX: setting up
// takes a while.
func BenchmarkAIOver100k(b *testing.B) {
	servertest.BenchEachDialect(b, func(b *testing.B, d store.Dialect) {
		env := servertest.New(b, d)
		acct := env.Account("scale")
		key := env.Key(acct, nil, nil)
		formID := storeBig(b, env.Store, acct.ID)
		path := fmt.Sprintf("/api/v1/forms/%d", formID)
		analytics := func(b *testing.B) {
			benchRequest(b, env, "POST", path+"/analytics/generate", key, "", http.StatusOK)
		}
		messages := path + "/chat/" + conversation(b, env, path, key) + "/messages"
		chat := func(b *testing.B) {
			ask := `{"message":"Among those who rated 4 or more, what percentage would recommend us?"}`
			benchRequest(b, env, "POST", messages, key, ask, http.StatusCreated)
		}
		start := time.Now()
		analytics(b)
		b.Logf("the first analysis, which loads the responses, took %s", time.Since(start).Round(time.Millisecond))
		b.Run("analytics/first", func(b *testing.B) {
			for b.Loop() {
				b.StopTimer()
				deleteOne(b, env.Store, formID)
				b.StartTimer()
				analytics(b)
			}
		})
		added := 0
		for _, op := range []struct {
			name string
			run  func(*testing.B)
		}{{"analytics", analytics}, {"chat", chat}} {
			b.Run(op.name+"/after a new response", func(b *testing.B) {
				for b.Loop() {
					b.StopTimer()
					added++
					submitOne(b, env.Store, formID, fmt.Sprint("new-", added))
					b.StartTimer()
					op.run(b)
				}
			})
			b.Run(op.name+"/again", func(b *testing.B) {
				for b.Loop() {
					op.run(b)
				}
			})
		}
	})
}

// storeBig stores the form and the 100,000 responses of aitest.Big for an account,
// oldest first, and returns the form's id.
func storeBig(b *testing.B, st *store.Store, accountID int64) int64 {
	ctx := context.Background()
	big := aitest.Big()
	f := *big.Form
	f.ID, f.AccountID, f.ShareToken = 0, accountID, ""
	f.Questions = append([]form.Question(nil), big.Form.Questions...)
	for i := range f.Questions {
		f.Questions[i].ID = 0
	}
	if err := st.CreateForm(ctx, &f); err != nil {
		b.Fatal(err)
	}
	ids := map[int64]int64{}
	for i, q := range big.Form.Questions {
		ids[q.ID] = f.Questions[i].ID
	}
	// Stored in the order they completed, as real responses are (and as the
	// harness, internal/bench, stores its own).
	rs := slices.Clone(big.Responses)
	slices.SortStableFunc(rs, func(a, b form.Submission) int { return a.SubmittedAt().Compare(b.SubmittedAt()) })
	for start := 0; start < len(rs); start += 5000 {
		batch := rs[start:min(start+5000, len(rs))]
		subs := make([]form.Submission, len(batch))
		for i, r := range batch {
			subs[i] = form.Submission{ID: r.ID, FormID: f.ID, StartedAt: *r.CompletedAt, UpdatedAt: *r.CompletedAt,
				CompletedAt: r.CompletedAt, Answers: map[int64]any{}}
			for q, a := range r.Answers {
				subs[i].Answers[ids[q]] = a
			}
		}
		if err := st.CreateSubmissions(ctx, subs); err != nil {
			b.Fatal(err)
		}
	}
	return f.ID
}

// submitOne stores one more response of a form, answering nothing.
func submitOne(b *testing.B, st *store.Store, formID int64, id string) {
	if err := st.CreateSubmission(context.Background(), &form.Submission{ID: id, FormID: formID, Answers: map[int64]any{}}, nil); err != nil {
		b.Fatal(err)
	}
}

// deleteOne deletes the oldest response of a form.
func deleteOne(b *testing.B, st *store.Store, formID int64) {
	ctx := context.Background()
	var oldest string
	stop := errors.New("stop")
	err := st.EachResponse(ctx, formID, store.ResponseFilter{Ascending: true}, func(sub *form.Submission) error {
		oldest = sub.ID
		return stop
	})
	if err != stop {
		b.Fatal(err)
	}
	if _, err := st.DeleteResponse(ctx, formID, oldest); err != nil {
		b.Fatal(err)
	}
}

// conversation starts a chat about a form and returns its id.
func conversation(b *testing.B, env *servertest.Env, path, key string) string {
	req, _ := http.NewRequest("POST", env.URL+path+"/chat", nil)
	req.Header.Set("X-API-Key", key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	var c struct {
		ID json.Number `json:"id"`
	}
	if err := json.NewDecoder(strings.NewReader(string(body))).Decode(&c); err != nil || resp.StatusCode != http.StatusCreated {
		b.Fatalf("conversation: %d %s", resp.StatusCode, body)
	}
	return c.ID.String()
}
