package form_test

import (
	"strings"
	"testing"

	"forma/internal/form"
)

// notifyForm is a form with a text question (1) and an email question (2).
func notifyForm() *form.Form {
	return &form.Form{Title: "T", DisplayMode: form.SinglePage, Questions: []form.Question{
		{ID: 1, Type: form.Text, Text: "Name", Order: 1}, {ID: 2, Type: form.Email, Text: "Email", Order: 2}}}
}

// TestNotificationsValidation: recipients are distinct bare addresses, at most
// form.MaxRecipients; the confirmation names an email question of the form and
// pipes only its questions; each problem names its field.
func TestNotificationsValidation(t *testing.T) {
	many := make([]string, form.MaxRecipients+1)
	for i := range many {
		many[i] = strings.Repeat("a", i+1) + "@example.com"
	}
	for _, c := range []struct {
		name  string
		n     *form.Notifications
		field string // "" when valid
	}{
		{"recipients", &form.Notifications{Recipients: []string{"a@example.com", "b@example.org"}}, ""},
		{"confirmation", &form.Notifications{Confirmation: &form.Confirmation{Enabled: true, EmailQuestionID: 2,
			Subject: "Thanks {{1}}", Message: "Dear {{1}},\nthanks."}}, ""},
		{"display name", &form.Notifications{Recipients: []string{"Owner <a@example.com>"}}, "notifications.recipients[0]"},
		{"header injection", &form.Notifications{Recipients: []string{"a@example.com\r\nBcc: x@evil.test"}}, "notifications.recipients[0]"},
		{"duplicate", &form.Notifications{Recipients: []string{"a@example.com", "A@example.com"}}, "notifications.recipients[1]"},
		{"too many", &form.Notifications{Recipients: many}, "notifications.recipients"},
		{"no question", &form.Notifications{Confirmation: &form.Confirmation{Enabled: true}}, "notifications.confirmation.emailQuestionId"},
		{"not email", &form.Notifications{Confirmation: &form.Confirmation{Enabled: true, EmailQuestionID: 1}}, "notifications.confirmation.emailQuestionId"},
		{"unknown", &form.Notifications{Confirmation: &form.Confirmation{EmailQuestionID: 9}}, "notifications.confirmation.emailQuestionId"},
		{"subject line break", &form.Notifications{Confirmation: &form.Confirmation{EmailQuestionID: 2, Subject: "a\r\nBcc: x@evil.test"}},
			"notifications.confirmation.subject"},
		{"piped unknown", &form.Notifications{Confirmation: &form.Confirmation{EmailQuestionID: 2, Message: "{{7}}"}},
			"notifications.confirmation.message"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := notifyForm()
			err := form.FormPatch{Notifications: form.Optional[*form.Notifications]{Set: true, Value: c.n}}.ApplyPatch(f)
			if c.field == "" {
				if err != nil || f.Settings.Notifications == nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), c.field) {
				t.Fatalf("error %v, want one naming %s", err, c.field)
			}
		})
	}
}

// TestConfirmation: the recipient is the answer to the email question (none
// when disabled or unanswered); the texts pipe answers, defaults when empty;
// duplicating renames the question ids.
func TestConfirmation(t *testing.T) {
	n := &form.Notifications{Confirmation: &form.Confirmation{Enabled: true, EmailQuestionID: 2, Subject: "Hi {{1}}"}}
	if got := n.ConfirmationTo(map[int64]any{2: "ada@example.com"}); got != "ada@example.com" {
		t.Errorf("to %q", got)
	}
	if got := n.ConfirmationTo(map[int64]any{1: "Ada"}); got != "" {
		t.Errorf("unanswered: to %q", got)
	}
	subject, message := n.Confirmation.Texts(map[int64]string{1: "Ada"})
	if subject != "Hi Ada" || message != form.DefaultConfirmationMessage {
		t.Errorf("texts %q, %q", subject, message)
	}
	s := form.Settings{Notifications: n}
	s.RemapQuestions(map[int64]int64{1: 11, 2: 12})
	if c := s.Notifications.Confirmation; c.EmailQuestionID != 12 || c.Subject != "Hi {{11}}" {
		t.Errorf("remapped %+v", c)
	}
	n.Confirmation.Enabled = false
	if got := n.ConfirmationTo(map[int64]any{2: "ada@example.com"}); got != "" {
		t.Errorf("disabled: to %q", got)
	}
}

// TestRespondentAddress: the owner notification's Reply-To is the answer to the
// confirmation's email question, enabled or not, and only a valid bare
// address: never a display name, a list, or a value with a line break in it.
func TestRespondentAddress(t *testing.T) {
	n := &form.Notifications{Confirmation: &form.Confirmation{EmailQuestionID: 2}}
	if got := n.RespondentAddress(map[int64]any{2: "ada@example.com"}); got != "ada@example.com" {
		t.Errorf("a disabled confirmation's question: %q", got)
	}
	for _, bad := range []any{"", "Ada <ada@example.com>", "ada@example.com, eve@example.com", "ada@example.com\r\nBcc: eve@example.com",
		"ada@localhost", 42, nil} {
		if got := n.RespondentAddress(map[int64]any{2: bad}); got != "" {
			t.Errorf("answer %q gave %q", bad, got)
		}
	}
	for _, none := range []*form.Notifications{nil, {Recipients: []string{"owner@example.com"}}, {Confirmation: &form.Confirmation{Enabled: false}}} {
		if got := none.RespondentAddress(map[int64]any{2: "ada@example.com"}); got != "" {
			t.Errorf("no email question (%+v): %q", none, got)
		}
	}
}
