package dashboard

import (
	"fmt"
	"net/http"
	"unicode/utf8"

	"forma/internal/ai"
	"forma/internal/assist"
	"forma/internal/form"
	"forma/internal/store"
)

// conversationsPerPage is how many conversations the chat page lists at a time;
// messagesShown is how many of a conversation's latest messages its page shows.
const (
	conversationsPerPage = 20
	messagesShown        = 200
)

// aiRoutes registers the AI pages of a form: its analysis and its conversations.
func (h *Handler) aiRoutes(mux Mux) {
	handle(mux, "GET /forms/{id}/analytics", h.page(h.analytics))
	handle(mux, "POST /forms/{id}/analytics", h.page(h.generateAnalytics))
	handle(mux, "GET /forms/{id}/chat", h.page(h.chat))
	handle(mux, "POST /forms/{id}/chat", h.page(h.newConversation))
	handle(mux, "GET /forms/{id}/chat/{cid}", h.page(h.conversation))
	handle(mux, "POST /forms/{id}/chat/{cid}", h.page(h.ask))
	handle(mux, "GET /forms/{id}/chat/{cid}/delete", h.page(h.confirmDeleteConversation))
	handle(mux, "POST /forms/{id}/chat/{cid}/delete", h.page(h.deleteConversation))
}

// conversationRow is one conversation in the list, named by its first question.
type conversationRow struct {
	Path, First, Updated string
	Messages             int
}

// chatData is the data of the conversations list.
type chatData struct {
	Form       formHead
	Rows       []conversationRow
	Total      int
	Prev, Next int // 0: no such page
	Deleted    bool
}

// chat serves GET /forms/{id}/chat: the form's conversations, most recently
// updated first, and the button that starts one.
func (h *Handler) chat(w http.ResponseWriter, r *http.Request, s *Session) {
	f, _, ok := h.accountForm(w, r, s)
	if !ok {
		return
	}
	head := h.headOf(f)
	head.Tab = "chat"
	n, ok := requestedPage(w, r, s, head.Chat, "Your conversations")
	if !ok {
		return
	}
	list, total, err := h.store.ListConversations(r.Context(), f.ID, conversationsPerPage, (n-1)*conversationsPerPage)
	data := chatData{Form: head, Total: total, Deleted: r.URL.Query().Get("deleted") == "1"}
	for i := 0; err == nil && i < len(list); i++ {
		var row conversationRow
		row, err = h.conversationRow(r, head, &list[i])
		data.Rows = append(data.Rows, row)
	}
	if err != nil {
		serverError(w, r, "list conversations", err)
		return
	}
	data.Prev, data.Next = pages(n, conversationsPerPage, total)
	render(w, r, http.StatusOK, "chat", "Ask AI · "+f.Title, s, data)
}

// conversationRow names c by its first question, shortened.
func (h *Handler) conversationRow(r *http.Request, head formHead, c *store.Conversation) (conversationRow, error) {
	first, total, err := h.store.Messages(r.Context(), c.ID, 1, 0)
	row := conversationRow{Path: fmt.Sprintf("%s/%d", head.Chat, c.ID), Updated: moment(c.UpdatedAt), Messages: total}
	if len(first) > 0 {
		row.First = shorten(first[0].Content, 90)
	}
	return row, err
}

// shorten cuts s to at most n characters, marking the cut with an ellipsis.
func shorten(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}

// newConversation serves POST /forms/{id}/chat: starts a conversation and opens it.
func (h *Handler) newConversation(w http.ResponseWriter, r *http.Request, s *Session) {
	f, _, ok := h.accountForm(w, r, s)
	if !ok {
		return
	}
	c, err := h.store.CreateConversation(r.Context(), f.ID)
	if err != nil {
		serverError(w, r, "start a conversation", err)
		return
	}
	http.Redirect(w, r, fmt.Sprintf("%s/%d", h.headOf(f).Chat, c.ID), http.StatusSeeOther)
}

// conversationData is the data of a conversation's page.
type conversationData struct {
	Form     formHead
	Path     string
	Messages []store.Message
	Total    int
	Last     int // the index of the latest message, the target of #latest
	Credits  credits
	// Message is the refused question, shown again with its problem.
	Message field
	MaxLen  int
	Problem string
}

// accountConversation loads the {id} form of the account and its {cid}
// conversation; otherwise it answers 404 and returns false.
func (h *Handler) accountConversation(w http.ResponseWriter, r *http.Request, s *Session) (*form.Form, *store.Conversation, bool) {
	f, _, ok := h.accountForm(w, r, s)
	if !ok {
		return nil, nil, false
	}
	var c *store.Conversation
	var err error = form.Errorf(form.NotFound, "no such conversation")
	if id, ok := form.ParseID(r.PathValue("cid")); ok {
		c, err = h.store.GetConversation(r.Context(), f.ID, id)
	}
	return f, c, h.loaded(w, r, s, "conversation", err)
}

// conversation serves GET /forms/{id}/chat/{cid}: the history and the question box.
func (h *Handler) conversation(w http.ResponseWriter, r *http.Request, s *Session) {
	if f, c, ok := h.accountConversation(w, r, s); ok {
		h.showConversation(w, r, s, f, c, http.StatusOK, field{ID: "message", Name: "message"}, "")
	}
}

// ask serves POST /forms/{id}/chat/{cid}: the question is answered and stored
// through assist.Service.Ask, as the API's, and the page shown again (post,
// redirect, get); a refused question is shown again with its problem.
func (h *Handler) ask(w http.ResponseWriter, r *http.Request, s *Session) {
	f, c, ok := h.accountConversation(w, r, s)
	if !ok {
		return
	}
	message := r.PostFormValue("message")
	p, err := h.payer(r, s.Account)
	if err == nil {
		_, err = h.assist.Ask(r.Context(), p, f, c, &message)
	}
	if err != nil {
		h.refusedAI(w, r, s, err, func(status int, problem string) {
			msg := field{ID: "message", Name: "message", Value: message}
			if status == http.StatusBadRequest {
				msg.Error, problem = problem, ""
			}
			h.showConversation(w, r, s, f, c, status, msg, problem)
		})
		return
	}
	http.Redirect(w, r, fmt.Sprintf("%s/%d#latest", h.headOf(f).Chat, c.ID), http.StatusSeeOther)
}

// showConversation draws c's page with status; msg is the question box, and
// problem says why the last question was not answered ("" when it was).
func (h *Handler) showConversation(w http.ResponseWriter, r *http.Request, s *Session, f *form.Form, c *store.Conversation,
	status int, msg field, problem string) {
	head := h.headOf(f)
	head.Tab = "chat"
	data := conversationData{Form: head, Path: fmt.Sprintf("%s/%d", head.Chat, c.ID), Message: msg, MaxLen: ai.MaxMessageLen,
		Problem: problem}
	var err error
	if data.Credits, err = h.credits(r, s.Account, assist.ChatMessage); err == nil {
		data.Messages, data.Total, err = h.latestMessages(r, c)
	}
	data.Last = len(data.Messages) - 1
	if err != nil {
		serverError(w, r, "load the conversation", err)
		return
	}
	render(w, r, status, "conversation", "Ask AI · "+f.Title, s, data)
}

// latestMessages returns the last messagesShown messages of c, oldest first, and
// how many it has.
func (h *Handler) latestMessages(r *http.Request, c *store.Conversation) ([]store.Message, int, error) {
	list, total, err := h.store.Messages(r.Context(), c.ID, messagesShown, 0)
	if err != nil || total <= messagesShown {
		return list, total, err
	}
	list, _, err = h.store.Messages(r.Context(), c.ID, messagesShown, total-messagesShown)
	return list, total, err
}

// confirmDeleteConversation serves GET /forms/{id}/chat/{cid}/delete.
func (h *Handler) confirmDeleteConversation(w http.ResponseWriter, r *http.Request, s *Session) {
	f, c, ok := h.accountConversation(w, r, s)
	if !ok {
		return
	}
	head := h.headOf(f)
	head.Tab = "chat"
	row, err := h.conversationRow(r, head, c)
	if err != nil {
		serverError(w, r, "load the conversation", err)
		return
	}
	render(w, r, http.StatusOK, "conversation-delete", "Delete conversation · "+f.Title, s, struct {
		Form formHead
		Row  conversationRow
	}{head, row})
}

// deleteConversation serves POST /forms/{id}/chat/{cid}/delete.
func (h *Handler) deleteConversation(w http.ResponseWriter, r *http.Request, s *Session) {
	f, c, ok := h.accountConversation(w, r, s)
	if !ok {
		return
	}
	if err := h.store.DeleteConversation(r.Context(), f.ID, c.ID); err != nil {
		serverError(w, r, "delete a conversation", err)
		return
	}
	http.Redirect(w, r, h.headOf(f).Chat+"?deleted=1", http.StatusSeeOther)
}
