package form

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strings"
	"unicode/utf8"
)

// FormInput is the body of POST /forms. Its text obeys CheckText: the title is a
// SingleLine, the description MultiLine (a paragraph or more). The closing and
// thank-you fields are Settings (closing.go, thankyou.go); null leaves one unset.
// HiddenFields are the names of Settings.HiddenFields (hidden.go says what a name
// may be). Language and FrameAncestors are the page's (language.go,
// embedding.go).
type FormInput struct {
	Title          *string         `json:"title"`
	Description    *string         `json:"description"`
	DisplayMode    DisplayMode     `json:"displayMode"`
	Questions      []QuestionInput `json:"questions"`
	ClosesAt       *string         `json:"closesAt"`
	MaxResponses   *int            `json:"maxResponses"`
	ClosedMessage  *string         `json:"closedMessage"`
	ThankYou       *ThankYou       `json:"thankYou"`
	HiddenFields   []string        `json:"hiddenFields"`
	Language       *string         `json:"language"`
	FrameAncestors []string        `json:"frameAncestors"`
	Notifications  *Notifications  `json:"notifications"`
}

// QuestionInput is a question to create: an item of POST /forms or the body of
// POST /forms/{id}/fields. The question text and each option are SingleLine text
// (CheckText); the strings of conditionalLogic follow ValidateLogic.
type QuestionInput struct {
	Type             QuestionType      `json:"type"`
	Question         *string           `json:"question"`
	Required         bool              `json:"required"`
	Options          []string          `json:"options"`
	SliderConfig     *SliderConfig     `json:"sliderConfig"`
	CurrencyConfig   *CurrencyConfig   `json:"currencyConfig"`
	ConditionalLogic *ConditionalLogic `json:"conditionalLogic"`
}

// FormPatch is the body of PATCH /forms/{id}; absent fields are left as they are,
// and null clears one of the settings (closesAt, maxResponses, closedMessage,
// thankYou, notifications, language; a null hiddenFields or frameAncestors removes them all). Its text follows the rules of FormInput; webhookUrl is checked by
// the webhook package.
type FormPatch struct {
	Title          Optional[string]         `json:"title"`
	Description    Optional[string]         `json:"description"`
	DisplayMode    Optional[DisplayMode]    `json:"displayMode"`
	WebhookURL     Optional[string]         `json:"webhookUrl"`
	WebhookEnabled Optional[bool]           `json:"webhookEnabled"`
	ClosesAt       Optional[string]         `json:"closesAt"`
	MaxResponses   Optional[int]            `json:"maxResponses"`
	ClosedMessage  Optional[string]         `json:"closedMessage"`
	ThankYou       Optional[*ThankYou]      `json:"thankYou"`
	HiddenFields   Optional[[]string]       `json:"hiddenFields"`
	Language       Optional[string]         `json:"language"`
	FrameAncestors Optional[[]string]       `json:"frameAncestors"`
	Notifications  Optional[*Notifications] `json:"notifications"`
}

// QuestionPatch is the body of PATCH /forms/{id}/fields/{fieldId}. Its text follows
// the rules of QuestionInput.
type QuestionPatch struct {
	Question         Optional[string]            `json:"question"`
	Required         Optional[bool]              `json:"required"`
	Options          Optional[[]string]          `json:"options"`
	Type             Optional[QuestionType]      `json:"type"`
	ConditionalLogic Optional[*ConditionalLogic] `json:"conditionalLogic"`
	SliderConfig     Optional[*SliderConfig]     `json:"sliderConfig"`
	CurrencyConfig   Optional[*CurrencyConfig]   `json:"currencyConfig"`
	Order            Optional[int]               `json:"order"`
}

// NewForm validates in and returns the form it describes (without ids).
func NewForm(in FormInput) (*Form, error) {
	var p Problems
	f := &Form{DisplayMode: SinglePage}
	if in.Title == nil {
		p.Add("title", "is required")
	} else {
		f.Title = *in.Title
		checkTitle(f.Title, &p)
	}
	if in.Description != nil {
		f.Description = *in.Description
		checkOwnerText(f.Description, MultiLine, 0, MaxDescriptionLen, "description", &p)
	}
	if in.DisplayMode != "" {
		f.DisplayMode = in.DisplayMode
		if !f.DisplayMode.Valid() {
			p.Add("displayMode", "must be single-page or multi-step")
		}
	}
	if len(in.Questions) > MaxQuestions {
		p.Add("questions", "at most %d questions", MaxQuestions)
	}
	validateHiddenFields(in.HiddenFields, &p)
	f.Settings.HiddenFields = in.HiddenFields
	for i, qi := range in.Questions {
		field := fmt.Sprintf("questions[%d]", i)
		if qi.ConditionalLogic != nil {
			p.Add(field+".conditionalLogic", "cannot be set on create because question ids do not exist yet; add it with PATCH /forms/{id}/fields/{fieldId}")
			continue
		}
		q := qi.Build(nil, field+".", &p)
		q.Order = i + 1
		f.Questions = append(f.Questions, q)
	}
	in.applySettings(&f.Settings, &p)
	if err := p.Err(); err != nil {
		return nil, err
	}
	return f, nil
}

// applySettings validates the closing, thank-you, language and embedding
// fields of in into s. The
// questions have no ids yet, so a thank-you screen can name none of them.
func (in FormInput) applySettings(s *Settings, p *Problems) {
	if in.ClosesAt != nil {
		s.setClosesAt(*in.ClosesAt, p)
	}
	if in.MaxResponses != nil {
		s.setMaxResponses(*in.MaxResponses, p)
	}
	if in.ClosedMessage != nil {
		s.setClosedMessage(*in.ClosedMessage, p)
	}
	s.setThankYou(in.ThankYou, nil, p)
	s.setNotifications(in.Notifications, nil, nil, p)
	if in.Language != nil {
		s.setLanguage(*in.Language, p)
	}
	s.setFrameAncestors(in.FrameAncestors, p)
}

// Build validates the input and converts it into a Question (the type defaults to
// text), recording problems under prefix. known holds the ids logic may reference.
func (in QuestionInput) Build(known map[int64]bool, prefix string, p *Problems) Question {
	q := Question{Type: in.Type, Required: in.Required, Options: in.Options,
		Slider: in.SliderConfig, Currency: in.CurrencyConfig, Logic: in.ConditionalLogic}
	if q.Type == "" {
		q.Type = Text
	}
	if in.Question == nil {
		p.Add(prefix+"question", "is required")
		validateQuestionBody(&q, known, prefix, p)
		return q
	}
	q.Text = *in.Question
	ValidateQuestion(&q, known, prefix, p)
	return q
}

// ApplyPatch changes f as p says and validates the result. It does not touch the
// webhook settings, which need the URL check of the webhook package.
func (p FormPatch) ApplyPatch(f *Form) error {
	var probs Problems
	if p.empty() {
		probs.Add("body", "at least one of title, description, displayMode, webhookUrl, webhookEnabled, "+
			"closesAt, maxResponses, closedMessage, thankYou, hiddenFields, notifications, language, frameAncestors is required")
		return probs.Err()
	}
	if p.Title.Set {
		if p.Title.Null {
			probs.Add("title", "cannot be null")
		} else {
			f.Title = p.Title.Value
			checkTitle(f.Title, &probs)
		}
	}
	if p.Description.Set {
		f.Description = p.Description.Value
		checkOwnerText(f.Description, MultiLine, 0, MaxDescriptionLen, "description", &probs)
	}
	if p.DisplayMode.Set {
		f.DisplayMode = p.DisplayMode.Value
		if !f.DisplayMode.Valid() {
			probs.Add("displayMode", "must be single-page or multi-step")
		}
	}
	if p.WebhookEnabled.Set && p.WebhookEnabled.Null {
		probs.Add("webhookEnabled", "must be true or false")
	}
	p.applyClosing(&f.Settings, &probs)
	if p.ThankYou.Set {
		f.Settings.setThankYou(p.ThankYou.Value, questionIDs(f.Questions), &probs)
	}
	if p.HiddenFields.Set {
		f.Settings.HiddenFields = p.HiddenFields.Value
		validateHiddenFields(f.Settings.HiddenFields, &probs)
	}
	if p.Notifications.Set {
		f.Settings.setNotifications(p.Notifications.Value, f.Questions, questionIDs(f.Questions), &probs)
	}
	p.applyPage(&f.Settings, &probs)
	return probs.Err()
}

// empty reports whether the patch carries no field.
func (p FormPatch) empty() bool {
	return !p.Title.Set && !p.Description.Set && !p.DisplayMode.Set && !p.WebhookURL.Set && !p.WebhookEnabled.Set &&
		!p.ClosesAt.Set && !p.MaxResponses.Set && !p.ClosedMessage.Set && !p.ThankYou.Set && !p.HiddenFields.Set &&
		!p.Notifications.Set && !p.Language.Set && !p.FrameAncestors.Set
}

// applyPage sets or, with null, clears the page's language and the origins that
// may frame it.
func (p FormPatch) applyPage(s *Settings, probs *Problems) {
	if p.Language.Set {
		s.setLanguage(p.Language.Value, probs)
	}
	if p.FrameAncestors.Set {
		s.setFrameAncestors(p.FrameAncestors.Value, probs)
	}
}

// applyClosing sets or, with null, clears the closing settings the patch carries.
func (p FormPatch) applyClosing(s *Settings, probs *Problems) {
	switch {
	case p.ClosesAt.Null:
		s.ClosesAt = nil
	case p.ClosesAt.Set:
		s.setClosesAt(p.ClosesAt.Value, probs)
	}
	switch {
	case p.MaxResponses.Null:
		s.MaxResponses = nil
	case p.MaxResponses.Set:
		s.setMaxResponses(p.MaxResponses.Value, probs)
	}
	if p.ClosedMessage.Set {
		s.setClosedMessage(p.ClosedMessage.Value, probs)
	}
}

// ApplyWebhook applies the webhook fields of p to f, following the webhook
// setting's transitions (README, Webhooks): clearing the URL disables delivery,
// and enabling needs a URL. checkURL validates a new URL (nil error when it may be
// saved).
func (p FormPatch) ApplyWebhook(f *Form, checkURL func(string) error) error {
	if p.WebhookURL.Set {
		if p.WebhookURL.Null || p.WebhookURL.Value == "" {
			f.WebhookURL = nil
			f.WebhookEnabled = false
		} else {
			if err := checkURL(p.WebhookURL.Value); err != nil {
				return err
			}
			u := p.WebhookURL.Value
			f.WebhookURL = &u
		}
	}
	if p.WebhookEnabled.Set {
		if p.WebhookEnabled.Value && f.WebhookURL == nil {
			return FieldInvalid("webhookEnabled", "cannot be true without a webhook URL: set webhookUrl on the form or in the same request")
		}
		f.WebhookEnabled = p.WebhookEnabled.Value
	}
	return nil
}

// Empty reports whether the patch carries no field.
func (p QuestionPatch) Empty() bool {
	return !p.Question.Set && !p.Required.Set && !p.Options.Set && !p.Type.Set &&
		!p.ConditionalLogic.Set && !p.SliderConfig.Set && !p.CurrencyConfig.Set && !p.Order.Set
}

// Apply changes q as p says (all but the order, which the store handles) and
// validates the result against the other questions' ids in known.
func (p QuestionPatch) Apply(q *Question, known map[int64]bool) error {
	var probs Problems
	if p.Empty() {
		probs.Add("body", "at least one of question, required, options, type, conditionalLogic, sliderConfig, currencyConfig, order is required")
		return probs.Err()
	}
	if p.Question.Set {
		if p.Question.Null {
			probs.Add("question", "cannot be null")
		}
		q.Text = p.Question.Value
	}
	if p.Required.Set {
		if p.Required.Null {
			probs.Add("required", "must be true or false")
		}
		q.Required = p.Required.Value
	}
	if p.Type.Set {
		if p.Type.Null {
			probs.Add("type", "cannot be null")
		}
		p.changeType(q)
	}
	if p.Options.Set {
		q.Options = p.Options.Value
	}
	if p.ConditionalLogic.Set {
		q.Logic = p.ConditionalLogic.Value
	}
	if p.SliderConfig.Set {
		q.Slider = p.SliderConfig.Value
	}
	if p.CurrencyConfig.Set {
		q.Currency = p.CurrencyConfig.Value
	}
	if p.Order.Set && (p.Order.Null || p.Order.Value < 1) {
		probs.Add("order", "must be an integer of at least 1")
	}
	if len(probs) == 0 {
		ValidateQuestion(q, known, "", &probs)
	}
	return probs.Err()
}

// changeType sets the new type and drops the settings that only the old type had,
// unless the patch sets them again.
func (p QuestionPatch) changeType(q *Question) {
	q.Type = p.Type.Value
	if !q.Type.HasOptions() && !p.Options.Set {
		q.Options = nil
	}
	if q.Type != Slider && !p.SliderConfig.Set {
		q.Slider = nil
	}
	if q.Type != Currency && !p.CurrencyConfig.Set {
		q.Currency = nil
	}
}

// ValidateQuestion records every problem of q under the field prefix. known holds
// the ids of the other questions of the form, which logic may reference; nil means
// logic is not allowed.
func ValidateQuestion(q *Question, known map[int64]bool, prefix string, p *Problems) {
	checkOwnerText(q.Text, SingleLine, 1, MaxQuestionLen, prefix+"question", p)
	if strings.TrimSpace(q.Text) == "" && q.Text != "" {
		p.Add(prefix+"question", "must not be blank")
	}
	validateQuestionBody(q, known, prefix, p)
}

func validateQuestionBody(q *Question, known map[int64]bool, prefix string, p *Problems) {
	if !q.Type.Valid() {
		p.Add(prefix+"type", "must be one of %s", typeList())
		return
	}
	validateOptions(q, prefix, p)
	validateSlider(q, prefix, p)
	validateCurrency(q, prefix, p)
	if q.Logic != nil {
		ValidateLogic(q.Logic, known, prefix+"conditionalLogic", p)
	}
}

func typeList() string {
	names := make([]string, len(QuestionTypes))
	for i, t := range QuestionTypes {
		names[i] = string(t)
	}
	return strings.Join(names, ", ")
}

func validateOptions(q *Question, prefix string, p *Problems) {
	field := prefix + "options"
	if !q.Type.HasOptions() {
		if len(q.Options) > 0 {
			p.Add(field, "only select and multi_select questions take options")
		}
		q.Options = nil
		return
	}
	if len(q.Options) == 0 {
		p.Add(field, "is required and must not be empty for %s questions", q.Type)
		return
	}
	if len(q.Options) > MaxOptions {
		p.Add(field, "at most %d options", MaxOptions)
	}
	seen := make(map[string]bool, len(q.Options))
	for i, o := range q.Options {
		f := fmt.Sprintf("%s[%d]", field, i)
		checkOwnerText(o, SingleLine, 1, MaxOptionLen, f, p)
		if o != "" && strings.TrimSpace(o) == "" {
			p.Add(f, "must not be blank")
		}
		if seen[o] {
			p.Add(f, "duplicates option %q", o)
		}
		seen[o] = true
	}
}

func validateSlider(q *Question, prefix string, p *Problems) {
	field := prefix + "sliderConfig"
	s := q.Slider
	if q.Type != Slider {
		if s != nil {
			p.Add(field, "only slider questions take sliderConfig")
		}
		return
	}
	switch {
	case s == nil:
		p.Add(field, "is required for slider questions")
	case !finite(s.Min, s.Max, s.Step):
		p.Add(field, "min, max and step must be finite numbers")
	case s.Min >= s.Max:
		p.Add(field+".min", "must be less than max")
	case s.Step <= 0:
		p.Add(field+".step", "must be greater than 0")
	case s.Step > s.Max-s.Min:
		p.Add(field+".step", "must not exceed max - min")
	}
}

func validateCurrency(q *Question, prefix string, p *Problems) {
	field := prefix + "currencyConfig"
	c := q.Currency
	if c == nil {
		return
	}
	if q.Type != Currency {
		p.Add(field, "only currency questions take currencyConfig")
		return
	}
	if !IsCurrencyCode(c.Currency) {
		p.Add(field+".currency", "must be an ISO 4217 code such as USD or EUR")
	}
	if c.Min != nil && c.Max != nil && *c.Min > *c.Max {
		p.Add(field+".min", "must not exceed max")
	}
}

func finite(xs ...float64) bool {
	for _, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}

func checkTitle(title string, p *Problems) {
	checkOwnerText(title, SingleLine, 1, MaxTitleLen, "title", p)
	if title != "" && strings.TrimSpace(title) == "" {
		p.Add("title", "must not be blank")
	}
}

func checkLength(s string, min, max int, field string, p *Problems) {
	if !utf8.ValidString(s) {
		p.Add(field, "must be valid UTF-8")
		return
	}
	n := utf8.RuneCountInString(s)
	switch {
	case n < min && min == 1:
		p.Add(field, "must not be empty")
	case n < min:
		p.Add(field, "must be at least %d characters", min)
	case n > max:
		p.Add(field, "must be at most %d characters (got %d)", max, n)
	}
}

// DecodeStrict decodes JSON into v strictly. Trailing data, duplicate keys, keys
// that are not exactly a field's name and invalid UTF-8 are Invalid *Errors naming
// the field by its path (strict.go); malformed JSON and values of the wrong type
// are encoding/json's errors.
func DecodeStrict(b []byte, v any) error {
	if err := checkStrict(b, reflect.TypeOf(v)); err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}
