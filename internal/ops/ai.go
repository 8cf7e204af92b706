package ops

import (
	"context"

	"forma/internal/ai"
	"forma/internal/ai/query"
	"forma/internal/form"
)

// CountAI returns a Provider that calls p and counts each call, and each failed
// one, by operation in m.
func CountAI(p ai.Provider, m *Metrics) ai.Provider { return &countedAI{next: p, m: m} }

type countedAI struct {
	next ai.Provider
	m    *Metrics
}

func (c *countedAI) count(operation string, err error) {
	c.m.aiCalls.WithLabelValues(operation).Inc()
	if err != nil {
		c.m.aiErrors.WithLabelValues(operation).Inc()
	}
}

// GenerateForm generates through the wrapped provider and counts the call.
func (c *countedAI) GenerateForm(ctx context.Context, prompt string) (form.FormInput, error) {
	in, err := c.next.GenerateForm(ctx, prompt)
	c.count("generate", err)
	return in, err
}

// Analyze analyses through the wrapped provider and counts the call.
func (c *countedAI) Analyze(ctx context.Context, ds *query.Dataset) (*ai.Analytics, error) {
	a, err := c.next.Analyze(ctx, ds)
	c.count("analyze", err)
	return a, err
}

// Chat answers through the wrapped provider and counts the call.
func (c *countedAI) Chat(ctx context.Context, ds *query.Dataset, history []ai.Turn, question string) (string, error) {
	reply, err := c.next.Chat(ctx, ds, history, question)
	c.count("chat", err)
	return reply, err
}
