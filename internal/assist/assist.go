// Package assist runs the AI operations that are paid in credits — a form
// generated from a prompt, an analysis of a form's responses and a chat exchange
// about them — for the API and the dashboard alike, so the two never disagree:
// it checks a chat message, prices the operation (quota.Costs), checks the
// credits before any work (quota.Plan.Afford), asks the provider (with the form's
// dataset, render.Submissions.Dataset, and the conversation so far), and stores
// the result with its charge in one transaction (store.CreateGeneratedForm,
// store.SaveAnalytics, store.AddExchange), where the store checks the credits
// again under a lock. Errors are the provider's, the domain's and the store's
// *form.Error values, unchanged.
package assist

import (
	"context"
	"encoding/json"
	"strings"
	"unicode/utf8"

	"forma/internal/ai"
	"forma/internal/form"
	"forma/internal/quota"
	"forma/internal/render"
	"forma/internal/store"
)

// The priced operations, by their usage-history endpoint names (quota.Costs keys).
const (
	GenerateForm = "forms.generate"
	Analytics    = "analytics.generate"
	ChatMessage  = "chat.message"
)

// historyLimit bounds the earlier messages of a conversation given to the provider.
const historyLimit = 1000

// Service runs the charged AI operations.
type Service struct {
	store       *store.Store
	provider    ai.Provider
	costs       quota.Costs
	submissions *render.Submissions
}

// New returns the operations over st, asking provider, at the prices of costs;
// subs builds a form's dataset.
func New(st *store.Store, provider ai.Provider, costs quota.Costs, subs *render.Submissions) *Service {
	return &Service{store: st, provider: provider, costs: costs, submissions: subs}
}

// Payer is the account an operation is charged to: its plan and its balance in
// the current billing cycle (store.Balance).
type Payer struct {
	Account *store.Account
	Plan    quota.Plan
	Balance quota.Balance
}

// Cost is the price of the operation endpoint, in credits.
func (s *Service) Cost(endpoint string) int { return s.costs[endpoint] }

// Afford refuses, before any work, an operation p's plan cannot pay for
// (InsufficientCredits); the store checks again, under a lock, when it records
// the charge.
func (s *Service) Afford(p Payer, endpoint string) error {
	return p.Plan.Afford(p.Balance.Used, s.costs[endpoint])
}

// Charge prices endpoint for p, about form f (nil: none yet), for the store to
// record with the operation's result (see store.Charge).
func (s *Service) Charge(p Payer, endpoint string, f *form.Form) *store.Charge {
	c := &store.Charge{AccountID: p.Account.ID, Endpoint: endpoint, Credits: s.costs[endpoint],
		CycleStart: p.Balance.CycleStart, Plan: p.Plan}
	if f != nil {
		c.FormID, c.FormName = &f.ID, f.Title
	}
	return c
}

// GenerateForm asks the provider for a form from prompt (which the provider
// checks: ai.CheckPrompt) and stores it as a new draft of p's account, with a
// new share token, charged to p. It returns the form and the recorded charge.
// The credits are checked before the provider is asked (InsufficientCredits);
// a prompt the provider refuses is Invalid at the field "prompt".
func (s *Service) GenerateForm(ctx context.Context, p Payer, prompt string) (*form.Form, *store.Charge, error) {
	if err := s.Afford(p, GenerateForm); err != nil {
		return nil, nil, err
	}
	in, err := s.provider.GenerateForm(ctx, prompt)
	if err != nil {
		return nil, nil, err
	}
	f, err := form.NewForm(in)
	if err != nil {
		return nil, nil, err
	}
	f.AccountID = p.Account.ID
	c := s.Charge(p, GenerateForm, nil)
	if err := s.store.CreateGeneratedForm(ctx, f, c); err != nil {
		return nil, nil, err
	}
	return f, c, nil
}

// Analyze analyses f's responses and stores the analysis in place of the
// previous one, charged to p; it returns the record and the recorded charge.
func (s *Service) Analyze(ctx context.Context, p Payer, f *form.Form) (*store.AnalyticsRecord, *store.Charge, error) {
	if err := s.Afford(p, Analytics); err != nil {
		return nil, nil, err
	}
	ds, err := s.submissions.Dataset(ctx, f)
	if err != nil {
		return nil, nil, err
	}
	res, err := s.provider.Analyze(ctx, ds)
	if err != nil {
		return nil, nil, err
	}
	body, err := json.Marshal(Insights{Summary: res.Summary, Insights: nonNil(res.Insights),
		Recommendations: nonNil(res.Recommendations), KeyMetrics: res.KeyMetrics})
	if err != nil {
		return nil, nil, err
	}
	rec := &store.AnalyticsRecord{FormID: f.ID, TotalResponses: res.TotalResponses, CompletionRate: res.CompletionRate, Insights: string(body)}
	c := s.Charge(p, Analytics, f)
	if err := s.store.SaveAnalytics(ctx, rec, c); err != nil {
		return nil, nil, err
	}
	return rec, c, nil
}

// Exchange is a question and its answer, stored, with the charge they cost.
type Exchange struct {
	User, Assistant *store.Message
	Charge          *store.Charge
}

// Ask answers message (nil: none was sent) about f's responses in conversation
// c, with the conversation so far as context, and stores both messages charged
// to p. A message CheckMessage refuses is an Invalid error at the field
// "message".
func (s *Service) Ask(ctx context.Context, p Payer, f *form.Form, c *store.Conversation, message *string) (*Exchange, error) {
	if err := CheckMessage(message); err != nil {
		return nil, err
	}
	if err := s.Afford(p, ChatMessage); err != nil {
		return nil, err
	}
	answer, err := s.answer(ctx, f, c, *message)
	if err != nil {
		return nil, err
	}
	x := &Exchange{Charge: s.Charge(p, ChatMessage, f)}
	x.User, x.Assistant, err = s.store.AddExchange(ctx, c.ID, *message, answer, x.Charge)
	if err != nil {
		return nil, err
	}
	return x, nil
}

// CheckMessage is the rule of a chat message: present, not blank, at most
// ai.MaxMessageLen characters, and free text by form.CheckText (multi-line).
func CheckMessage(m *string) error {
	switch {
	case m == nil:
		return form.FieldInvalid("message", "is required")
	case strings.TrimSpace(*m) == "":
		return form.FieldInvalid("message", "must not be empty or blank")
	case utf8.RuneCountInString(*m) > ai.MaxMessageLen:
		return form.FieldInvalid("message", "must be at most %d characters", ai.MaxMessageLen)
	}
	return form.CheckField("message", *m, form.MultiLine)
}

// answer asks the provider, with the conversation's history and the form's data.
func (s *Service) answer(ctx context.Context, f *form.Form, c *store.Conversation, question string) (string, error) {
	past, _, err := s.store.Messages(ctx, c.ID, historyLimit, 0)
	if err != nil {
		return "", err
	}
	history := make([]ai.Turn, len(past))
	for i, m := range past {
		history[i] = ai.Turn{Role: m.Role, Content: m.Content}
	}
	ds, err := s.submissions.Dataset(ctx, f)
	if err != nil {
		return "", err
	}
	return s.provider.Chat(ctx, ds, history, question)
}

// Insights is the stored and wire shape of the prose part of an analysis
// (store.AnalyticsRecord.Insights; the API's Analytics.insights).
type Insights struct {
	Summary         string            `json:"summary"`
	Insights        []string          `json:"insights"`
	Recommendations []string          `json:"recommendations"`
	KeyMetrics      map[string]string `json:"keyMetrics"`
}

// ReadInsights decodes the prose part of a stored analysis.
func ReadInsights(rec *store.AnalyticsRecord) (Insights, error) {
	var in Insights
	err := json.Unmarshal([]byte(rec.Insights), &in)
	return in, err
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
