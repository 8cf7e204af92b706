package dashboard

import (
	"net/http"
	"strconv"
	"strings"

	"forma/internal/form"
	"forma/internal/store"
)

// The Email page of a form: its notification settings (form.Notifications,
// saved as PATCH /api/v1/forms/{id} saves them), whether the server sends email
// at all, and the log of sending attempts (store.MailLogs).

// mailLogPerPage is how many sending attempts the page shows.
const mailLogPerPage = 20

// emailRoutes registers the Email page, its post and the webhook redelivery.
func (h *Handler) emailRoutes(mux Mux) {
	handle(mux, "GET /forms/{id}/email", h.page(h.emailPage))
	handle(mux, "POST /forms/{id}/email", h.page(h.saveEmail))
	handle(mux, "POST /forms/{id}/webhook/logs/{logId}/redeliver", h.page(h.redeliver))
}

// emailData is the data of the Email page.
type emailData struct {
	Form       formHead
	Sending    bool
	Recipients string // one address a line
	Enabled    bool
	QuestionID int64
	Questions  []emailQuestion // the form's email questions
	Subject    string
	Message    string
	Pipes      []pipeHint
	Error      string
	Saved      bool
	Log        []mailRow
	Total      int
}

// mailRow is a logged sending attempt as the page shows it.
type mailRow struct {
	store.MailDelivery
	Time string
}

// emailQuestion is an email question the confirmation may go to.
type emailQuestion struct {
	ID   int64
	Text string
}

// pipeHint is a question and the placeholder that pipes its answer.
type pipeHint struct {
	Question, Pipe string
}

// emailPath is the address of form id's Email page.
func emailPath(id int64) string { return "/forms/" + strconv.FormatInt(id, 10) + "/email" }

// emailPage serves GET /forms/{id}/email.
func (h *Handler) emailPage(w http.ResponseWriter, r *http.Request, s *Session) {
	f := h.ownForm(w, r, s)
	if f == nil {
		return
	}
	d := h.emailView(f, f.Settings.Notifications)
	d.Saved = r.URL.Query().Get("done") == "saved"
	h.showEmail(w, r, http.StatusOK, s, d)
}

// emailView is the page's data for form f showing the settings n.
func (h *Handler) emailView(f *form.Form, n *form.Notifications) emailData {
	d := emailData{Form: h.headOf(f), Sending: h.cfg.MailSending}
	d.Form.Tab = "email"
	for _, q := range f.Questions {
		if q.Type == form.Email {
			d.Questions = append(d.Questions, emailQuestion{ID: q.ID, Text: q.Text})
		}
		d.Pipes = append(d.Pipes, pipeHint{Question: q.Text, Pipe: "{{" + strconv.FormatInt(q.ID, 10) + "}}"})
	}
	if n != nil {
		d.Recipients = strings.Join(n.Recipients, "\n")
		if c := n.Confirmation; c != nil {
			d.Enabled, d.QuestionID, d.Subject, d.Message = c.Enabled, c.EmailQuestionID, c.Subject, c.Message
		}
	}
	return d
}

// showEmail completes d with the log and draws the page.
func (h *Handler) showEmail(w http.ResponseWriter, r *http.Request, status int, s *Session, d emailData) {
	list, total, err := h.store.MailLogs(r.Context(), d.Form.ID, mailLogPerPage, 0)
	if err != nil {
		serverError(w, r, "read the mail log", err)
		return
	}
	d.Total = total
	for _, m := range list {
		d.Log = append(d.Log, mailRow{MailDelivery: m, Time: moment(m.CreatedAt)})
	}
	render(w, r, status, "email", "Email · "+d.Form.Title, s, d)
}

// saveEmail serves POST /forms/{id}/email: the recipients (one a line) and
// the confirmation, validated as the API validates them.
func (h *Handler) saveEmail(w http.ResponseWriter, r *http.Request, s *Session) {
	id, ok := parseIDs(w, r, s)
	if !ok {
		return
	}
	n := postedNotifications(r)
	p := form.FormPatch{Notifications: form.Optional[*form.Notifications]{Set: true, Value: n}}
	_, err := h.store.UpdateForm(r.Context(), s.Account.ID, id, p.ApplyPatch)
	if form.ErrorCode(err) != form.Invalid {
		if err != nil {
			h.failed(w, r, s, "save email notifications", err)
			return
		}
		http.Redirect(w, r, emailPath(id)+"?done=saved", http.StatusSeeOther)
		return
	}
	f := h.ownForm(w, r, s)
	if f == nil {
		return
	}
	d := h.emailView(f, n)
	d.Error = problemsOf(err).other()
	h.showEmail(w, r, http.StatusBadRequest, s, d)
}

// postedNotifications reads the Email page's post.
func postedNotifications(r *http.Request) *form.Notifications {
	n := &form.Notifications{}
	for _, line := range strings.Split(r.PostForm.Get("recipients"), "\n") {
		if line = strings.TrimSpace(line); line != "" {
			n.Recipients = append(n.Recipients, line)
		}
	}
	c := &form.Confirmation{Enabled: r.PostForm.Get("confirm") == "on", Subject: r.PostForm.Get("subject"),
		Message: strings.ReplaceAll(r.PostForm.Get("message"), "\r\n", "\n")}
	c.EmailQuestionID, _ = strconv.ParseInt(r.PostForm.Get("emailQuestionId"), 10, 64)
	if c.Enabled || c.EmailQuestionID != 0 || c.Subject != "" || c.Message != "" {
		n.Confirmation = c
	}
	return n
}

// redeliver serves POST /forms/{id}/webhook/logs/{logId}/redeliver: the logged
// delivery is sent again (webhook.Deliverer.Redeliver) and the webhook page
// shows the new entry.
func (h *Handler) redeliver(w http.ResponseWriter, r *http.Request, s *Session) {
	f := h.ownForm(w, r, s)
	if f == nil {
		return
	}
	logID, err := strconv.ParseInt(r.PathValue("logId"), 10, 64)
	if err != nil || logID < 1 {
		h.failed(w, r, s, "redeliver a webhook", form.Errorf(form.NotFound, "Delivery not found"))
		return
	}
	if _, err := h.cfg.Webhooks.Redeliver(r.Context(), f, logID); err != nil {
		h.failed(w, r, s, "redeliver a webhook", err)
		return
	}
	http.Redirect(w, r, webhookPath(f.ID)+"?done=redelivered", http.StatusSeeOther)
}
