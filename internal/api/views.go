package api

import (
	"context"
	"time"

	"forma/internal/form"
)

func timestampOrNil(t *time.Time) *string {
	if t == nil {
		return nil
	}
	s := form.Timestamp(*t)
	return &s
}

// formView is the wire shape of a Form. The closing, thank-you and notification settings
// appear when set; closed always.
type formView struct {
	ID          int64                `json:"id"`
	Title       string               `json:"title"`
	Description string               `json:"description"`
	IsPublished bool                 `json:"isPublished"`
	ShareURL    string               `json:"shareUrl"`
	URL         string               `json:"url"`
	DisplayMode form.DisplayMode     `json:"displayMode"`
	CreatedAt   string               `json:"createdAt"`
	PublishedAt *string              `json:"publishedAt"`
	Webhook     webhookView          `json:"webhook"`
	Questions   *[]form.QuestionJSON `json:"questions,omitempty"`
	// HiddenFields are the form's hidden fields (an extension), always listed.
	HiddenFields  []string       `json:"hiddenFields"`
	ClosesAt      *string        `json:"closesAt,omitempty"`
	MaxResponses  *int           `json:"maxResponses,omitempty"`
	ClosedMessage string         `json:"closedMessage,omitempty"`
	ThankYou      *form.ThankYou `json:"thankYou,omitempty"`
	// Notifications are the form's emails (an extension), when set.
	Notifications *form.Notifications `json:"notifications,omitempty"`
	// Language is the page's (form.DefaultLanguage when the form names none).
	Language string `json:"language"`
	// FrameAncestors are the only origins that may frame the page (any when
	// empty), always listed.
	FrameAncestors []string `json:"frameAncestors"`
	// Embed is the code that shows the form in another site.
	Embed form.EmbedCode `json:"embed"`
	// Closed says whether the form takes no more submissions now
	// (store.FormClosed).
	Closed bool `json:"closed"`
}

type webhookView struct {
	Enabled bool    `json:"enabled"`
	URL     *string `json:"url"`
}

func (a *API) shareURL(f *form.Form) string {
	return f.ShareURL(a.cfg.PublicURL)
}

// showForm renders f as it is now: closed or not as store.FormClosed says;
// withQuestions adds its questions.
func (a *API) showForm(ctx context.Context, f *form.Form, withQuestions bool) (formView, error) {
	closed, err := a.store.FormClosed(ctx, f)
	return a.viewForm(f, closed, withQuestions), err
}

// viewForm renders f, closed or not; withQuestions adds its questions.
func (a *API) viewForm(f *form.Form, closed, withQuestions bool) formView {
	s := f.Settings
	v := formView{
		ID: f.ID, Title: f.Title, Description: f.Description, IsPublished: f.IsPublished(),
		ShareURL: f.ShareToken, URL: a.shareURL(f), DisplayMode: f.DisplayMode,
		CreatedAt: form.Timestamp(f.CreatedAt), PublishedAt: timestampOrNil(f.PublishedAt),
		Webhook:  webhookView{Enabled: f.WebhookEnabled, URL: f.WebhookURL},
		ClosesAt: timestampOrNil(s.ClosesAt), MaxResponses: s.MaxResponses, ClosedMessage: s.ClosedMessage,
		ThankYou: s.ThankYou, Closed: closed,
		HiddenFields: f.Settings.HiddenFields, Notifications: s.Notifications, Language: s.Language, FrameAncestors: s.FrameAncestors,
		Embed: f.Embed(a.cfg.PublicURL),
	}
	if v.HiddenFields == nil {
		v.HiddenFields = []string{}
	}
	if v.FrameAncestors == nil {
		v.FrameAncestors = []string{}
	}
	if v.Language == "" {
		v.Language = form.DefaultLanguage
	}
	if withQuestions {
		qs := make([]form.QuestionJSON, len(f.Questions))
		for i := range f.Questions {
			qs[i] = f.Questions[i].JSON()
		}
		v.Questions = &qs
	}
	return v
}
