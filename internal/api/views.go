package api

import (
	"time"

	"forma/internal/form"
)

// timestamp formats t as RFC 3339 in UTC with milliseconds.
func timestamp(t time.Time) string {
	return t.UTC().Format("2006-01-02T15:04:05.000Z07:00")
}

func timestampOrNil(t *time.Time) *string {
	if t == nil {
		return nil
	}
	s := timestamp(*t)
	return &s
}

// formView is the wire shape of a Form.
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
}

type webhookView struct {
	Enabled bool    `json:"enabled"`
	URL     *string `json:"url"`
}

func (a *API) shareURL(f *form.Form) string {
	return a.cfg.PublicURL + "/f/" + f.ShareToken
}

// viewForm renders f; withQuestions adds its questions.
func (a *API) viewForm(f *form.Form, withQuestions bool) formView {
	v := formView{
		ID: f.ID, Title: f.Title, Description: f.Description, IsPublished: f.IsPublished(),
		ShareURL: f.ShareToken, URL: a.shareURL(f), DisplayMode: f.DisplayMode,
		CreatedAt: timestamp(f.CreatedAt), PublishedAt: timestampOrNil(f.PublishedAt),
		Webhook: webhookView{Enabled: f.WebhookEnabled, URL: f.WebhookURL},
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
