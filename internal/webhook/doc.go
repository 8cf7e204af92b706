// Package webhook delivers completed submissions to the URLs that form owners
// configure, and owns everything that makes that safe: the check of a URL when it
// is saved (CheckURL), the address policy (IsBlockedIP), the only HTTP client
// allowed to make webhook requests (NewClient), and the Standard Webhooks
// signature (Sign, SignatureHeader).
//
// Server-side request forgery is stopped twice: when a URL is saved its scheme,
// length and any literal address or loopback name are checked, and on every
// connection the resolved address is checked again, so a host name that later
// resolves to a private address (DNS rebinding) is refused too.
package webhook
