// Package builtin is Forma's offline AI provider: deterministic, standard-library
// code that needs no model weights and no network. It composes three packages:
// generate turns a prompt into a form, analyze computes the analysis of the
// responses, and chat answers questions about them; every figure comes from the
// query engine. The same inputs, at the same time, always give the same output.
package builtin

import (
	"context"
	"time"

	"forma/internal/ai"
	"forma/internal/ai/analyze"
	"forma/internal/ai/chat"
	"forma/internal/ai/generate"
	"forma/internal/ai/query"
	"forma/internal/form"
)

// Provider is the built-in implementation of ai.Provider. Its methods never fail
// but on an invalid prompt; the zero value is ready to use.
type Provider struct {
	// Now is the clock (for "last week" and trends); nil means time.Now.
	Now func() time.Time
}

var _ ai.Provider = Provider{}

func (p Provider) now() time.Time {
	if p.Now != nil {
		return p.Now()
	}
	return time.Now().UTC()
}

// GenerateForm implements ai.Provider with generate.Form: it returns a
// *form.Error with code form.Invalid, naming the field "prompt", for a prompt
// that does not describe a form.
func (p Provider) GenerateForm(_ context.Context, prompt string) (form.FormInput, error) {
	return generate.Form(prompt)
}

// Analyze implements ai.Provider with analyze.Dataset.
func (p Provider) Analyze(_ context.Context, ds *query.Dataset) (*ai.Analytics, error) {
	a := analyze.Dataset(ds, p.now())
	return &a, nil
}

// Chat implements ai.Provider with chat.Answer.
func (p Provider) Chat(_ context.Context, ds *query.Dataset, history []ai.Turn, question string) (string, error) {
	return chat.Answer(ds, history, question, p.now()), nil
}
