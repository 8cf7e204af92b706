package api

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"unicode/utf8"

	"forma/internal/ai"
	"forma/internal/ai/query"
	"forma/internal/form"
	"forma/internal/httpx"
	"forma/internal/quota"
	"forma/internal/store"
)

// charge prices an AI operation for the caller: the store records it with the
// operation's result (see store.Charge).
func (a *API) charge(r *http.Request, endpoint string, f *form.Form) *store.Charge {
	p := caller(r)
	c := &store.Charge{AccountID: p.account.ID, Endpoint: endpoint, Credits: a.cfg.Costs[endpoint],
		CycleStart: p.balance.CycleStart, Plan: p.plan}
	if f != nil {
		c.FormID, c.FormName = &f.ID, f.Title
	}
	return c
}

// reportCharge puts a recorded charge in the credit headers.
func reportCharge(w http.ResponseWriter, c *store.Charge) {
	setCreditHeaders(w.Header(), quota.Balance{Allowance: c.Plan.MonthlyAllowance, Used: c.Used}, c.Credits)
}

// affordable refuses, before any work, an operation the caller's plan cannot pay
// for; the store checks again, under a lock, when it records the charge.
func (a *API) affordable(r *http.Request, endpoint string) error {
	p := caller(r)
	return p.plan.Afford(p.balance.Used, a.cfg.Costs[endpoint])
}

// generateForm serves POST /forms/generate: a form from a plain-English prompt.
func (a *API) generateForm(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Prompt *string `json:"prompt"`
	}
	err := requireUnscoped(r, "create forms")
	if err == nil {
		err = httpx.DecodeJSON(w, r, &body)
	}
	if err == nil && body.Prompt == nil {
		err = form.FieldInvalid("prompt", "is required: describe the form you want, for example \"a contact form with name, email and message\"")
	}
	if err == nil {
		err = a.affordable(r, "forms.generate")
	}
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	in, err := a.cfg.AI.GenerateForm(r.Context(), *body.Prompt)
	var f *form.Form
	if err == nil {
		f, err = form.NewForm(in)
	}
	if err == nil {
		err = a.prepareNewForm(r, f)
	}
	c := a.charge(r, "forms.generate", nil)
	if err == nil {
		err = a.store.CreateGeneratedForm(r.Context(), f, c)
	}
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	reportCharge(w, c)
	httpx.WriteJSON(w, http.StatusCreated, a.viewForm(f, true))
}

// insights is the stored and wire shape of the prose part of an analysis.
type insights struct {
	Summary         string            `json:"summary"`
	Insights        []string          `json:"insights"`
	Recommendations []string          `json:"recommendations"`
	KeyMetrics      map[string]string `json:"keyMetrics"`
}

// generateAnalytics serves POST /forms/{id}/analytics/generate: analyses the
// responses and overwrites the form's stored analytics.
func (a *API) generateAnalytics(w http.ResponseWriter, r *http.Request) {
	err := httpx.RequireEmptyBody(w, r)
	var f *form.Form
	if err == nil {
		f, err = a.ownedForm(r)
	}
	if err == nil {
		err = a.affordable(r, "analytics.generate")
	}
	var ds *query.Dataset
	if err == nil {
		ds, err = a.cfg.Submissions.Dataset(r.Context(), f)
	}
	var res *ai.Analytics
	if err == nil {
		res, err = a.cfg.AI.Analyze(r.Context(), ds)
	}
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	body, _ := json.Marshal(insights{Summary: res.Summary, Insights: nonNil(res.Insights), Recommendations: nonNil(res.Recommendations), KeyMetrics: res.KeyMetrics})
	rec := &store.AnalyticsRecord{FormID: f.ID, TotalResponses: res.TotalResponses, CompletionRate: res.CompletionRate, Insights: string(body)}
	c := a.charge(r, "analytics.generate", f)
	if err := a.store.SaveAnalytics(r.Context(), rec, c); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	reportCharge(w, c)
	httpx.WriteJSON(w, http.StatusOK, viewAnalytics(rec))
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// getAnalytics serves GET /forms/{id}/analytics; 404 before the first generation.
func (a *API) getAnalytics(w http.ResponseWriter, r *http.Request) {
	f, err := a.ownedForm(r)
	var rec *store.AnalyticsRecord
	if err == nil {
		rec, err = a.store.GetAnalytics(r.Context(), f.ID)
	}
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, viewAnalytics(rec))
}

func viewAnalytics(rec *store.AnalyticsRecord) map[string]any {
	return map[string]any{
		"id": rec.ID, "formId": rec.FormID, "totalResponses": rec.TotalResponses, "completionRate": rec.CompletionRate,
		"insights": json.RawMessage(rec.Insights), "lastAnalyzed": form.Timestamp(rec.AnalyzedAt),
	}
}

func viewConversation(c *store.Conversation) map[string]any {
	return map[string]any{"id": c.ID, "formId": c.FormID, "createdAt": form.Timestamp(c.CreatedAt), "updatedAt": form.Timestamp(c.UpdatedAt)}
}

func viewMessage(m *store.Message) map[string]any {
	return map[string]any{"id": m.ID, "role": m.Role, "message": m.Content, "createdAt": form.Timestamp(m.CreatedAt)}
}

// createConversation serves POST /forms/{id}/chat.
func (a *API) createConversation(w http.ResponseWriter, r *http.Request) {
	err := httpx.RequireEmptyBody(w, r)
	var f *form.Form
	if err == nil {
		f, err = a.ownedForm(r)
	}
	var c *store.Conversation
	if err == nil {
		c, err = a.store.CreateConversation(r.Context(), f.ID)
	}
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	httpx.WriteJSON(w, http.StatusCreated, viewConversation(c))
}

// listConversations serves GET /forms/{id}/chat: most recently updated first.
func (a *API) listConversations(w http.ResponseWriter, r *http.Request) {
	p, err := parsePage(r, 20, 50)
	var f *form.Form
	if err == nil {
		f, err = a.ownedForm(r)
	}
	var list []store.Conversation
	var total int
	if err == nil {
		list, total, err = a.store.ListConversations(r.Context(), f.ID, p.limit, p.offset)
	}
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	views := make([]map[string]any, len(list))
	for i := range list {
		views[i] = viewConversation(&list[i])
	}
	httpx.WriteJSON(w, http.StatusOK, listEnvelope("conversations", views, total, p))
}

// conversation loads the {conversationId} of the caller's {id} form.
func (a *API) conversation(r *http.Request) (*form.Form, *store.Conversation, error) {
	f, err := a.ownedForm(r)
	if err != nil {
		return nil, nil, err
	}
	id, err := pathID(r, "conversationId")
	if err != nil {
		return nil, nil, err
	}
	c, err := a.store.GetConversation(r.Context(), f.ID, id)
	return f, c, err
}

// sendMessage serves POST /forms/{id}/chat/{conversationId}/messages: the assistant
// answers from the form's responses, with the conversation as context.
func (a *API) sendMessage(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Message *string `json:"message"`
	}
	f, c, err := a.conversation(r)
	if err == nil {
		err = httpx.DecodeJSON(w, r, &body)
	}
	if err == nil {
		err = checkChatMessage(body.Message)
	}
	if err == nil {
		err = a.affordable(r, "chat.message")
	}
	var answer string
	if err == nil {
		answer, err = a.answer(r.Context(), f, c, *body.Message)
	}
	var user, assistant *store.Message
	charge := a.charge(r, "chat.message", f)
	if err == nil {
		user, assistant, err = a.store.AddExchange(r.Context(), c.ID, *body.Message, answer, charge)
	}
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	reportCharge(w, charge)
	httpx.WriteJSON(w, http.StatusCreated, map[string]any{"userMessage": viewMessage(user), "assistantMessage": viewMessage(assistant)})
}

func checkChatMessage(m *string) error {
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
func (a *API) answer(ctx context.Context, f *form.Form, c *store.Conversation, question string) (string, error) {
	past, _, err := a.store.Messages(ctx, c.ID, 1000, 0)
	if err != nil {
		return "", err
	}
	history := make([]ai.Turn, len(past))
	for i, m := range past {
		history[i] = ai.Turn{Role: m.Role, Content: m.Content}
	}
	ds, err := a.cfg.Submissions.Dataset(ctx, f)
	if err != nil {
		return "", err
	}
	return a.cfg.AI.Chat(ctx, ds, history, question)
}

// listMessages serves GET /forms/{id}/chat/{conversationId}/messages: chronological.
func (a *API) listMessages(w http.ResponseWriter, r *http.Request) {
	p, err := parsePage(r, 50, 100)
	var c *store.Conversation
	if err == nil {
		_, c, err = a.conversation(r)
	}
	var list []store.Message
	var total int
	if err == nil {
		list, total, err = a.store.Messages(r.Context(), c.ID, p.limit, p.offset)
	}
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	views := make([]map[string]any, len(list))
	for i := range list {
		views[i] = viewMessage(&list[i])
	}
	httpx.WriteJSON(w, http.StatusOK, listEnvelope("messages", views, total, p))
}

// deleteConversation serves DELETE /forms/{id}/chat/{conversationId} (extension).
func (a *API) deleteConversation(w http.ResponseWriter, r *http.Request) {
	_, c, err := a.conversation(r)
	if err == nil {
		err = a.store.DeleteConversation(r.Context(), c.FormID, c.ID)
	}
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
