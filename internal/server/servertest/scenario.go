package servertest

import (
	"bytes"
	"runtime/debug"
	"slices"
	"testing"
)

// Scenario is one request to a running server and what its response must show, in
// the style of PocketBase's ApiScenario. Run runs a table of them as subtests.
type Scenario struct {
	// Name names the subtest; "METHOD path" when empty.
	Name string
	// Method and Path (relative to the server, query included) make the request.
	Method, Path string
	// Key is sent as X-API-Key; "" sends none.
	Key string
	// Body is nil, a string or []byte sent as is, or a value encoded as JSON; any body
	// is sent with Content-Type: application/json.
	Body any
	// Header sets request headers after those defaults; an empty value removes one.
	Header map[string]string
	// BeforeTest runs first, inside the subtest: it may build state and fill in the
	// fields that depend on it (Path, Key, Body). Requests it makes go through
	// env.For(t).
	BeforeTest func(t *testing.T, s *Scenario)

	// ExpectedStatus is the status the response must have; a scenario must set it.
	ExpectedStatus int
	// ExpectedContent are fragments the body must contain.
	ExpectedContent []string
	// NotExpectedContent are fragments the body must not contain.
	NotExpectedContent []string
	// ExpectedHeaders are response headers and their exact values; "" means absent.
	ExpectedHeaders map[string]string
	// Check makes the assertions fragments cannot express (decoded JSON, document
	// validation). It runs whatever the other checks found; a panic in it fails this
	// scenario only.
	Check func(t *testing.T, r *Response)
}

// Run runs the scenarios in order against env, each as a subtest of t. A failing
// scenario does not stop the table.
func Run(t *testing.T, env *Env, scenarios []Scenario) {
	for _, s := range scenarios {
		s.Test(t, env)
	}
}

// Test runs s against env as a subtest of t, reporting every mismatch with the
// request.
func (s Scenario) Test(t *testing.T, env *Env) {
	name := s.Name
	if name == "" {
		name = s.Method + " " + s.Path
	}
	t.Run(name, func(t *testing.T) {
		var r *Response
		defer func() {
			if p := recover(); p != nil {
				t.Errorf("%s %s: panic: %v\n%s", s.Method, s.Path, p, debug.Stack())
			}
			if t.Failed() && r != nil {
				t.Logf("%s %s answered %d:\n%s", s.Method, s.Path, r.Status, clip(r.Body))
			}
		}()
		if s.BeforeTest != nil {
			s.BeforeTest(t, &s)
		}
		e := env.For(t)
		req := e.NewRequest(s.Method, s.Path, s.Key, s.Body)
		for k, v := range s.Header {
			if v == "" {
				req.Header.Del(k)
			} else {
				req.Header.Set(k, v)
			}
		}
		r = e.Send(req)
		s.verify(t, r)
		if s.Check != nil {
			s.Check(t, r)
		}
	})
}

// verify compares the response with the scenario's status, fragments and headers.
func (s *Scenario) verify(t *testing.T, r *Response) {
	t.Helper()
	what := s.Method + " " + s.Path
	switch {
	case s.ExpectedStatus == 0:
		t.Errorf("%s: the scenario sets no ExpectedStatus", what)
	case r.Status != s.ExpectedStatus:
		t.Errorf("%s: status %d, want %d", what, r.Status, s.ExpectedStatus)
	}
	for _, f := range s.ExpectedContent {
		if !bytes.Contains(r.Body, []byte(f)) {
			t.Errorf("%s: body lacks %s", what, clip([]byte(f)))
		}
	}
	for _, f := range s.NotExpectedContent {
		if bytes.Contains(r.Body, []byte(f)) {
			t.Errorf("%s: body has %s", what, clip([]byte(f)))
		}
	}
	names := make([]string, 0, len(s.ExpectedHeaders))
	for h := range s.ExpectedHeaders {
		names = append(names, h)
	}
	slices.Sort(names)
	for _, h := range names {
		if got, want := r.Header.Get(h), s.ExpectedHeaders[h]; got != want {
			t.Errorf("%s: header %s = %q, want %q", what, h, got, want)
		}
	}
}

// clip shortens b for a failure message.
func clip(b []byte) string {
	const most = 2000
	if len(b) > most {
		return string(b[:most]) + "…"
	}
	return string(b)
}
