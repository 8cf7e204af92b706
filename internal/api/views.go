package api

import (
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

// formView is the wire shape of a Form.
type formView struct {
	ID          int64            `json:"id"`
	Title       string           `json:"title"`
	Description string           `json:"description"`
	IsPublished bool             `json:"isPublished"`
	ShareURL    string           `json:"shareUrl"`
	URL         string           `json:"url"`
	DisplayMode form.DisplayMode `json:"displayMode"`
	CreatedAt   string           `json:"createdAt"`
	PublishedAt *string          `json:"publishedAt"`
	Webhook     webhookView      `json:"webhook"`
	// HiddenFields are the form's hidden fields (an extension), always listed.
	HiddenFields []string             `json:"hiddenFields"`
	Questions    *[]form.QuestionJSON `json:"questions,omitempty"`
}

type webhookView struct {
	Enabled bool    `json:"enabled"`
	URL     *string `json:"url"`
}

func (a *API) shareURL(f *form.Form) string {
	return f.ShareURL(a.cfg.PublicURL)
}

// viewForm renders f; withQuestions adds its questions.
func (a *API) viewForm(f *form.Form, withQuestions bool) formView {
	v := formView{
		ID: f.ID, Title: f.Title, Description: f.Description, IsPublished: f.IsPublished(),
		ShareURL: f.ShareToken, URL: a.shareURL(f), DisplayMode: f.DisplayMode,
		CreatedAt: form.Timestamp(f.CreatedAt), PublishedAt: timestampOrNil(f.PublishedAt),
		Webhook:      webhookView{Enabled: f.WebhookEnabled, URL: f.WebhookURL},
		HiddenFields: f.Settings.HiddenFields,
	}
	if v.HiddenFields == nil {
		v.HiddenFields = []string{}
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
