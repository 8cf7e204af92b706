package dashboard_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"forma/internal/server/servertest"
)

// TestClusterSessionMadeOnAWorksOnB: two nodes over one PostgreSQL database. A
// sign-in through node A is a session node B knows, and signing out on B ends it
// on A; the sign-in throttle counts failures made on both.
func TestClusterSessionMadeOnAWorksOnB(t *testing.T) {
	stores := servertest.OpenStores(t, 2)
	a, b := servertest.Start(t, stores[0]), servertest.Start(t, stores[1])
	withPassword(t, a, "owner@example.com", "correct horse battery")

	onA := newBrowser(t, a)
	onA.signIn("owner@example.com", "correct horse battery")
	token := onA.cookie()
	if !signedIn(t, b, token) {
		t.Fatal("node B does not know the session made on node A")
	}
	onB := newBrowser(t, b)
	onB.plant(token)
	if p := onB.get("/"); p.Status != http.StatusOK || !strings.Contains(p.Body, "owner@example.com") {
		t.Fatalf("overview on node B: %d", p.Status)
	}
	if p := onB.post("/signout", url.Values{}); p.Status != http.StatusSeeOther {
		t.Fatalf("sign out on node B: %d %s", p.Status, p.Body)
	}
	if signedIn(t, a, token) {
		t.Error("the session signed out on node B still works on node A")
	}

	// Five failures spread over both nodes lock the email on both.
	for i := range 5 {
		node := []*servertest.Env{a, b}[i%2]
		newBrowser(t, node).post("/signin", url.Values{"email": {"owner@example.com"}, "password": {"wrong"}})
	}
	for _, node := range []*servertest.Env{a, b} {
		p := newBrowser(t, node).post("/signin", url.Values{"email": {"owner@example.com"}, "password": {"correct horse battery"}})
		if p.Status != http.StatusTooManyRequests {
			t.Errorf("after 5 failures over two nodes, %s answered %d, want 429", node.URL, p.Status)
		}
	}
}
