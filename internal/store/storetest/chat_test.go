package storetest_test

import (
	"testing"

	"forma/internal/form"
	"forma/internal/quota"
	"forma/internal/server/servertest"
	"forma/internal/store"
)

// TestChatExchanges: an exchange stores the question and the answer in order,
// moves the conversation to the top of the list, and a refused charge stores
// nothing.
func TestChatExchanges(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		st, _ := open(t, d)
		acct := newAccount(t, st, "ada@example.com")
		f := newForm(t, st, acct, "Chat", "Q")
		older, err := st.CreateConversation(ctx, f.ID)
		must(t, err)
		newer, err := st.CreateConversation(ctx, f.ID)
		must(t, err)

		plan := quota.Plan{Tier: "free", MonthlyAllowance: 4}
		user, assistant, err := st.AddExchange(ctx, older.ID, "How many?", "Three.", charge(acct, plan, "chat.message", 2, f))
		must(t, err)
		if user.Role != "user" || assistant.Role != "assistant" || assistant.ID <= user.ID {
			t.Fatalf("exchange %+v, %+v", user, assistant)
		}
		list, _, err := st.ListConversations(ctx, f.ID, 10, 0)
		must(t, err)
		if list[0].ID != older.ID || !list[0].UpdatedAt.After(newer.UpdatedAt) {
			t.Fatalf("conversations %+v: the one just used comes first", list)
		}
		_, _, err = st.AddExchange(ctx, older.ID, "And?", "Four.", charge(acct, plan, "chat.message", 2, f))
		must(t, err)
		_, _, err = st.AddExchange(ctx, older.ID, "More?", "No.", charge(acct, plan, "chat.message", 2, f))
		wantCode(t, err, form.InsufficientCredits)
		msgs, total, err := st.Messages(ctx, older.ID, 10, 0)
		must(t, err)
		want := []string{"How many?", "Three.", "And?", "Four."}
		if total != len(want) {
			t.Fatalf("%d messages, want %d", total, len(want))
		}
		for i, m := range msgs {
			if m.Content != want[i] {
				t.Errorf("message %d = %q, want %q", i, m.Content, want[i])
			}
		}
		must(t, st.DeleteConversation(ctx, f.ID, older.ID))
		if _, err := st.GetConversation(ctx, f.ID, older.ID); form.ErrorCode(err) != form.NotFound {
			t.Fatalf("deleted conversation: %v", err)
		}
		if _, total, _ := st.Messages(ctx, older.ID, 10, 0); total != 0 {
			t.Fatalf("%d messages outlive their conversation", total)
		}
	})
}
