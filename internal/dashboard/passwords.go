package dashboard

import (
	"net/http"
	"strconv"

	"forma/internal/auth"
	"forma/internal/form"
	"forma/internal/store"
)

// passwordRule is the hint shown under every new-password field.
var passwordRule = "At least " + strconv.Itoa(auth.MinPasswordLen) + " characters. A few unrelated words make a good one."

// newPasswordProblem returns what is wrong with a new password and its
// confirmation, as a sentence for the page, or "".
func newPasswordProblem(password, confirm string) string {
	if problem := auth.PasswordProblem(password); problem != "" {
		return problem
	}
	if password != confirm {
		return "The two passwords are not the same. Type the new password twice."
	}
	return ""
}

// setupData is the data of the setup page.
type setupData struct {
	Email, Action, Error, Rule string
}

// setupPage shows the form of a live setup link, where the account sets its
// password; a used or expired link gets a 404 page saying what to do.
func (h *Handler) setupPage(w http.ResponseWriter, r *http.Request) {
	acct, ok := h.setupAccount(w, r)
	if !ok {
		return
	}
	render(w, r, http.StatusOK, "setup", "Set your password", nil,
		setupData{Email: acct.Email, Action: r.URL.Path, Rule: passwordRule})
}

// setupAccount finds the account of the request's setup link; when there is
// none it has answered (a used or expired link gets a page saying what to do).
func (h *Handler) setupAccount(w http.ResponseWriter, r *http.Request) (*store.Account, bool) {
	acct, err := h.store.SetupTokenAccount(r.Context(), setupHash(r))
	if form.ErrorCode(err) == form.NotFound {
		renderSetupGone(w, r)
		return nil, false
	}
	if err != nil {
		serverError(w, r, "look up a setup link", err)
		return nil, false
	}
	return acct, true
}

// setup spends the setup link: it sets the password and signs the account in.
func (h *Handler) setup(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, maxFormBytes)
	acct, ok := h.setupAccount(w, r)
	if !ok {
		return
	}
	password := r.PostFormValue("password")
	if problem := newPasswordProblem(password, r.PostFormValue("confirm")); problem != "" {
		render(w, r, http.StatusBadRequest, "setup", "Set your password", nil,
			setupData{Email: acct.Email, Action: r.URL.Path, Error: problem, Rule: passwordRule})
		return
	}
	hash, err := auth.HashPassword(password)
	if err != nil {
		serverError(w, r, "hash a password", err)
		return
	}
	acct, err = h.store.UseSetupToken(r.Context(), setupHash(r), hash)
	if form.ErrorCode(err) == form.NotFound { // used meanwhile, by another request
		renderSetupGone(w, r)
		return
	}
	if err == nil {
		err = h.startSession(w, r, acct)
	}
	if err != nil {
		serverError(w, r, "set a password from a setup link", err)
		return
	}
	http.Redirect(w, r, "/", http.StatusSeeOther)
}

// setupHash is the hash of the setup link's token ("" names no link).
func setupHash(r *http.Request) string {
	token := r.PathValue("token")
	if !wellFormedToken(token) {
		return ""
	}
	return auth.Hash(token)
}

func renderSetupGone(w http.ResponseWriter, r *http.Request) {
	renderNotice(w, r, http.StatusNotFound, "Setup link not valid", notice{
		Lines: []string{"This setup link has already been used, or it has expired (links last 24 hours).",
			"If you have set your password, sign in. Otherwise the server's administrator can set one with `forma account set-password --email <your email>`."},
		Link: "/signin", LinkText: "Sign in"})
}
