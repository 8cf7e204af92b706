// Package openai is Forma's AI provider for any OpenAI-compatible Chat Completions
// API: OpenAI, Azure OpenAI (v1 endpoint), Ollama, vLLM, llama.cpp server, LM Studio,
// OpenRouter and the like.
//
// The model never computes a figure. Form generation asks for structured output (a
// JSON schema of the form, with fallbacks for servers that do not support it) and
// validates and repairs the result before it is returned. Analytics computes every
// figure with the query engine and asks the model only for prose about them. Chat
// gives the model one tool, query_responses, which runs queries of the query engine
// against the form's responses and can reach nothing else.
//
// Every failure of the model or of the HTTP exchange (an error status, a malformed
// answer, a time-out) is a *form.Error with code form.ProviderFailed whose message
// says what happened without revealing the API key.
package openai

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	goai "github.com/sashabaranov/go-openai"

	"forma/internal/form"
)

// DefaultTimeout bounds one call to the model when Config.Timeout is zero.
const DefaultTimeout = 60 * time.Second

// maxResponseBytes bounds the body of one answer of the API.
const maxResponseBytes = 8 << 20

// Config says where the model is and how long one call to it may take.
type Config struct {
	// BaseURL is the API root that /chat/completions is appended to, such as
	// https://api.openai.com/v1 or http://localhost:11434/v1 (FORMA_AI_BASE_URL).
	BaseURL string
	// APIKey is sent as a bearer token (and as the api-key header to Azure); empty
	// for servers that need none (FORMA_AI_API_KEY).
	APIKey string
	// Model is the model (or Azure deployment) name (FORMA_AI_MODEL).
	Model string
	// Timeout bounds one call to the model; zero means DefaultTimeout.
	Timeout time.Duration
	// HTTPClient sends the requests; nil means a client of its own. Its Timeout, if
	// any, also applies.
	HTTPClient *http.Client
	// Now is the clock of analytics (trends, "last week"); nil means time.Now.
	Now func() time.Time
}

// Provider implements ai.Provider against an OpenAI-compatible Chat Completions API.
// It is safe for concurrent use.
type Provider struct {
	client  *goai.Client
	model   string
	apiKey  string
	timeout time.Duration
	now     func() time.Time
}

// New checks cfg and returns a provider. It does not contact the server.
func New(cfg Config) (*Provider, error) {
	base := strings.TrimSpace(cfg.BaseURL)
	u, err := url.Parse(base)
	if base == "" || err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, errors.New("the openai AI provider needs FORMA_AI_BASE_URL, an http or https URL such as https://api.openai.com/v1 or http://localhost:11434/v1")
	}
	if strings.TrimSpace(cfg.Model) == "" {
		return nil, errors.New("the openai AI provider needs FORMA_AI_MODEL, the name of the model to use")
	}
	if cfg.Timeout < 0 {
		return nil, errors.New("the AI time-out must not be negative")
	}
	if cfg.Timeout == 0 {
		cfg.Timeout = DefaultTimeout
	}
	hc := &http.Client{}
	if cfg.HTTPClient != nil {
		c := *cfg.HTTPClient
		hc = &c
	}
	hc.Transport = &transport{base: hc.Transport, azureKey: azureKey(u, cfg.APIKey)}
	// Redirects would resend the request body to another address; an API root
	// that redirects is a configuration error.
	hc.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }

	gc := goai.DefaultConfig(cfg.APIKey)
	gc.BaseURL = strings.TrimRight(base, "/")
	gc.HTTPClient = hc
	now := cfg.Now
	if now == nil {
		now = func() time.Time { return time.Now().UTC() }
	}
	return &Provider{client: goai.NewClientWithConfig(gc), model: strings.TrimSpace(cfg.Model),
		apiKey: cfg.APIKey, timeout: cfg.Timeout, now: now}, nil
}

// azureKey returns the key to send in Azure's api-key header when u is an Azure
// OpenAI endpoint, else "".
func azureKey(u *url.URL, key string) string {
	h := strings.ToLower(u.Hostname())
	for _, s := range []string{".openai.azure.com", ".cognitiveservices.azure.com", ".services.ai.azure.com"} {
		if strings.HasSuffix(h, s) {
			return key
		}
	}
	return ""
}

// transport adds Azure's api-key header where needed and bounds response bodies.
type transport struct {
	base     http.RoundTripper
	azureKey string
}

// RoundTrip implements http.RoundTripper.
func (t *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	if t.azureKey != "" {
		req = req.Clone(req.Context())
		req.Header.Set("api-key", t.azureKey)
	}
	base := t.base
	if base == nil {
		base = http.DefaultTransport
	}
	resp, err := base.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	resp.Body = &limitedBody{rc: resp.Body, left: maxResponseBytes}
	return resp, nil
}

// errTooLarge is returned when an answer of the API exceeds maxResponseBytes.
var errTooLarge = errors.New("the AI provider's answer is too large")

// limitedBody fails reads past its limit.
type limitedBody struct {
	rc   io.ReadCloser
	left int64
}

// Read reads from the body until the limit, then fails with errTooLarge.
func (b *limitedBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		return 0, errTooLarge
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.rc.Read(p)
	b.left -= int64(n)
	return n, err
}

// Close closes the body.
func (b *limitedBody) Close() error { return b.rc.Close() }

// request is one call to the model.
type request struct {
	messages []goai.ChatCompletionMessage
	format   *goai.ChatCompletionResponseFormat
	tools    []goai.Tool
	// toolChoice is "", "auto" or "none".
	toolChoice string
}

// complete sends one Chat Completions request, bounded by the time-out, and returns
// the message of its first choice. Errors are ProviderFailed.
func (p *Provider) complete(ctx context.Context, r request) (goai.ChatCompletionMessage, error) {
	msg, _, err := p.send(ctx, r)
	return msg, err
}

// send is complete that also reports whether the server rejected the request's
// response_format.
func (p *Provider) send(ctx context.Context, r request) (goai.ChatCompletionMessage, bool, error) {
	callCtx, cancel := context.WithTimeout(ctx, p.timeout)
	defer cancel()
	req := goai.ChatCompletionRequest{Model: p.model, Messages: r.messages, ResponseFormat: r.format, Tools: r.tools}
	if r.toolChoice != "" {
		req.ToolChoice = r.toolChoice
	}
	resp, err := p.client.CreateChatCompletion(callCtx, req)
	if err != nil {
		return goai.ChatCompletionMessage{}, formatRejected(err), p.providerError(ctx, callCtx, err)
	}
	if len(resp.Choices) == 0 {
		return goai.ChatCompletionMessage{}, false, failed("the AI provider returned no answer (no choices in the response)")
	}
	c := resp.Choices[0]
	if c.FinishReason == goai.FinishReasonContentFilter {
		return goai.ChatCompletionMessage{}, false, failed("the AI provider's content filter blocked the answer")
	}
	c.Message.Content = stripThinking(c.Message.Content)
	return c.Message, false, nil
}

// statusOf returns the HTTP status of an error of the client, 0 when there was no
// HTTP answer. A RequestError (a body the client could not decode) may wrap a
// half-decoded APIError without a status, so it is looked for first.
func statusOf(err error) int {
	var reqErr *goai.RequestError
	if errors.As(err, &reqErr) {
		return reqErr.HTTPStatusCode
	}
	var apiErr *goai.APIError
	if errors.As(err, &apiErr) {
		return apiErr.HTTPStatusCode
	}
	return 0
}

// apiMessage returns the message an error status came with, "" when none.
func apiMessage(err error) string {
	var reqErr *goai.RequestError
	if errors.As(err, &reqErr) {
		return bodyMessage(reqErr.Body)
	}
	var apiErr *goai.APIError
	if errors.As(err, &apiErr) {
		return apiErr.Message
	}
	return ""
}

// bodyMessage finds the message in an error body the client could not decode:
// {"error": "..."} (Ollama), {"message": "..."} (vLLM), {"detail": "..."}, or short
// plain text. HTML pages give "".
func bodyMessage(body []byte) string {
	var v struct {
		Error   any `json:"error"`
		Message any `json:"message"`
		Detail  any `json:"detail"`
	}
	if json.Unmarshal(body, &v) == nil {
		for _, x := range []any{v.Error, v.Message, v.Detail, path1(v.Error, "message")} {
			if s, ok := x.(string); ok && s != "" {
				return s
			}
		}
		return ""
	}
	s := strings.TrimSpace(string(body))
	if strings.HasPrefix(s, "<") {
		return ""
	}
	return s
}

// path1 returns the value of key in v when v is a JSON object.
func path1(v any, key string) any {
	if m, ok := v.(map[string]any); ok {
		return m[key]
	}
	return nil
}

// providerError turns an error of a call into a ProviderFailed error with a message
// for the operator. ctx is the caller's context, callCtx the call's.
func (p *Provider) providerError(ctx, callCtx context.Context, err error) error {
	switch {
	case ctx.Err() != nil:
		return failed("the request was cancelled before the AI provider answered")
	case errors.Is(callCtx.Err(), context.DeadlineExceeded) || isTimeout(err):
		return failed("the AI provider did not answer within %s (FORMA_AI_TIMEOUT)", seconds(p.timeout))
	case errors.Is(err, errTooLarge):
		return failed("the AI provider's answer exceeded %d MiB", maxResponseBytes>>20)
	}
	if status := statusOf(err); status != 0 {
		return failed("%s", p.statusMessage(status, apiMessage(err)))
	}
	var urlErr *url.Error
	if errors.As(err, &urlErr) {
		return failed("could not reach the AI provider (check FORMA_AI_BASE_URL): %s", p.clean(urlErr.Err.Error()))
	}
	if isDecodeError(err) {
		return failed("the AI provider returned a malformed response: %s", p.clean(err.Error()))
	}
	return failed("the AI request failed: %s", p.clean(err.Error()))
}

// isDecodeError reports whether err comes from decoding a response body.
func isDecodeError(err error) bool {
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	return errors.As(err, &syntax) || errors.As(err, &typ) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF)
}

// statusMessage explains an error status of the API.
func (p *Provider) statusMessage(status int, detail string) string {
	head := fmt.Sprintf("the AI provider returned HTTP %d", status)
	detail = p.clean(detail)
	switch {
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		return head + ": check FORMA_AI_API_KEY"
	case status == http.StatusNotFound:
		return head + ": check FORMA_AI_BASE_URL and FORMA_AI_MODEL" + suffix(detail)
	case status == http.StatusTooManyRequests:
		return head + ": rate limited or out of quota, try again later" + suffix(detail)
	case status >= 500:
		return head + ": the provider failed, try again later" + suffix(detail)
	case status >= 300 && status < 400:
		return head + ": a redirect, check FORMA_AI_BASE_URL"
	}
	return head + suffix(detail)
}

// suffix returns ": detail", or "" when detail is empty.
func suffix(detail string) string {
	if detail == "" {
		return ""
	}
	return ": " + detail
}

// clean makes a provider's text safe to show: no API key, one line, short.
func (p *Provider) clean(s string) string {
	if p.apiKey != "" {
		s = strings.ReplaceAll(s, p.apiKey, "[redacted]")
	}
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 300 {
		s = string(r[:300]) + "…"
	}
	return s
}

// isTimeout reports whether err is a network time-out.
func isTimeout(err error) bool {
	var t interface{ Timeout() bool }
	return errors.As(err, &t) && t.Timeout()
}

// seconds formats a time-out: "60s", "1.5s", "200ms".
func seconds(d time.Duration) string {
	if d >= time.Second {
		return strconv.FormatFloat(d.Round(time.Millisecond).Seconds(), 'f', -1, 64) + "s"
	}
	return d.String()
}

// failed returns a ProviderFailed error.
func failed(format string, args ...any) error {
	return form.Errorf(form.ProviderFailed, format, args...)
}

// stripThinking removes the <think>…</think> block that reasoning models served by
// Ollama, vLLM or llama.cpp may put before their answer.
func stripThinking(s string) string {
	t := strings.TrimSpace(s)
	if !strings.HasPrefix(t, "<think>") {
		return s
	}
	if i := strings.Index(t, "</think>"); i >= 0 {
		return strings.TrimSpace(t[i+len("</think>"):])
	}
	return s
}
