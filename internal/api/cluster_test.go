package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"forma/internal/blob/s3test"
	"forma/internal/config"
	"forma/internal/server"
	"forma/internal/server/servertest"
)

// Two nodes of one deployment: one PostgreSQL database, one S3-compatible bucket
// (a real versitygw), two servers. What one node does, the other sees.

// twoNodes starts two servers over one fresh PostgreSQL database; configure
// adjusts both configurations.
func twoNodes(t *testing.T, configure func(*config.Config)) (a, b *servertest.Env) {
	stores := servertest.OpenStores(t, 2)
	return servertest.Start(t, stores[0], configure), servertest.Start(t, stores[1], configure)
}

// TestClusterFileUploadedOnADownloadsOnB: a respondent uploads a file through
// node A; the owner reads the response and downloads the file through node B.
func TestClusterFileUploadedOnADownloadsOnB(t *testing.T) {
	bucket := s3test.Start(t, "forma")
	a, b := twoNodes(t, func(c *config.Config) { c.BlobURL = bucket })
	key := a.NewKey()
	path, token, qs := publishedForm(t, a, key, obj{"title": "CVs", "questions": []obj{
		{"type": "file_upload", "question": "Your CV", "required": true}}})

	content := []byte("%PDF-1.4 a CV uploaded through node A")
	submit(t, a, token, obj{qs[0]: uploadTo(t, a, token, "cv.pdf", content)})

	list := b.For(t).Do("GET", path+"/responses", key, nil)
	expectStatus(t, list, 200)
	link := fileLink(t, list.Body)
	got := b.For(t).Do("GET", strings.TrimPrefix(link, b.URL), "", nil)
	expectStatus(t, got, 200)
	if !bytes.Equal(got.Body, content) {
		t.Errorf("node B served %q, want %q", got.Body, content)
	}
	if d := got.Header.Get("Content-Disposition"); !strings.HasPrefix(d, "attachment") {
		t.Errorf("Content-Disposition %q, want an attachment", d)
	}
}

// fileLink finds the signed download link in a list of responses.
func fileLink(t *testing.T, body []byte) string {
	t.Helper()
	i := bytes.Index(body, []byte("/files/"))
	if i < 0 {
		t.Fatalf("no file link in %s", body)
	}
	start := bytes.LastIndexByte(body[:i], '"') + 1
	end := i + bytes.IndexByte(body[i:], '"')
	var link string
	if err := json.Unmarshal(append(append([]byte{'"'}, body[start:end]...), '"'), &link); err != nil {
		t.Fatal(err)
	}
	return link
}

// TestClusterSubmitLimitIsExact: the per-client submission limit holds across
// two nodes under concurrent load — of 40 submissions from one address, sent to
// both nodes at once, exactly the limit are accepted.
func TestClusterSubmitLimitIsExact(t *testing.T) {
	const limit = 7
	a, b := twoNodes(t, func(c *config.Config) { c.SubmitLimit = limit })
	_, token, qs := publishedForm(t, a, a.NewKey(), obj{"title": "Poll", "questions": []obj{
		{"type": "text", "question": "Name"}}})
	statuses := submitConcurrently(t, []string{a.URL, b.URL}, token, `{"answers": {"`+qs[0]+`": "x"}}`, 40)
	if statuses[201] != limit || statuses[429] != 40-limit {
		t.Errorf("statuses %v, want %d × 201 and %d × 429", statuses, limit, 40-limit)
	}
}

// submitConcurrently sends n one-shot submissions with body, alternating between
// the nodes, all at once, and counts the statuses.
func submitConcurrently(t *testing.T, nodes []string, token, body string, n int) map[int]int {
	var mu sync.Mutex
	statuses := map[int]int{}
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := http.Post(nodes[i%len(nodes)]+"/f/"+token+"/submissions", "application/json", strings.NewReader(body))
			if err != nil {
				t.Error(err)
				return
			}
			io.Copy(io.Discard, res.Body)
			res.Body.Close()
			mu.Lock()
			statuses[res.StatusCode]++
			mu.Unlock()
		}()
	}
	wg.Wait()
	return statuses
}

// TestClusterOneWebhookPerCompletion: both nodes run delivery workers over one
// outbox; every completion is delivered exactly once.
func TestClusterOneWebhookPerCompletion(t *testing.T) {
	var mu sync.Mutex
	seen := map[string]int{}
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen[r.Header.Get("webhook-id")]++
		mu.Unlock()
	}))
	defer receiver.Close()
	a, b := twoNodes(t, func(c *config.Config) { c.AllowPrivateWebhooks, c.SubmitLimit = true, 0 })
	key := a.NewKey()
	path, token, qs := publishedForm(t, a, key, obj{"title": "Orders", "questions": []obj{
		{"type": "text", "question": "Item"}}})
	expectStatus(t, a.For(t).Do("PATCH", path, key, obj{"webhookUrl": receiver.URL, "webhookEnabled": true}), 200)

	const n = 30
	statuses := submitConcurrently(t, []string{a.URL, b.URL}, token, `{"answers": {"`+qs[0]+`": "tea"}}`, n)
	if statuses[201] != n {
		t.Fatalf("statuses %v, want %d × 201", statuses, n)
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		mu.Lock()
		got := len(seen)
		mu.Unlock()
		if got == n || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	time.Sleep(500 * time.Millisecond) // room for a duplicate to arrive
	mu.Lock()
	defer mu.Unlock()
	if len(seen) != n {
		t.Errorf("%d submissions delivered, want %d", len(seen), n)
	}
	for id, count := range seen {
		if count != 1 {
			t.Errorf("submission %s delivered %d times", id, count)
		}
	}
}

// TestClusterSweeperKeepsUsedFiles: the orphan sweep, run by both nodes at once,
// deletes an upload no submission used once it is older than a day, file and
// record, and keeps a used one and a recent one.
func TestClusterSweeperKeepsUsedFiles(t *testing.T) {
	bucket := s3test.Start(t, "sweep")
	a, b := twoNodes(t, func(c *config.Config) { c.BlobURL = bucket })
	key := a.NewKey()
	_, token, qs := publishedForm(t, a, key, obj{"title": "Photos", "questions": []obj{
		{"type": "file_upload", "question": "Photo"}}})
	png := []byte("\x89PNG\r\n\x1a\n")
	used, orphan := uploadTo(t, a, token, "used.png", png), uploadTo(t, a, token, "orphan.png", png)
	submit(t, a, token, obj{qs[0]: used})
	usedKey, orphanKey := blobKey(t, a, used), blobKey(t, a, orphan)

	time.Sleep(20 * time.Millisecond)
	between := time.Now()
	time.Sleep(20 * time.Millisecond)
	recent := uploadTo(t, a, token, "recent.png", png)
	// Both nodes sweep at once, as of the moment the first two uploads are a day
	// old and the recent one is not yet.
	var wg sync.WaitGroup
	for _, n := range []*servertest.Env{a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			n.Server.Sweep(context.Background(), between.Add(server.OrphanAge))
		}()
	}
	wg.Wait()

	ctx := context.Background()
	if _, err := a.Store.GetUpload(ctx, orphan); err == nil {
		t.Error("the orphan's record survived the sweep")
	}
	if _, err := a.Server.Blobs.Open(ctx, orphanKey); err == nil {
		t.Error("the orphan's file survived the sweep")
	}
	for _, id := range []string{used, recent} {
		if _, err := b.Store.GetUpload(ctx, id); err != nil {
			t.Errorf("upload %s was swept: %v", id, err)
		}
	}
	r, err := b.Server.Blobs.Open(ctx, usedKey)
	if err != nil {
		t.Fatalf("the used file was swept: %v", err)
	}
	r.Close()
}

// uploadTo uploads content as a file named name to the form and returns the
// upload's id.
func uploadTo(t *testing.T, env *servertest.Env, token, name string, content []byte) string {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, _ := mw.CreateFormFile("file", name)
	fw.Write(content)
	mw.Close()
	req := env.NewRequest("POST", "/f/"+token+"/uploads", "", body.Bytes())
	req.Header.Set("Content-Type", mw.FormDataContentType())
	r := env.For(t).Send(req)
	expectStatus(t, r, 201)
	return r.JSON(t)["id"].(string)
}

// blobKey is where an upload's bytes are stored.
func blobKey(t *testing.T, env *servertest.Env, uploadID string) string {
	t.Helper()
	u, err := env.Store.GetUpload(context.Background(), uploadID)
	if err != nil {
		t.Fatal(err)
	}
	return u.BlobKey
}
