package respond_test

import (
	"fmt"
	"strings"
	"testing"

	"forma/internal/server/servertest"
	"forma/internal/store"
)

// TestEditsShowOnTheNextPageLoad: every edit of a published form through the
// API shows on the very next load of its page and definition and on the next
// GET of the form, on the node that made it and, on PostgreSQL, on a second node
// over the same database, although both served (and so cached) the form before.
// Unpublishing and deleting take the form off at once.
func TestEditsShowOnTheNextPageLoad(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		nodes := []*servertest.Env{servertest.New(t, d)}
		if d == store.Postgres {
			nodes = nil
			for _, st := range servertest.OpenStores(t, 2) {
				nodes = append(nodes, servertest.Start(t, st))
			}
		}
		key := nodes[0].NewKey()
		id, token, q := published(t, nodes[0], key, `{"title":"Before","questions":[
			{"type":"text","question":"Q-alpha"},{"type":"number","question":"Q-age"}]}`)
		formPath := fmt.Sprintf("/api/v1/forms/%d", id)
		steps := []struct {
			name, method, path, body string
			public, api              int
			want, gone               string // in (not in) every body answered 200
		}{
			{"as published", "", "", "", 200, 200, "Before", ""},
			{"title edited", "PATCH", formPath, `{"title":"After"}`, 200, 200, "After", "Before"},
			{"question added", "POST", formPath + "/fields", `{"type":"text","question":"Q-colour"}`, 200, 200, "Q-colour", ""},
			{"question edited", "PATCH", fmt.Sprintf("%s/fields/%d", formPath, q[0]), `{"question":"Q-beta"}`, 200, 200, "Q-beta", "Q-alpha"},
			{"question deleted", "DELETE", fmt.Sprintf("%s/fields/%d", formPath, q[1]), "", 200, 200, "Q-beta", "Q-age"},
			{"unpublished", "POST", formPath + "/unpublish", "", 404, 200, `"isPublished":false`, ""},
			{"published again", "POST", formPath + "/publish", "", 200, 200, "Q-colour", ""},
			{"deleted", "DELETE", formPath, "", 404, 404, "", ""},
		}
		for _, s := range steps {
			if s.method != "" {
				var body any
				if s.body != "" {
					body = s.body
				}
				if r := nodes[0].Do(s.method, s.path, key, body); r.Status >= 300 {
					t.Fatalf("%s: %s %s: %d %s", s.name, s.method, s.path, r.Status, r.Body)
				}
			}
			for i := len(nodes) - 1; i >= 0; i-- { // the other node first
				for path, want := range map[string]int{"/f/" + token: s.public, "/f/" + token + "/definition": s.public, formPath: s.api} {
					r := nodes[i].Do("GET", path, key, nil)
					body := string(r.Body)
					if r.Status != want || r.Status == 200 && (!strings.Contains(body, s.want) || s.gone != "" && strings.Contains(body, s.gone)) {
						t.Fatalf("%s: node %d: GET %s = %d, want %d with %q and without %q:\n%s", s.name, i+1, path, r.Status, want, s.want, s.gone, body)
					}
				}
			}
		}
	})
}
