package api_test

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"

	"forma/internal/config"
	"forma/internal/server/servertest"
	"forma/internal/store"
)

// refuseInserts makes inserts into table fail whenever the condition on NEW holds,
// the way a constraint would refuse one row.
func (f *failingDB) refuseInserts(t *testing.T, table, when string) {
	t.Helper()
	stmt := fmt.Sprintf(`CREATE TRIGGER refuse_%s BEFORE INSERT ON %s WHEN %s BEGIN SELECT RAISE(ABORT, 'injected failure'); END`, table, table, when)
	if f.dialect == store.Postgres {
		stmt = fmt.Sprintf(`CREATE TRIGGER refuse_%s BEFORE INSERT ON %s FOR EACH ROW WHEN (%s) EXECUTE FUNCTION injected_failure()`, table, table, when)
	}
	if _, err := f.db.Exec(stmt); err != nil {
		t.Fatalf("%s: %v", stmt, err)
	}
}

// TestConcurrentSubmissionsFailAlone sends 60 submissions at once; the database
// refuses every sixth (a trigger on its answers), in the batches they share with
// the others. Each refused one answers 500 and leaves nothing behind; every other
// one answers 201 and is listed once, with its webhook job.
func TestConcurrentSubmissionsFailAlone(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		st, db := openFailingDB(t, d)
		env := servertest.Start(t, st, func(c *config.Config) {
			// No delivery workers: the jobs stay in the outbox to be counted.
			c.AllowPrivateWebhooks, c.SubmitLimit, c.WebhookWorkers = true, 0, 0
		})
		key := env.NewKey()
		path, share, qids := publishedForm(t, env, key, obj{"title": "Busy", "questions": []obj{{"type": "text", "question": "Name"}}})
		expectStatus(t, env.Do("PATCH", path, key, obj{"webhookUrl": "http://127.0.0.1:9/hook", "webhookEnabled": true}), http.StatusOK)
		db.refuseInserts(t, "sessions", `NEW.answers LIKE '%poison%'`)

		const n = 60
		var (
			mu       sync.Mutex
			accepted []string
			statuses = map[string]int{}
			wg       sync.WaitGroup
			start    = make(chan struct{})
		)
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				name, kind := fmt.Sprintf("Ada %d", i), "good"
				if i%6 == 0 {
					name, kind = fmt.Sprintf("poison %d", i), "poisoned"
				}
				<-start
				r := env.For(t).Do("POST", "/f/"+share+"/submissions", "", obj{"answers": obj{qids[0]: name}})
				mu.Lock()
				defer mu.Unlock()
				statuses[fmt.Sprint(kind, " ", r.Status)]++
				if r.Status == http.StatusCreated {
					accepted = append(accepted, r.JSON(t)["id"].(string))
				}
			}()
		}
		close(start)
		wg.Wait()
		if statuses["good 201"] != n-n/6 || statuses["poisoned 500"] != n/6 {
			t.Fatalf("answers %v, want %d × good 201 and %d × poisoned 500", statuses, n-n/6, n/6)
		}
		slices.Sort(accepted)
		listed := listedIDs(t, env, key, path)
		if !slices.Equal(listed, accepted) {
			t.Errorf("listed responses %v, want exactly the accepted %v", listed, accepted)
		}
		if jobs := queuedJobs(t, env.Store); !slices.Equal(jobs, accepted) {
			t.Errorf("queued webhook jobs for %v, want exactly the accepted %v", jobs, accepted)
		}
	})
}

// listedIDs returns the ids of a form's responses as the API lists them, sorted.
func listedIDs(t *testing.T, env *servertest.Env, key, path string) []string {
	t.Helper()
	r := env.For(t).Do("GET", path+"/responses?limit=100", key, nil)
	expectStatus(t, r, http.StatusOK)
	var ids []string
	for _, item := range items(t, r.JSON(t), "responses") {
		if strings.Contains(fmt.Sprint(item), "poison") {
			t.Errorf("a refused submission is listed: %v", item)
		}
		ids = append(ids, item["id"].(string))
	}
	slices.Sort(ids)
	return ids
}

// queuedJobs takes every job from the outbox and returns their submission ids,
// sorted.
func queuedJobs(t *testing.T, st *store.Store) []string {
	t.Helper()
	var ids []string
	for {
		j, err := st.ClaimWebhookJob(context.Background(), "test", nil)
		if err != nil {
			t.Fatal(err)
		}
		if j == nil {
			slices.Sort(ids)
			return ids
		}
		ids = append(ids, j.SessionID)
	}
}
