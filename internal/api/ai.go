package api

import (
	"encoding/json"
	"net/http"

	"forma/internal/assist"
	"forma/internal/form"
	"forma/internal/httpx"
	"forma/internal/quota"
	"forma/internal/store"
)

// payer is the caller as the AI operations charge it.
func payer(r *http.Request) assist.Payer {
	p := caller(r)
	return assist.Payer{Account: p.account, Plan: p.plan, Balance: p.balance}
}

// reportCharge puts a recorded charge in the credit headers.
func reportCharge(w http.ResponseWriter, c *store.Charge) {
	setCreditHeaders(w.Header(), quota.Balance{Allowance: c.Plan.MonthlyAllowance, Used: c.Used}, c.Credits)
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
	var f *form.Form
	var c *store.Charge
	if err == nil {
		f, c, err = a.assist.GenerateForm(r.Context(), payer(r), *body.Prompt)
	}
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	reportCharge(w, c)
	a.writeForm(w, r, http.StatusCreated, f, true)
}

// generateAnalytics serves POST /forms/{id}/analytics/generate: analyses the
// responses and overwrites the form's stored analytics (assist.Service.Analyze).
func (a *API) generateAnalytics(w http.ResponseWriter, r *http.Request) {
	err := httpx.RequireEmptyBody(w, r)
	var f *form.Form
	if err == nil {
		f, err = a.ownedForm(r)
	}
	var rec *store.AnalyticsRecord
	var c *store.Charge
	if err == nil {
		rec, c, err = a.assist.Analyze(r.Context(), payer(r), f)
	}
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	reportCharge(w, c)
	httpx.WriteJSON(w, http.StatusOK, viewAnalytics(rec))
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
// answers from the form's responses, with the conversation as context
// (assist.Service.Ask).
func (a *API) sendMessage(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Message *string `json:"message"`
	}
	f, c, err := a.conversation(r)
	if err == nil {
		err = httpx.DecodeJSON(w, r, &body)
	}
	var x *assist.Exchange
	if err == nil {
		x, err = a.assist.Ask(r.Context(), payer(r), f, c, body.Message)
	}
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	reportCharge(w, x.Charge)
	httpx.WriteJSON(w, http.StatusCreated, map[string]any{"userMessage": viewMessage(x.User), "assistantMessage": viewMessage(x.Assistant)})
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
