// Package ai defines what Forma's AI features need from a provider (form
// generation, analytics, chat over responses) and the built-in, offline provider.
// Every number a provider reports comes from the query engine (package query).
package ai

import (
	"context"
	"time"

	"forma/internal/ai/builtin"
	"forma/internal/ai/query"
	"forma/internal/form"
)

// Turn is one message of a chat conversation: role "user" or "assistant".
type Turn = builtin.Turn

// Analytics is an analysis of a form's responses.
type Analytics = builtin.Analytics

// Provider performs the three AI operations. Errors that are the provider's fault
// (a model that fails or times out) are *form.Error with code form.ProviderFailed;
// a request the provider cannot serve (such as an empty prompt) is form.Invalid.
type Provider interface {
	// GenerateForm turns a plain-English request into a form.
	GenerateForm(ctx context.Context, prompt string) (form.FormInput, error)
	// Analyze writes an analysis of the dataset.
	Analyze(ctx context.Context, ds *query.Dataset) (*Analytics, error)
	// Chat answers question about the dataset, with the conversation so far.
	Chat(ctx context.Context, ds *query.Dataset, history []Turn, question string) (string, error)
}

// Builtin is the deterministic, offline provider.
type Builtin struct {
	// Now is the clock (for "last week" and trends); nil means time.Now.
	Now func() time.Time
}

func (b Builtin) now() time.Time {
	if b.Now != nil {
		return b.Now()
	}
	return time.Now().UTC()
}

// GenerateForm implements Provider.
func (b Builtin) GenerateForm(_ context.Context, prompt string) (form.FormInput, error) {
	return builtin.GenerateForm(prompt)
}

// Analyze implements Provider.
func (b Builtin) Analyze(_ context.Context, ds *query.Dataset) (*Analytics, error) {
	a := builtin.Analyze(ds, b.now())
	return &a, nil
}

// Chat implements Provider.
func (b Builtin) Chat(_ context.Context, ds *query.Dataset, history []Turn, question string) (string, error) {
	return builtin.Answer(ds, history, question, b.now()), nil
}
