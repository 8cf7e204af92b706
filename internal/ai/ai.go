// Package ai is what Forma's AI features ask of a provider: the Provider interface
// (turn a prompt into a form, analyse a form's responses, answer questions about
// them), the types its operations exchange, and the limits both providers keep.
//
// The providers depend on this package, never the other way round: builtin is the
// offline, deterministic provider (composing packages generate, analyze and chat),
// openai calls an OpenAI-compatible API. Every number a provider reports comes from
// the query engine (package query); package analyze computes the figures of an
// analysis for both.
package ai

import (
	"context"
	"strings"
	"unicode/utf8"

	"forma/internal/ai/query"
	"forma/internal/form"
)

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

// Turn is one message of a chat conversation about a form's responses.
type Turn struct {
	Role    string // RoleUser or RoleAssistant
	Content string
}

// Chat roles.
const (
	RoleUser      = "user"
	RoleAssistant = "assistant"
)

// Analytics is an analysis of a form's responses: the figures and prose of the
// API's Analytics resource.
type Analytics struct {
	TotalResponses int
	// CompletionRate is completed ÷ started sessions × 100, 0 when none started.
	CompletionRate  float64
	Summary         string
	Insights        []string
	Recommendations []string
	// KeyMetrics always has MetricResponseRate, MetricTopAnswer and
	// MetricSentiment; package analyze lists the others.
	KeyMetrics map[string]string
}

// Key metrics that are always present.
const (
	// MetricResponseRate is the share of started sessions that were completed, as
	// text ("88.97%"); "n/a" when no session was recorded as started.
	MetricResponseRate = "responseRate"
	// MetricTopAnswer is the leading answer of the most-answered choice (select,
	// multi_select or yes_no) question with its share of all responses and the
	// question ("Search engine (29.8%) — “How did you hear about us?”"); "n/a"
	// when there is none.
	MetricTopAnswer = "topAnswer"
	// MetricSentiment is the class and mean VADER compound score of the text and
	// textarea answers ("positive (0.42)"); "n/a" when there are none.
	MetricSentiment = "sentiment"
)

// Limits of form generation.
const (
	// MaxPromptLen is the longest prompt GenerateForm accepts, in characters.
	MaxPromptLen = 5000
	// MaxGeneratedQuestions caps the questions of a generated form.
	MaxGeneratedQuestions = 30
	// MaxMessageLen is the longest chat message, in characters: the API refuses
	// longer ones, and a provider reads no more.
	MaxMessageLen = 5000
)

// PromptExample ends the errors about a prompt that says too little.
const PromptExample = "describe the form you want, for example: 'a contact form with name, email and message'"

// CheckPrompt rejects a prompt that no provider can turn into a form. It returns
// a *form.Error with code form.Invalid, naming the field "prompt", when the prompt
// is empty, not valid UTF-8, longer than MaxPromptLen characters, or not
// MultiLine text under form.CheckText.
func CheckPrompt(prompt string) error {
	switch n := utf8.RuneCountInString(prompt); {
	case strings.TrimSpace(prompt) == "":
		return form.FieldInvalid("prompt", "is empty; %s", PromptExample)
	case !utf8.ValidString(prompt):
		return form.FieldInvalid("prompt", "must be valid UTF-8")
	case n > MaxPromptLen:
		return form.FieldInvalid("prompt", "must be at most %d characters (got %d)", MaxPromptLen, n)
	}
	return form.CheckField("prompt", prompt, form.MultiLine)
}
