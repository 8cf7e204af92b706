package form

import (
	"fmt"
	"strings"
)

// Notifications are the emails a form sends on each completed submission: an
// owner notification to each of Recipients, and, when Confirmation is enabled, a
// confirmation to the address the respondent gave in the confirmation's email
// question. They are sent through the mail outbox (package mail) when the
// server has SMTP configured.
type Notifications struct {
	// Recipients are the owner addresses that each get every completed submission.
	Recipients []string `json:"recipients,omitempty"`
	// Confirmation is the email sent to the respondent, if any.
	Confirmation *Confirmation `json:"confirmation,omitempty"`
}

// Confirmation is the email a respondent gets after completing a submission,
// at the address they answered to an email question of the form. Subject and
// Message may pipe answers ({{<question id>}}: Pipe).
type Confirmation struct {
	// Enabled turns the confirmation on; a disabled one keeps its texts.
	Enabled bool `json:"enabled"`
	// EmailQuestionID is the email question whose answer is the recipient.
	EmailQuestionID int64 `json:"emailQuestionId,omitempty"`
	// Subject is the email's subject (DefaultConfirmationSubject when empty).
	Subject string `json:"subject,omitempty"`
	// Message is the email's text (DefaultConfirmationMessage when empty).
	Message string `json:"message,omitempty"`
}

// Limits of the notification settings.
const (
	MaxRecipients             = 20
	MaxConfirmationSubjectLen = 200
	MaxConfirmationMessageLen = 5000
)

// Default texts of the respondent confirmation.
const (
	DefaultConfirmationSubject = "Thank you for your response"
	DefaultConfirmationMessage = "We have received your response. Thank you!"
)

// Active reports whether c sends anything: enabled, with an email question.
func (c *Confirmation) Active() bool {
	return c != nil && c.Enabled && c.EmailQuestionID != 0
}

// Texts returns c's subject and message, defaults for the empty ones, with the
// answers texts piped in (Pipe). They are plain text; the subject is a header
// value only once the mail package has removed its line breaks.
func (c *Confirmation) Texts(texts map[int64]string) (subject, message string) {
	subject, message = DefaultConfirmationSubject, DefaultConfirmationMessage
	if c.Subject != "" {
		subject = c.Subject
	}
	if c.Message != "" {
		message = c.Message
	}
	return Pipe(subject, texts), Pipe(message, texts)
}

// ConfirmationTo is the address a submission's confirmation goes to: the
// answer to the confirmation's email question, "" when n sends none or the
// respondent gave no valid address.
func (n *Notifications) ConfirmationTo(answers map[int64]any) string {
	if n == nil || !n.Confirmation.Active() {
		return ""
	}
	return n.RespondentAddress(answers)
}

// RespondentAddress is the address a submission gave in the confirmation's
// email question, whether or not the confirmation is enabled (the owner
// notification's Reply-To); "" when n names no such question or the answer is
// not a valid bare address.
func (n *Notifications) RespondentAddress(answers map[int64]any) string {
	if n == nil || n.Confirmation == nil || n.Confirmation.EmailQuestionID == 0 {
		return ""
	}
	addr, _ := answers[n.Confirmation.EmailQuestionID].(string)
	if checkEmail(nil, addr) != nil {
		return ""
	}
	return addr
}

// remapQuestions renames the question ids n refers to (Settings.RemapQuestions):
// the confirmation's email question and the answers its texts pipe.
func (n *Notifications) remapQuestions(ids map[int64]int64) {
	if c := n.Confirmation; c != nil {
		c.EmailQuestionID = remapID(c.EmailQuestionID, ids)
		c.Subject, c.Message = remapPiped(c.Subject, ids), remapPiped(c.Message, ids)
	}
}

// setNotifications validates n into s.Notifications; nil, or settings with no
// recipient and no confirmation, removes them. questions are the form's (none
// on create, when no question has an id yet).
func (s *Settings) setNotifications(n *Notifications, questions []Question, known map[int64]bool, p *Problems) {
	if n == nil || len(n.Recipients) == 0 && n.Confirmation == nil {
		s.Notifications = nil
		return
	}
	checkRecipients(n.Recipients, p)
	if n.Confirmation != nil {
		n.Confirmation.validate(questions, known, p)
	}
	s.Notifications = n
}

// checkRecipients records the problems of the owner recipients: at most
// MaxRecipients bare addresses (as an email answer), none repeated.
func checkRecipients(addrs []string, p *Problems) {
	list := uniqueList{field: "notifications.recipients", noun: "addresses", limit: MaxRecipients}
	list.check(addrs, p, func(addr, field string) (string, bool) {
		if checkEmail(nil, addr) != nil {
			p.Add(field, "must be an email address such as owner@example.com (got %q)", quoteShort(addr))
			return "", false
		}
		return strings.ToLower(addr), true
	}, func(addr, _ string) string { return fmt.Sprintf("duplicates %q", addr) })
}

// validate records c's problems under notifications.confirmation: its email
// question must be an email question of the form (required when enabled), its
// texts follow CheckText and their lengths, and pipe only the form's questions.
func (c *Confirmation) validate(questions []Question, known map[int64]bool, p *Problems) {
	const field = "notifications.confirmation"
	switch {
	case c.EmailQuestionID == 0 && c.Enabled:
		p.Add(field+".emailQuestionId", "is required when the confirmation is enabled")
	case c.EmailQuestionID != 0 && !known[c.EmailQuestionID]:
		p.Add(field+".emailQuestionId", "%s", unknownQuestion(known))
	case c.EmailQuestionID != 0 && questionType(questions, c.EmailQuestionID) != Email:
		p.Add(field+".emailQuestionId", "must name an email question")
	}
	checkOwnerText(c.Subject, SingleLine, 0, MaxConfirmationSubjectLen, field+".subject", p)
	checkOwnerText(c.Message, MultiLine, 0, MaxConfirmationMessageLen, field+".message", p)
	checkPiped(c.Subject, known, field+".subject", p)
	checkPiped(c.Message, known, field+".message", p)
}

// questionType is the type of the question with id among questions ("" when
// there is none).
func questionType(questions []Question, id int64) QuestionType {
	for i := range questions {
		if questions[i].ID == id {
			return questions[i].Type
		}
	}
	return ""
}
