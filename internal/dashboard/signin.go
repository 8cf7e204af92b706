package dashboard

import (
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"forma/internal/auth"
	"forma/internal/form"
	"forma/internal/httpx"
	"forma/internal/store"
)

// The sign-in throttle: within throttleWindow, at most maxEmailFailures failed
// sign-ins for one email (guessing one account's password from many addresses)
// and maxAddressFailures from one client address (trying many accounts). Past
// either, every sign-in for that email or from that address is refused with 429
// until old failures leave the window, the right password too, so that guessing
// cannot go on. Failures are rows in the database: the limits hold across nodes.
const (
	throttleWindow     = 15 * time.Minute
	maxEmailFailures   = 5
	maxAddressFailures = 20
)

// maxFormBytes bounds the body of a dashboard form post.
const maxFormBytes = 16 << 10

// errThrottled and errWrongPassword are the two ways a password check fails.
var (
	errThrottled     = errors.New("too many failed sign-ins")
	errWrongPassword = errors.New("wrong email or password")
)

// signinData is the data of the sign-in page.
type signinData struct {
	Next, Email, Error, Notice string
	Signup                     bool
}

// notices are the sentences the sign-in page shows after a redirect (?done=).
var notices = map[string]string{
	"signout":    "You have signed out.",
	"everywhere": "You have signed out on every device.",
}

// signinPage shows the sign-in form, or, when already signed in, goes on to
// the page asked for.
func (h *Handler) signinPage(w http.ResponseWriter, r *http.Request) {
	next := localPath(r.URL.Query().Get("next"))
	s, err := h.session(r)
	if err != nil {
		serverError(w, r, "look up the dashboard session", err)
		return
	}
	if s != nil {
		http.Redirect(w, r, next, http.StatusSeeOther)
		return
	}
	h.showSignin(w, r, http.StatusOK, signinData{Next: next, Notice: notices[r.URL.Query().Get("done")]})
}

func (h *Handler) showSignin(w http.ResponseWriter, r *http.Request, status int, d signinData) {
	d.Signup = h.cfg.Signup
	render(w, r, status, "signin", "Sign in", nil, d)
}

// signIn checks the email and password, starts a new session and goes on to
// the page asked for.
func (h *Handler) signIn(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, maxFormBytes)
	d := signinData{Next: localPath(r.PostFormValue("next")), Email: strings.TrimSpace(r.PostFormValue("email"))}
	acct, err := h.checkPassword(r, d.Email, r.PostFormValue("password"))
	switch {
	case errors.Is(err, errThrottled):
		d.Error = throttledSentence
		w.Header().Set("Retry-After", strconv.Itoa(int(throttleWindow/time.Second)))
		h.showSignin(w, r, http.StatusTooManyRequests, d)
	case errors.Is(err, errWrongPassword):
		d.Error = "The email or the password is not right. Check them and try again."
		h.showSignin(w, r, http.StatusUnauthorized, d)
	case err != nil:
		serverError(w, r, "sign in", err)
	default:
		if err := h.startSession(w, r, acct); err != nil {
			serverError(w, r, "start a dashboard session", err)
			return
		}
		http.Redirect(w, r, d.Next, http.StatusSeeOther)
	}
}

// throttledSentence tells someone throttled what to do.
var throttledSentence = "Too many failed sign-ins. For your account's safety, wait " +
	strconv.Itoa(int(throttleWindow/time.Minute)) + " minutes before trying again."

// checkPassword returns the account whose email and password these are, under
// the throttle: errThrottled when the email or the client address has failed
// too often (without checking the password), errWrongPassword (recorded as a
// failure) when there is no such account, it has no password, or the password
// is wrong.
func (h *Handler) checkPassword(r *http.Request, email, password string) (*store.Account, error) {
	ctx := r.Context()
	key, addr := strings.ToLower(email), httpx.ClientAddress(r, h.cfg.TrustProxy)
	now := h.store.Now()
	byEmail, byAddr, err := h.store.SigninFailures(ctx, key, addr, now.Add(-throttleWindow))
	if err != nil {
		return nil, err
	}
	if byEmail >= maxEmailFailures || byAddr >= maxAddressFailures {
		return nil, errThrottled
	}
	acct, hash, err := h.store.AccountPassword(ctx, email)
	if err != nil && form.ErrorCode(err) != form.NotFound {
		return nil, err
	}
	// An unknown account costs a hash too (CheckPassword of ""), so that the delay
	// does not tell which emails have accounts.
	if len(password) > auth.MaxPasswordLen || !auth.CheckPassword(hash, password) {
		if err := h.store.RecordSigninFailure(ctx, key, addr, now.Add(-throttleWindow)); err != nil {
			return nil, err
		}
		return nil, errWrongPassword
	}
	return acct, h.store.ClearSigninFailures(ctx, key)
}
