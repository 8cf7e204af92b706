package dashboard

import (
	"errors"
	"net/http"
	"strconv"
	"time"

	"forma/internal/auth"
)

// settingsData is the data of the settings page.
type settingsData struct {
	Error, Notice, Rule string
	// SessionDays is how long a sign-in lasts.
	SessionDays int
}

// settingsNotices are the sentences the settings page shows after a redirect.
var settingsNotices = map[string]string{
	"password": "Your password has been changed. Your other sessions have been signed out.",
}

// settings shows the account's settings: change password, sign out everywhere.
func (h *Handler) settings(w http.ResponseWriter, r *http.Request, s *Session) {
	h.showSettings(w, r, http.StatusOK, s, settingsData{Notice: settingsNotices[r.URL.Query().Get("done")]})
}

func (h *Handler) showSettings(w http.ResponseWriter, r *http.Request, status int, s *Session, d settingsData) {
	d.Rule, d.SessionDays = passwordRule, int(SessionLifetime/(24*time.Hour))
	render(w, r, status, "settings", "Settings", s, d)
}

// changePassword sets a new password after checking the current one (under the
// sign-in throttle), and signs out every other session of the account.
func (h *Handler) changePassword(w http.ResponseWriter, r *http.Request, s *Session) {
	r.Body = http.MaxBytesReader(w, r.Body, maxFormBytes)
	password := r.PostFormValue("password")
	if problem := newPasswordProblem(password, r.PostFormValue("confirm")); problem != "" {
		h.showSettings(w, r, http.StatusBadRequest, s, settingsData{Error: problem})
		return
	}
	_, err := h.checkPassword(r, s.Account.Email, r.PostFormValue("current"))
	switch {
	case errors.Is(err, errThrottled):
		w.Header().Set("Retry-After", strconv.Itoa(int(throttleWindow/time.Second)))
		h.showSettings(w, r, http.StatusTooManyRequests, s, settingsData{Error: throttledSentence})
		return
	case errors.Is(err, errWrongPassword):
		h.showSettings(w, r, http.StatusBadRequest, s, settingsData{Error: "Your current password is not right. Type it again."})
		return
	case err != nil:
		serverError(w, r, "check the current password", err)
		return
	}
	hash, err := auth.HashPassword(password)
	if err == nil {
		err = h.store.SetPassword(r.Context(), s.Account.ID, hash, s.tokenHash)
	}
	if err != nil {
		serverError(w, r, "change a password", err)
		return
	}
	http.Redirect(w, r, "/settings?done=password", http.StatusSeeOther)
}
