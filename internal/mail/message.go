package mail

import (
	"fmt"
	"strings"
	"unicode"

	gomail "github.com/wneessen/go-mail"

	"forma/internal/form"
	"forma/internal/store"
)

// maxSubjectLen bounds a subject, in characters, after piping.
const maxSubjectLen = 250

// content is what one email says.
type content struct {
	subject string
	body    string
	replyTo string // "" for none
}

// response is what the messages of one job are made of.
type response struct {
	form      *form.Form
	questions []form.Question
	sub       *form.Submission
	texts     map[int64]string // answers as text, by question id (form.AnswerTexts)
}

// compose writes the email of a job: an owner notification (replying to the
// respondent's address, when they gave one) or a confirmation.
func (s *Sender) compose(job store.MailJob, r *response) content {
	if job.Kind == store.MailConfirmation {
		c := &form.Confirmation{} // the default texts, when the confirmation was removed since
		if n := r.form.Settings.Notifications; n != nil && n.Confirmation != nil {
			c = n.Confirmation
		}
		subject, body := c.Texts(r.texts)
		return content{subject: headerText(subject), body: body}
	}
	return content{subject: headerText("New response to " + r.form.Title), body: s.ownerBody(r),
		replyTo: r.form.Settings.Notifications.RespondentAddress(r.sub.Answers)}
}

// ownerBody is the text of an owner notification: every answer as a
// "question: answer" line, in the form's order, the hidden values, and a link to
// the response in the dashboard.
func (s *Sender) ownerBody(r *response) string {
	var b strings.Builder
	fmt.Fprintf(&b, "New response to %s, submitted %s.\n\n", r.form.Title, form.Timestamp(*r.sub.CompletedAt))
	for i := range r.questions {
		q := &r.questions[i]
		if text, ok := r.texts[q.ID]; ok {
			line(&b, q.Text, text)
		}
	}
	if len(r.sub.Hidden) > 0 {
		b.WriteString("\nHidden fields\n")
		for _, name := range r.form.Settings.HiddenFields {
			if v, ok := r.sub.Hidden[name]; ok {
				line(&b, name, v)
			}
		}
	}
	if r.sub.Score != nil {
		fmt.Fprintf(&b, "\nScore: %s\n", form.AnswerText(*r.sub.Score))
	}
	fmt.Fprintf(&b, "\nSee it in Forma: %s/forms/%d/responses/%s\n", s.opts.PublicURL, r.form.ID, r.sub.ID)
	return b.String()
}

// line writes "name: value", the later lines of a multi-line value indented.
func line(b *strings.Builder, name, value string) {
	value = strings.ReplaceAll(strings.ReplaceAll(value, "\r\n", "\n"), "\r", "\n")
	fmt.Fprintf(b, "%s: %s\n", name, strings.ReplaceAll(value, "\n", "\n    "))
}

// headerText makes text safe as a header value: every control character (line
// breaks above all, which would start a header of their own) becomes a space,
// runs of spaces one, and the result is at most maxSubjectLen characters.
func headerText(text string) string {
	text = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' {
			return ' '
		}
		return r
	}, text)
	text = strings.Join(strings.Fields(text), " ")
	if r := []rune(text); len(r) > maxSubjectLen {
		text = string(r[:maxSubjectLen-1]) + "…"
	}
	return text
}

// message builds the MIME message of c from the configured sender to to.
func (s *Sender) message(to string, c content, confirmation bool) (*gomail.Msg, error) {
	m := gomail.NewMsg(gomail.WithNoDefaultUserAgent())
	if err := m.From(s.opts.From); err != nil {
		return nil, fmt.Errorf("sender address: %w", err)
	}
	if err := m.To(to); err != nil {
		return nil, fmt.Errorf("recipient address: %w", err)
	}
	if c.replyTo != "" {
		// A validated bare address (form.Notifications.RespondentAddress); go-mail
		// parses it again into the header.
		if err := m.ReplyTo(c.replyTo); err != nil {
			return nil, fmt.Errorf("reply-to address: %w", err)
		}
	}
	m.Subject(c.subject)
	m.SetDate()
	m.SetMessageID()
	m.SetUserAgent("Forma")
	if confirmation {
		// RFC 3834: automatic replies must not answer it.
		m.SetGenHeader("Auto-Submitted", "auto-generated")
	}
	m.SetBodyString(gomail.TypeTextPlain, c.body)
	return m, nil
}
