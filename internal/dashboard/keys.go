package dashboard

import (
	"net/http"
	"strconv"
	"time"

	"forma/internal/auth"
	"forma/internal/form"
	"forma/internal/quota"
	"forma/internal/store"
)

// maxScopeForms bounds the forms offered as a key's scope (and named in the list).
const maxScopeForms = 500

// keysData is the data of the API keys page.
type keysData struct {
	Keys   []keyRow
	Forms  []form.Form
	Limits []int
	// PlanLimit is the plan's daily request limit, the default of a key.
	PlanLimit int
	Notice    string
	// Errors holds the problems of a refused creation by field (name,
	// dailyLimit, formId), and Values what was typed, to show it again.
	Errors map[string]string
	Values keyValues
}

// keyValues are the fields of the creation form as posted.
type keyValues struct {
	Name, DailyLimit, FormID string
}

// keyRow is one key of the list, ready to show.
type keyRow struct {
	ID            int64
	Name, Prefix  string
	Limit, Scope  string
	Created       string
	LastUsed      string
	RequestsToday int
	// Revoked is when the key was revoked; "" while it is active.
	Revoked string
}

// keysNotices are the sentences the keys page shows after a redirect.
var keysNotices = map[string]string{
	"revoked": "The key has been revoked. Requests made with it are now refused.",
}

// keys lists the account's keys and offers to create one.
func (h *Handler) keys(w http.ResponseWriter, r *http.Request, s *Session) {
	h.showKeys(w, r, http.StatusOK, s, keysData{Notice: keysNotices[r.URL.Query().Get("done")]})
}

// showKeys renders the keys page with d, completed with the keys and forms.
func (h *Handler) showKeys(w http.ResponseWriter, r *http.Request, status int, s *Session, d keysData) {
	plan, err := h.plan(s.Account)
	if err != nil {
		serverError(w, r, "find the account's plan", err)
		return
	}
	forms, err := h.store.ListForms(r.Context(), s.Account.ID, nil, maxScopeForms, 0)
	if err != nil {
		serverError(w, r, "list the account's forms", err)
		return
	}
	list, err := h.store.ListKeys(r.Context(), s.Account.ID, quota.Day(h.store.Now()))
	if err != nil {
		serverError(w, r, "list the account's keys", err)
		return
	}
	d.Forms, d.Limits, d.PlanLimit = forms.Forms, quota.KeyLimits(), plan.DailyLimit
	d.Keys = keyRows(list, forms.Forms, plan)
	render(w, r, status, "keys", "API keys", s, d)
}

// keyRows turns the stored keys into the list's rows.
func keyRows(list []store.KeyStatus, forms []form.Form, plan quota.Plan) []keyRow {
	titles := map[int64]string{}
	for _, f := range forms {
		titles[f.ID] = f.Title
	}
	rows := make([]keyRow, len(list))
	for i, k := range list {
		row := keyRow{ID: k.ID, Name: k.Name, Prefix: k.Prefix, Created: when(k.CreatedAt),
			LastUsed: "never", RequestsToday: k.RequestsToday, Scope: "All forms",
			Limit: "plan's: " + strconv.Itoa(plan.DailyLimit)}
		if k.DailyLimit != nil {
			row.Limit = strconv.Itoa(*k.DailyLimit)
		}
		if k.FormID != nil {
			row.Scope = titles[*k.FormID]
			if row.Scope == "" {
				row.Scope = "Form " + strconv.FormatInt(*k.FormID, 10)
			}
		}
		if k.LastUsedAt != nil {
			row.LastUsed = when(*k.LastUsedAt)
		}
		if k.RevokedAt != nil {
			row.Revoked = when(*k.RevokedAt)
		}
		rows[i] = row
	}
	return rows
}

// when formats a time for the pages, in UTC (which the pages say).
func when(t time.Time) string {
	return t.UTC().Format("2 Jan 2006 15:04")
}

// day formats a date for the pages, in UTC.
func day(t time.Time) string {
	return t.UTC().Format("2 Jan 2006")
}

// plan is the configured plan of acct.
func (h *Handler) plan(acct *store.Account) (quota.Plan, error) {
	return h.cfg.Plans.For(acct.Tier)
}

// createdKeyData is the data of the page that shows a new key, once.
type createdKeyData struct {
	Name, Key string
}

// createKey creates a key from the posted settings, checked by the rule the CLI
// uses (auth.KeySettings.Check), and shows it once: the page is the answer to
// the POST and is never stored, so reloading or going back cannot show it again.
func (h *Handler) createKey(w http.ResponseWriter, r *http.Request, s *Session) {
	r.Body = http.MaxBytesReader(w, r.Body, maxFormBytes)
	v := keyValues{Name: r.PostFormValue("name"), DailyLimit: r.PostFormValue("dailyLimit"), FormID: r.PostFormValue("formId")}
	settings, err := keySettings(v)
	if err == nil {
		err = settings.Check()
	}
	var key string
	if err == nil {
		key, err = h.newKey(r, s.Account.ID, settings)
	}
	if form.ErrorCode(err) == form.Invalid {
		h.showKeys(w, r, http.StatusBadRequest, s, keysData{Errors: problemsOf(err), Values: v})
		return
	}
	if err != nil {
		serverError(w, r, "create an API key", err)
		return
	}
	render(w, r, http.StatusCreated, "key-created", "New API key", s, createdKeyData{Name: settings.Name, Key: key})
}

// keySettings reads the posted fields; a value that is not a number names its field.
func keySettings(v keyValues) (auth.KeySettings, error) {
	settings := auth.KeySettings{Name: v.Name}
	if v.DailyLimit != "" {
		n, err := strconv.Atoi(v.DailyLimit)
		if err != nil {
			return settings, form.FieldInvalid("dailyLimit", "must be one of %s", quota.KeyLimitsText())
		}
		settings.DailyLimit = &n
	}
	if v.FormID != "" {
		id, ok := form.ParseID(v.FormID)
		if !ok {
			return settings, errNoSuchForm
		}
		settings.FormID = &id
	}
	return settings, nil
}

// errNoSuchForm refuses a scope that is not one of the account's forms.
var errNoSuchForm = form.FieldInvalid("formId", "must be one of your forms")

// newKey issues a key as the CLI does (store.IssueKey). A scope to a form the
// account does not own is errNoSuchForm.
func (h *Handler) newKey(r *http.Request, accountID int64, settings auth.KeySettings) (string, error) {
	key, err := h.store.IssueKey(r.Context(), accountID, settings)
	if form.ErrorCode(err) == form.NotFound {
		return "", errNoSuchForm
	}
	return key, err
}

// revokeData is the data of the revocation's confirmation page.
type revokeData struct {
	Key keyRow
}

// confirmRevoke asks before revoking one of the account's live keys.
func (h *Handler) confirmRevoke(w http.ResponseWriter, r *http.Request, s *Session) {
	k, err := h.liveKey(r, s.Account.ID)
	if err != nil {
		h.keyError(w, r, "find an API key", err)
		return
	}
	render(w, r, http.StatusOK, "key-revoke", "Revoke API key", s, revokeData{Key: keyRow{ID: k.ID, Name: k.Name, Prefix: k.Prefix}})
}

// liveKey finds the key of the path among the account's keys; NotFound unless
// it is one of them and not revoked.
func (h *Handler) liveKey(r *http.Request, accountID int64) (*store.APIKey, error) {
	id, ok := form.ParseID(r.PathValue("id"))
	if !ok {
		return nil, form.Errorf(form.NotFound, "Key not found")
	}
	list, err := h.store.ListKeys(r.Context(), accountID, quota.Day(h.store.Now()))
	if err != nil {
		return nil, err
	}
	for _, k := range list {
		if k.ID == id && k.RevokedAt == nil {
			return &k.APIKey, nil
		}
	}
	return nil, form.Errorf(form.NotFound, "Key not found")
}

// revokeKey revokes one of the account's keys and goes back to the list.
func (h *Handler) revokeKey(w http.ResponseWriter, r *http.Request, s *Session) {
	id, ok := form.ParseID(r.PathValue("id"))
	if !ok {
		renderNotFound(w, r)
		return
	}
	if err := h.store.RevokeKey(r.Context(), s.Account.ID, id); err != nil {
		h.keyError(w, r, "revoke an API key", err)
		return
	}
	http.Redirect(w, r, "/keys?done=revoked", http.StatusSeeOther)
}

// keyError answers a key that is not the account's (or no longer live) with the
// not-found page, and anything else as a server error.
func (h *Handler) keyError(w http.ResponseWriter, r *http.Request, what string, err error) {
	if form.ErrorCode(err) == form.NotFound {
		renderNotFound(w, r)
		return
	}
	serverError(w, r, what, err)
}
