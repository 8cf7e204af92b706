package webhook_test

import (
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"forma/internal/webhook"
)

// countingServer is a local receiver that counts the connections it accepts and
// the requests it answers.
type countingServer struct {
	*httptest.Server
	conns, requests atomic.Int32
}

type countingListener struct {
	net.Listener
	n *atomic.Int32
}

func (l countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err == nil {
		l.n.Add(1)
	}
	return c, err
}

func newCountingServer(t *testing.T) *countingServer {
	t.Helper()
	s := &countingServer{}
	s.Server = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.requests.Add(1)
	}))
	s.Listener = countingListener{Listener: s.Listener, n: &s.conns}
	s.Start()
	t.Cleanup(s.Close)
	return s
}

func (s *countingServer) assertUntouched(t *testing.T) {
	t.Helper()
	if c, r := s.conns.Load(), s.requests.Load(); c != 0 || r != 0 {
		t.Errorf("receiver saw %d connections and %d requests, want none", c, r)
	}
}

func TestClientRefusesBlockedAddresses(t *testing.T) {
	target := newCountingServer(t)
	port := target.Listener.Addr().(*net.TCPAddr).Port
	client := webhook.NewClient(false)
	for _, host := range []string{"127.0.0.1", "localhost", "[::ffff:127.0.0.1]"} {
		url := "http://" + net.JoinHostPort(strings.Trim(host, "[]"), strconv.Itoa(port)) + "/hook"
		resp, err := client.Post(url, "application/json", strings.NewReader(`{}`))
		if err == nil {
			resp.Body.Close()
			t.Errorf("POST %s succeeded with %s, want it refused", url, resp.Status)
			continue
		}
		assertBlocked(t, err)
	}
	target.assertUntouched(t)
}

func TestClientDoesNotFollowRedirects(t *testing.T) {
	target := newCountingServer(t)
	redirector := httptest.NewServer(http.RedirectHandler(target.URL+"/hook", http.StatusTemporaryRedirect))
	t.Cleanup(redirector.Close)

	// Even with nothing blocked, the redirect is returned, not followed.
	resp, err := webhook.NewClient(true).Post(redirector.URL, "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusTemporaryRedirect || resp.Header.Get("Location") != target.URL+"/hook" {
		t.Errorf("got %s to %q, want the redirect itself", resp.Status, resp.Header.Get("Location"))
	}

	// With blocking on, the (local) redirector itself is refused.
	_, err = webhook.NewClient(false).Post(redirector.URL, "application/json", strings.NewReader(`{}`))
	assertBlocked(t, err)
	target.assertUntouched(t)
}

func TestClientAllowPrivateReachesLocalServer(t *testing.T) {
	target := newCountingServer(t)
	resp, err := webhook.NewClient(true).Post(target.URL, "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || target.requests.Load() != 1 {
		t.Errorf("got %s and %d requests, want 200 and 1", resp.Status, target.requests.Load())
	}
}

func TestClientSettings(t *testing.T) {
	for _, allowPrivate := range []bool{false, true} {
		c := webhook.NewClient(allowPrivate)
		if c.Timeout != webhook.DeliveryTimeout || webhook.DeliveryTimeout.Seconds() != 10 {
			t.Errorf("timeout = %v, want 10s", c.Timeout)
		}
		tr, ok := c.Transport.(*http.Transport)
		if !ok || tr.Proxy != nil {
			t.Errorf("transport %T must not use a proxy", c.Transport)
		}
		if tr.DisableKeepAlives || tr.MaxIdleConnsPerHost < 16 {
			t.Errorf("keep-alives off or %d idle connections per host: a burst to one receiver would dial for most deliveries", tr.MaxIdleConnsPerHost)
		}
		if err := c.CheckRedirect(nil, nil); !errors.Is(err, http.ErrUseLastResponse) {
			t.Errorf("CheckRedirect = %v, want http.ErrUseLastResponse", err)
		}
	}
}

func assertBlocked(t *testing.T, err error) {
	t.Helper()
	if !errors.Is(err, webhook.ErrBlockedAddress) {
		t.Errorf("error = %v, want ErrBlockedAddress", err)
	}
	if err != nil && !strings.Contains(err.Error(), "not allowed") {
		t.Errorf("error %q does not say the address is not allowed", err)
	}
}
