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
	Questions   *[]questionView  `json:"questions,omitempty"`
}

type webhookView struct {
	Enabled bool    `json:"enabled"`
	URL     *string `json:"url"`
}

// questionView is the wire shape of a Question.
type questionView struct {
	ID               int64                  `json:"id"`
	Order            int                    `json:"order"`
	Type             form.QuestionType      `json:"type"`
	Question         string                 `json:"question"`
	Required         bool                   `json:"required"`
	Options          []string               `json:"options"`
	ConditionalLogic *form.ConditionalLogic `json:"conditionalLogic,omitempty"`
	SliderConfig     *form.SliderConfig     `json:"sliderConfig,omitempty"`
	CurrencyConfig   *form.CurrencyConfig   `json:"currencyConfig,omitempty"`
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
		qs := make([]questionView, len(f.Questions))
		for i := range f.Questions {
			qs[i] = viewQuestion(&f.Questions[i])
		}
		v.Questions = &qs
	}
	return v
}

func viewQuestion(q *form.Question) questionView {
	return questionView{
		ID: q.ID, Order: q.Order, Type: q.Type, Question: q.Text, Required: q.Required,
		Options: q.Options, ConditionalLogic: q.Logic, SliderConfig: q.Slider, CurrencyConfig: q.Currency,
	}
}
