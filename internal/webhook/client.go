package webhook

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"syscall"
	"time"
)

// DeliveryTimeout bounds a whole webhook request: connecting, sending, and
// reading the answer.
const DeliveryTimeout = 10 * time.Second

// maxIdlePerHost is how many idle connections to one host are kept for reuse:
// enough for the default workers all delivering to one receiver.
const maxIdlePerHost = 32

// ErrBlockedAddress is the error (wrapped, so test it with errors.Is) of a
// webhook request whose host resolved to an address IsBlockedIP refuses.
var ErrBlockedAddress = errors.New("address not allowed (private, loopback or reserved networks are blocked)")

// NewClient returns the only HTTP client that may send webhook traffic. Unless
// allowPrivate (for development only), every connection it opens is checked
// after DNS resolution and refused with ErrBlockedAddress when IsBlockedIP
// rejects the address, which also defeats DNS rebinding. Any port is allowed,
// because receivers often listen on ports other than 80 and 443; the address is
// what protects the server's network. Environment proxies are never used (a
// proxy would make the connection, hiding the real target from the check),
// redirects are returned instead of followed, and each request is bounded by
// DeliveryTimeout. Connections are kept alive and reused, up to maxIdlePerHost
// to one host (Go's default of 2 would close most connections to a receiver that
// takes a burst); reuse skips no check, since each connection was checked when it
// was dialled, to the address it still talks to.
func NewClient(allowPrivate bool) *http.Client {
	dialer := &net.Dialer{Timeout: DeliveryTimeout}
	if !allowPrivate {
		dialer.Control = refuseBlocked
	}
	transport := &http.Transport{
		Proxy:               nil,
		DialContext:         dialer.DialContext,
		ForceAttemptHTTP2:   true,
		TLSHandshakeTimeout: DeliveryTimeout,
		MaxIdleConns:        4 * maxIdlePerHost,
		MaxIdleConnsPerHost: maxIdlePerHost,
		IdleConnTimeout:     90 * time.Second,
	}
	return &http.Client{
		Transport: transport,
		Timeout:   DeliveryTimeout,
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}
}

// refuseBlocked is the net.Dialer Control hook: it runs for every address a
// connection is attempted to, after resolution and before connect.
func refuseBlocked(_, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("%w: cannot check %q", ErrBlockedAddress, address)
	}
	if IsBlockedIP(ap.Addr()) {
		return fmt.Errorf("%w: %s", ErrBlockedAddress, ap.Addr())
	}
	return nil
}
