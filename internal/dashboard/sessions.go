package dashboard

import (
	"net/http"
	"net/url"
	"strings"
	"time"

	"forma/internal/auth"
	"forma/internal/form"
	"forma/internal/store"
)

// CookieName is the cookie that carries a browser session's token.
const CookieName = "forma_session"

// SessionLifetime is how long a sign-in lasts: a fixed 30 days from the sign-in
// (not extended by use), after which the owner signs in again. Sign-out, sign
// out everywhere and a password change end sessions earlier.
const SessionLifetime = 30 * 24 * time.Hour

// Session is a signed-in visit: the account, and the session's token hash (to
// end it, or to keep it when the others end).
type Session struct {
	Account   *store.Account
	tokenHash string
}

// pageFunc serves a page that needs a signed-in account.
type pageFunc func(w http.ResponseWriter, r *http.Request, s *Session)

// page wraps fn so that it runs only for a signed-in account: without a live
// session a GET is redirected to /signin?next=<this page>, and a POST to
// /signin. POSTs are checked for their origin first (see the package comment).
func (h *Handler) page(fn pageFunc) http.HandlerFunc {
	serve := func(w http.ResponseWriter, r *http.Request) {
		s, err := h.session(r)
		if err != nil {
			serverError(w, r, "look up the dashboard session", err)
			return
		}
		if s == nil {
			http.Redirect(w, r, signinURL(r), http.StatusSeeOther)
			return
		}
		fn(w, r, s)
	}
	checked := h.post(serve)
	return func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			checked(w, r)
			return
		}
		serve(w, r)
	}
}

// signinURL is where an unauthenticated request is sent: the sign-in page,
// coming back to the page asked for (a POST comes back to the overview).
func signinURL(r *http.Request) string {
	if r.Method != http.MethodGet || r.URL.RequestURI() == "/" {
		return "/signin"
	}
	return "/signin?next=" + url.QueryEscape(r.URL.RequestURI())
}

// session returns the signed-in session of r, or nil (and no error) when its
// cookie is missing, malformed or names no live session.
func (h *Handler) session(r *http.Request) (*Session, error) {
	c, err := r.Cookie(CookieName)
	if err != nil || !wellFormedToken(c.Value) {
		return nil, nil
	}
	hash := auth.Hash(c.Value)
	acct, err := h.store.SessionAccount(r.Context(), hash)
	if form.ErrorCode(err) == form.NotFound {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &Session{Account: acct, tokenHash: hash}, nil
}

// wellFormedToken reports whether v can be a token auth.NewToken made.
func wellFormedToken(v string) bool {
	return len(v) > 0 && len(v) <= 64 && strings.Trim(v, "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz") == ""
}

// startSession signs the account in: a new session with a new random token,
// whatever cookie the browser sent (a token planted before sign-in is never
// promoted: session fixation), whose session, if any, is ended.
func (h *Handler) startSession(w http.ResponseWriter, r *http.Request, acct *store.Account) error {
	if old, err := r.Cookie(CookieName); err == nil && wellFormedToken(old.Value) {
		if err := h.store.DeleteDashboardSession(r.Context(), auth.Hash(old.Value)); err != nil {
			return err
		}
	}
	token, hash, err := auth.NewToken()
	if err != nil {
		return err
	}
	if err := h.store.CreateDashboardSession(r.Context(), acct.ID, hash, h.store.Now().Add(SessionLifetime)); err != nil {
		return err
	}
	h.setCookie(w, token, int(SessionLifetime/time.Second))
	return nil
}

// setCookie sets the session cookie; maxAge < 0 deletes it.
func (h *Handler) setCookie(w http.ResponseWriter, token string, maxAge int) {
	http.SetCookie(w, &http.Cookie{
		Name: CookieName, Value: token, Path: "/", MaxAge: maxAge,
		HttpOnly: true, SameSite: http.SameSiteLaxMode,
		Secure: strings.HasPrefix(h.cfg.PublicURL, "https://"),
	})
}

// endSession forgets the browser's cookie and redirects to the sign-in page
// with a notice (one of the notices signinPage knows).
func (h *Handler) endSession(w http.ResponseWriter, r *http.Request, notice string) {
	h.setCookie(w, "", -1)
	http.Redirect(w, r, "/signin?done="+notice, http.StatusSeeOther)
}

// signOut ends this browser's session, in the database.
func (h *Handler) signOut(w http.ResponseWriter, r *http.Request, s *Session) {
	if err := h.store.DeleteDashboardSession(r.Context(), s.tokenHash); err != nil {
		serverError(w, r, "sign out", err)
		return
	}
	h.endSession(w, r, "signout")
}

// signOutEverywhere ends every session of the account, this one included.
func (h *Handler) signOutEverywhere(w http.ResponseWriter, r *http.Request, s *Session) {
	if err := h.store.DeleteDashboardSessions(r.Context(), s.Account.ID); err != nil {
		serverError(w, r, "sign out everywhere", err)
		return
	}
	h.endSession(w, r, "everywhere")
}
