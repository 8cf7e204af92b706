package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"forma/internal/server/servertest"
)

// scenario is one row of a table that servertest.Run runs.
type scenario = servertest.Scenario

// check is a scenario's Check hook.
type check = func(t *testing.T, r *servertest.Response)

type obj = map[string]any

var timestampRE = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$`)

// checks runs each check in turn.
func checks(cs ...check) check {
	return func(t *testing.T, r *servertest.Response) {
		t.Helper()
		for _, c := range cs {
			c(t, r)
		}
	}
}

// apiError checks an error body: its code, and a message that names the given text
// (usually the field).
func apiError(code, mentions string) check {
	return func(t *testing.T, r *servertest.Response) {
		t.Helper()
		body := r.JSON(t)
		if body["error"] != code {
			t.Errorf("error %v, want %s", body["error"], code)
		}
		msg, _ := body["message"].(string)
		if msg == "" || !strings.Contains(msg, mentions) {
			t.Errorf("message %q does not mention %q", msg, mentions)
		}
	}
}

// fields checks top-level fields of a JSON object body: each has the value want
// gives it once encoded and decoded.
func fields(want obj) check {
	return func(t *testing.T, r *servertest.Response) {
		t.Helper()
		got := r.JSON(t)
		for k, v := range want {
			if w := roundTrip(t, v); !reflect.DeepEqual(got[k], w) {
				t.Errorf("%s = %v, want %v", k, got[k], w)
			}
		}
	}
}

// bodyIs checks the whole body.
func bodyIs(want string) check {
	return func(t *testing.T, r *servertest.Response) {
		t.Helper()
		if string(r.Body) != want {
			t.Errorf("body %q, want %q", r.Body, want)
		}
	}
}

// emptyBody checks that a response (a 204) has no body.
func emptyBody(t *testing.T, r *servertest.Response) { bodyIs("")(t, r) }

// into decodes the body into *m, for later scenarios of the table.
func into(m *obj) check {
	return func(t *testing.T, r *servertest.Response) { *m = r.JSON(t) }
}

// items returns the array under key of a decoded object.
func items(t *testing.T, m obj, key string) []obj {
	t.Helper()
	raw, ok := m[key].([]any)
	if !ok {
		t.Fatalf("no %s array in %v", key, m)
	}
	out := make([]obj, len(raw))
	for i, v := range raw {
		out[i] = v.(obj)
	}
	return out
}

// roundTrip returns v encoded as JSON and decoded again.
func roundTrip(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var w any
	if err := json.Unmarshal(b, &w); err != nil {
		t.Fatal(err)
	}
	return w
}

// sameJSON checks that got (decoded JSON) is want once encoded and decoded.
func sameJSON(t *testing.T, what string, got, want any) {
	t.Helper()
	if w := roundTrip(t, want); !reflect.DeepEqual(got, w) {
		t.Errorf("%s returned as %v, sent %v", what, got, w)
	}
}

// expectStatus fails the test unless the response has the status: for the state a
// table is built on.
func expectStatus(t testing.TB, r *servertest.Response, status int) {
	t.Helper()
	if r.Status != status {
		t.Fatalf("%s %s: status %d, want %d; body: %s", r.Request.Method, r.Request.URL.Path, r.Status, status, r.Body)
	}
}

// createForm creates a form with the key and returns it decoded.
func createForm(t testing.TB, env *servertest.Env, key string, body any) obj {
	t.Helper()
	r := env.For(t).Do("POST", apiPrefix+"/forms", key, body)
	expectStatus(t, r, http.StatusCreated)
	return r.JSON(t)
}

// publishedForm creates and publishes a form, returning its path, share token and
// question ids.
func publishedForm(t testing.TB, env *servertest.Env, key string, body any) (string, string, []string) {
	t.Helper()
	f := createForm(t, env, key, body)
	path := formPath(f)
	expectStatus(t, env.For(t).Do("POST", path+"/publish", key, nil), 200)
	return path, f["shareUrl"].(string), questionIDs(t, f)
}

// questionIDs lists the ids of a decoded form's questions, as in a path or answers.
func questionIDs(t testing.TB, f obj) []string {
	t.Helper()
	raw, ok := f["questions"].([]any)
	if !ok {
		t.Fatalf("no questions in %v", f)
	}
	var ids []string
	for _, q := range raw {
		ids = append(ids, id(q.(obj)["id"]))
	}
	return ids
}

// submit completes a submission through the public JSON operation and returns its id.
func submit(t testing.TB, env *servertest.Env, token string, answers any) string {
	t.Helper()
	if s, ok := answers.(string); ok {
		answers = json.RawMessage(s)
	}
	r := env.For(t).Do("POST", "/f/"+token+"/submissions", "", obj{"answers": answers})
	expectStatus(t, r, 201)
	return r.JSON(t)["id"].(string)
}

// id renders a decoded JSON id as in a path.
func id(v any) string { return fmt.Sprint(int64(v.(float64))) }

// formPath is the API path of a decoded form.
func formPath(f obj) string { return apiPrefix + "/forms/" + id(f["id"]) }

// mustInt parses a decimal id.
func mustInt(s string) int64 {
	var n int64
	fmt.Sscan(s, &n)
	return n
}

// pathFrom sets a scenario's path as it starts, from state that earlier scenarios of
// its table built.
func pathFrom(path func() string) func(*testing.T, *scenario) {
	return func(_ *testing.T, s *scenario) { s.Path = path() }
}
