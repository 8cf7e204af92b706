package dashboard

import (
	"encoding/json"
	"net/http"
	"strings"

	"forma/internal/auth"
	"forma/internal/form"
)

// signupTier is the plan of an account created at /signup.
const signupTier = "free"

// signupData is the data of the sign-up page.
type signupData struct {
	Email, Error, Rule string
}

// signupPage shows the sign-up form when sign-up is on (--signup), else 404.
func (h *Handler) signupPage(w http.ResponseWriter, r *http.Request) {
	if !h.cfg.Signup {
		renderNotFound(w, r)
		return
	}
	render(w, r, http.StatusOK, "signup", "Create an account", nil, signupData{Rule: passwordRule})
}

// signUp creates an account on the free plan with its password, and signs it in.
func (h *Handler) signUp(w http.ResponseWriter, r *http.Request) {
	if !h.cfg.Signup {
		renderNotFound(w, r)
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, maxFormBytes)
	d := signupData{Email: strings.TrimSpace(r.PostFormValue("email")), Rule: passwordRule}
	password := r.PostFormValue("password")
	if d.Error = signupProblem(d.Email, password, r.PostFormValue("confirm")); d.Error != "" {
		render(w, r, http.StatusBadRequest, "signup", "Create an account", nil, d)
		return
	}
	hash, err := auth.HashPassword(password)
	if err != nil {
		serverError(w, r, "hash a password", err)
		return
	}
	acct, err := h.store.CreateAccountWithPassword(r.Context(), d.Email, signupTier, hash)
	if form.ErrorCode(err) == form.Conflict {
		d.Error = "There is already an account with this email. Sign in instead."
		render(w, r, http.StatusConflict, "signup", "Create an account", nil, d)
		return
	}
	if err == nil {
		err = h.startSession(w, r, acct)
	}
	if err != nil {
		serverError(w, r, "sign up", err)
		return
	}
	http.Redirect(w, r, "/", http.StatusSeeOther)
}

// signupProblem returns what is wrong with a sign-up, as a sentence, or "". An
// email must pass the same rule as a respondent's email answer.
func signupProblem(email, password, confirm string) string {
	raw, err := json.Marshal(email)
	if err == nil {
		_, err = form.ValidateAnswer(&form.Question{Type: form.Email}, raw)
	}
	if email == "" || err != nil {
		return "Enter your email address, like name@example.com."
	}
	return newPasswordProblem(password, confirm)
}

func renderNotFound(w http.ResponseWriter, r *http.Request) {
	renderNotice(w, r, http.StatusNotFound, "Page not found", notice{
		Lines: []string{"There is no page at this address."}, Link: "/", LinkText: "Go to Forma"})
}
