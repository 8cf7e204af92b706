// Package form is the domain of Forma: forms, questions, their conditional logic and
// the rules that make them valid. It does no I/O.
package form

import "time"

// DisplayMode says how a form is shown to respondents.
type DisplayMode string

// The display modes of a form.
const (
	SinglePage DisplayMode = "single-page"
	MultiStep  DisplayMode = "multi-step"
)

// Valid reports whether m is one of the display modes.
func (m DisplayMode) Valid() bool { return m == SinglePage || m == MultiStep }

// Limits on form and question fields.
const (
	MaxTitleLen       = 500
	MaxDescriptionLen = 5000
	MaxQuestionLen    = 1000
	MaxOptionLen      = 500
	MaxOptions        = 200
	MaxQuestions      = 200
	MaxWebhookURLLen  = 2000
)

// Form is a form owned by an account, with its questions in order.
type Form struct {
	ID             int64
	AccountID      int64
	Title          string
	Description    string
	DisplayMode    DisplayMode
	ShareToken     string
	CreatedAt      time.Time
	UpdatedAt      time.Time
	PublishedAt    *time.Time
	WebhookURL     *string
	WebhookEnabled bool
	Settings       Settings
	Questions      []Question
}

// IsPublished reports whether the form is reachable at its share URL.
func (f *Form) IsPublished() bool { return f.PublishedAt != nil }

// Question is one question of a form.
type Question struct {
	ID       int64
	FormID   int64
	Order    int
	Type     QuestionType
	Text     string
	Required bool
	Options  []string
	Logic    *ConditionalLogic
	Slider   *SliderConfig
	Currency *CurrencyConfig
}

// SliderConfig bounds the answers of a slider question.
type SliderConfig struct {
	Min  float64 `json:"min"`
	Max  float64 `json:"max"`
	Step float64 `json:"step"`
}

// CurrencyConfig names the currency of a currency question and optionally bounds it.
type CurrencyConfig struct {
	Currency string   `json:"currency"`
	Min      *float64 `json:"min,omitempty"`
	Max      *float64 `json:"max,omitempty"`
}

// Optional is a JSON field that distinguishes "absent" from "null" from a value, for
// PATCH bodies.
type Optional[T any] struct {
	Set   bool // the field was present in the body
	Null  bool // it was present and null
	Value T
}

// UnmarshalJSON records that the field was present and decodes its value.
func (o *Optional[T]) UnmarshalJSON(b []byte) error {
	o.Set = true
	if string(b) == "null" {
		o.Null = true
		return nil
	}
	return DecodeStrict(b, &o.Value)
}

// QuestionJSON is the wire shape of a question, in API responses and in the public
// definition of a form: options always present (null for non-choice types), the
// other settings only when set.
type QuestionJSON struct {
	ID               int64             `json:"id"`
	Order            int               `json:"order"`
	Type             QuestionType      `json:"type"`
	Question         string            `json:"question"`
	Required         bool              `json:"required"`
	Options          []string          `json:"options"`
	ConditionalLogic *ConditionalLogic `json:"conditionalLogic,omitempty"`
	SliderConfig     *SliderConfig     `json:"sliderConfig,omitempty"`
	CurrencyConfig   *CurrencyConfig   `json:"currencyConfig,omitempty"`
}

// JSON returns the wire shape of q.
func (q *Question) JSON() QuestionJSON {
	return QuestionJSON{ID: q.ID, Order: q.Order, Type: q.Type, Question: q.Text, Required: q.Required,
		Options: q.Options, ConditionalLogic: q.Logic, SliderConfig: q.Slider, CurrencyConfig: q.Currency}
}
