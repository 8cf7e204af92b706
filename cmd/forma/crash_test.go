package main

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// TestKilledServerLosesNoAcknowledgedSubmission runs `forma serve` on a SQLite data
// folder, fires bursts of concurrent submissions at it (its form's webhook points
// at a receiver in the test) and kills it with SIGKILL mid-burst, several times.
// Then the killed servers' claims are let expire (as three minutes would) and the
// server runs until its outbox is empty. Every submission that was answered 201
// is listed exactly once, and every stored submission's webhook reached the
// receiver exactly once — except the deliveries a killed server had begun, which
// the outbox, delivering at most once, logs as interrupted errors and does not
// send again (of those, the ones that never reached the receiver are at most as
// many as the server had workers, per kill). Jobs a killed server had claimed but
// not begun are delivered after their lease.
func TestKilledServerLosesNoAcknowledgedSubmission(t *testing.T) {
	if testing.Short() {
		t.Skip("crash test skipped with -short")
	}
	const rounds, clients, workers = 4, 32, 16
	recv := newReceiver(t)
	srv := &formaServer{bin: buildBinary(t), data: t.TempDir()}
	srv.start(t)
	key := srv.firstKey(t)
	formPath, submitURL, question := srv.hookedForm(t, key, recv.URL)

	acked := map[string]bool{}
	for round := range rounds {
		if round > 0 {
			srv.start(t)
		}
		for _, id := range burst(submitURL, question, clients, srv.kill, time.Duration(150+50*round)*time.Millisecond) {
			acked[id] = true
		}
	}
	srv.start(t)
	srv.waitForOutbox(t, `claimed_at IS NULL`)
	srv.stop(t)
	srv.expireClaims(t)
	srv.start(t)
	srv.waitForOutbox(t, `1 = 1`)
	listed := srv.listAll(t, key, formPath)
	srv.stop(t)
	inFlight := srv.interrupted(t)

	stored := map[string]bool{}
	for _, id := range listed {
		if stored[id] {
			t.Errorf("submission %s is listed twice", id)
		}
		stored[id] = true
	}
	for id := range acked {
		if !stored[id] {
			t.Errorf("acknowledged submission %s is not listed after the restarts", id)
		}
	}
	got := recv.deliveries()
	duplicates := 0
	for id, n := range got {
		if !stored[id] {
			t.Errorf("a webhook was delivered for %s, which is not stored", id)
		}
		if n > 1 {
			duplicates++
		}
	}
	for id := range stored {
		if got[id] == 0 && !inFlight[id] {
			t.Errorf("the webhook of stored submission %s was never delivered nor begun at a kill", id)
		}
	}
	t.Logf("%d rounds: %d acknowledged, %d stored (the rest were committed as the server died, unanswered), "+
		"%d webhooks delivered, %d duplicates, %d begun at a kill (logged as interrupted, not resent)",
		rounds, len(acked), len(stored), len(got), duplicates, len(inFlight))
	if duplicates > 0 {
		t.Errorf("%d webhooks were delivered more than once; the outbox delivers at most once", duplicates)
	}
	// A delivery begun at a kill either reached the receiver and its result was
	// not yet recorded (results are written in batches), or was cut off in flight:
	// only the POSTs in flight, at most one per worker, can be cut off.
	cutOff := 0
	for id := range inFlight {
		if got[id] == 0 {
			cutOff++
		}
	}
	t.Logf("%d of those begun at a kill never reached the receiver", cutOff)
	if cutOff > rounds*workers {
		t.Errorf("%d deliveries cut off at the kills, more than %d workers × %d kills", cutOff, workers, rounds)
	}
	if len(acked) < rounds {
		t.Errorf("only %d submissions acknowledged in %d rounds: the bursts did not run", len(acked), rounds)
	}
}

// burst submits answers to the question from clients goroutines, each one
// submission after the other, calls kill after the delay, and returns the ids of
// the submissions answered 201.
func burst(url, question string, clients int, kill func(), after time.Duration) []string {
	client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: clients}}
	var mu sync.Mutex
	var ids []string
	var wg sync.WaitGroup
	for c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				body := fmt.Sprintf(`{"answers":{"%s":"client %d, submission %d"}}`, question, c, i)
				id, err := submitOnce(client, url, body)
				if err != nil {
					return // the server is gone
				}
				mu.Lock()
				ids = append(ids, id)
				mu.Unlock()
			}
		}()
	}
	time.Sleep(after)
	kill()
	wg.Wait()
	return ids
}

// submitOnce posts one submission and returns its id when it was answered 201.
func submitOnce(client *http.Client, url, body string) (string, error) {
	resp, err := client.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	var out struct{ ID string }
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return "", err
	}
	if resp.StatusCode != http.StatusCreated {
		return "", fmt.Errorf("status %d", resp.StatusCode)
	}
	return out.ID, nil
}

// receiver is a webhook receiver that counts deliveries by webhook-id (the
// submission id).
type receiver struct {
	*httptest.Server
	mu  sync.Mutex
	got map[string]int
}

func newReceiver(t *testing.T) *receiver {
	r := &receiver{got: map[string]int{}}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		var p struct {
			SubmissionID string `json:"submission_id"`
		}
		if err := json.NewDecoder(req.Body).Decode(&p); err != nil || p.SubmissionID != req.Header.Get("webhook-id") {
			t.Errorf("delivery with webhook-id %q and body submission %q (%v)", req.Header.Get("webhook-id"), p.SubmissionID, err)
		}
		r.mu.Lock()
		r.got[p.SubmissionID]++
		r.mu.Unlock()
	}))
	t.Cleanup(r.Close)
	return r
}

// deliveries returns how many times each submission was delivered.
func (r *receiver) deliveries() map[string]int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return maps.Clone(r.got)
}

// formaServer is a `forma serve` child process on one data folder and address,
// started again after each kill.
type formaServer struct {
	bin, data, addr string
	cmd             *exec.Cmd
	logs            *os.File
}

func (s *formaServer) url() string { return "http://" + s.addr }

// start starts the server (on the same address as before, if any) and waits
// until it answers.
func (s *formaServer) start(t *testing.T) {
	t.Helper()
	if s.addr == "" {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		s.addr = ln.Addr().String()
		ln.Close()
		if s.logs, err = os.Create(filepath.Join(t.TempDir(), "forma.log")); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(s.kill)
	}
	s.cmd = exec.Command(s.bin, "serve", "--addr", s.addr, "--data", s.data, "--public-url", s.url(),
		"--allow-private-webhooks", "--submit-limit", "0")
	s.cmd.Stdout, s.cmd.Stderr = s.logs, s.logs
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); {
		if resp, err := http.Get(s.url() + "/healthz"); err == nil {
			resp.Body.Close()
			return
		}
		time.Sleep(25 * time.Millisecond)
	}
	t.Fatalf("forma serve did not start:\n%s", s.log(t))
}

// kill ends the server with SIGKILL, as a crash or a power cut would.
func (s *formaServer) kill() {
	if s.cmd.ProcessState == nil {
		s.cmd.Process.Signal(syscall.SIGKILL)
		s.cmd.Wait()
	}
}

// stop ends the server gracefully: it finishes the deliveries in flight.
func (s *formaServer) stop(t *testing.T) {
	t.Helper()
	s.cmd.Process.Signal(syscall.SIGTERM)
	if err := s.cmd.Wait(); err != nil {
		t.Fatalf("forma serve stopped with %v:\n%s", err, s.log(t))
	}
}

func (s *formaServer) log(t *testing.T) string {
	b, err := os.ReadFile(s.logs.Name())
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

var firstKeyRE = regexp.MustCompile(`forma_sk_live_[0-9A-Za-z]{32}`)

// firstKey returns the key the first start printed.
func (s *formaServer) firstKey(t *testing.T) string {
	t.Helper()
	key := firstKeyRE.FindString(s.log(t))
	if key == "" {
		t.Fatalf("the first start printed no key:\n%s", s.log(t))
	}
	return key
}

// call sends an API request and decodes the JSON answer, which must have the
// status.
func (s *formaServer) call(t *testing.T, method, path, key, body string, status int) map[string]any {
	t.Helper()
	req, _ := http.NewRequest(method, s.url()+path, strings.NewReader(body))
	req.Header.Set("X-API-Key", key)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != status {
		t.Fatalf("%s %s: %d %s, want %d", method, path, resp.StatusCode, raw, status)
	}
	var out map[string]any
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	return out
}

// hookedForm creates and publishes a one-question form whose webhook goes to
// hook, and returns its API path, its submissions URL and its question's id.
func (s *formaServer) hookedForm(t *testing.T, key, hook string) (path, submitURL, question string) {
	t.Helper()
	f := s.call(t, "POST", "/api/v1/forms", key, `{"title":"Launch","questions":[{"type":"text","question":"Name"}]}`, http.StatusCreated)
	path = fmt.Sprintf("/api/v1/forms/%d", int64(f["id"].(float64)))
	question = fmt.Sprint(int64(f["questions"].([]any)[0].(map[string]any)["id"].(float64)))
	s.call(t, "PATCH", path, key, fmt.Sprintf(`{"webhookUrl":%q,"webhookEnabled":true}`, hook), http.StatusOK)
	s.call(t, "POST", path+"/publish", key, "", http.StatusOK)
	return path, s.url() + "/f/" + f["shareUrl"].(string) + "/submissions", question
}

// listAll returns the ids of every response of the form, through the API.
func (s *formaServer) listAll(t *testing.T, key, path string) []string {
	t.Helper()
	var ids []string
	for {
		page := s.call(t, "GET", fmt.Sprintf("%s/responses?limit=500&offset=%d", path, len(ids)), key, "", http.StatusOK)
		for _, r := range page["responses"].([]any) {
			ids = append(ids, r.(map[string]any)["id"].(string))
		}
		if page["hasMore"] != true {
			return ids
		}
	}
}

// db opens the server's SQLite file, to look into its outbox.
func (s *formaServer) db(t *testing.T) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(s.data, "forma.db")+"?_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// waitForOutbox waits until the running server has claimed every queued webhook
// job.
func (s *formaServer) waitForOutbox(t *testing.T, where string) {
	t.Helper()
	db := s.db(t)
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		var waiting int
		if err := db.QueryRow(`SELECT COUNT(*) FROM webhook_jobs WHERE ` + where).Scan(&waiting); err != nil {
			t.Fatal(err)
		}
		if waiting == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d webhook jobs (%s) still in the outbox after 30 s", waiting, where)
		}
	}
}

// expireClaims ends, in the stopped server's database, the leases of the jobs the
// killed servers had claimed, as the passing of the lease time would.
func (s *formaServer) expireClaims(t *testing.T) {
	t.Helper()
	if _, err := s.db(t).Exec(`UPDATE webhook_jobs SET claimed_at = 1 WHERE claimed_at IS NOT NULL`); err != nil {
		t.Fatal(err)
	}
}

// interrupted returns the submissions whose deliveries a killed server had begun:
// logged as interrupted errors after their lease, never sent again.
func (s *formaServer) interrupted(t *testing.T) map[string]bool {
	t.Helper()
	rows, err := s.db(t).Query(`SELECT session_id FROM webhook_deliveries
		WHERE status = 'error' AND error_message LIKE 'delivery interrupted%'`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	ids := map[string]bool{}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		ids[id] = true
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return ids
}
