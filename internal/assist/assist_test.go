package assist_test

import (
	"context"
	"strings"
	"testing"

	"forma/internal/ai"
	"forma/internal/ai/builtin"
	"forma/internal/ai/query"
	"forma/internal/assist"
	"forma/internal/blob"
	"forma/internal/form"
	"forma/internal/quota"
	"forma/internal/render"
	"forma/internal/server/servertest"
	"forma/internal/store"
)

// spy is the built-in provider, counting its calls and keeping the history of
// the last chat question.
type spy struct {
	builtin.Provider
	calls   int
	history []ai.Turn
}

func (s *spy) GenerateForm(ctx context.Context, prompt string) (form.FormInput, error) {
	s.calls++
	return s.Provider.GenerateForm(ctx, prompt)
}

func (s *spy) Analyze(ctx context.Context, ds *query.Dataset) (*ai.Analytics, error) {
	s.calls++
	return s.Provider.Analyze(ctx, ds)
}

func (s *spy) Chat(ctx context.Context, ds *query.Dataset, history []ai.Turn, question string) (string, error) {
	s.calls++
	s.history = history
	return s.Provider.Chat(ctx, ds, history, question)
}

// fixture is a store, the service over it with a spy provider, and an account.
type fixture struct {
	st   *store.Store
	svc  *assist.Service
	ai   *spy
	acct *store.Account
}

func newFixture(t *testing.T, d store.Dialect) *fixture {
	t.Helper()
	st := servertest.OpenStore(t, d)
	blobs, err := blob.NewDisk(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	acct, err := st.CreateAccount(t.Context(), "ada@example.com", "free")
	if err != nil {
		t.Fatal(err)
	}
	p := &spy{}
	subs := render.NewSubmissions(st, blob.NewLinks("secret", "http://forma.test"), blobs)
	return &fixture{st: st, svc: assist.New(st, p, quota.DefaultCosts(), subs), ai: p, acct: acct}
}

// payer is the account on plan, with the credits it has used this cycle.
func (x *fixture) payer(t *testing.T, plan quota.Plan) assist.Payer {
	t.Helper()
	b, err := x.st.Balance(t.Context(), x.acct, plan)
	if err != nil {
		t.Fatal(err)
	}
	return assist.Payer{Account: x.acct, Plan: plan, Balance: b}
}

var free = quota.DefaultPlans()["free"]

// TestGenerateFormStoresAndCharges: a generated form is stored as a draft with a
// share token and its questions, and its price is in the usage history once.
func TestGenerateFormStoresAndCharges(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		x := newFixture(t, d)
		f, c, err := x.svc.GenerateForm(t.Context(), x.payer(t, free), "a short customer feedback survey")
		if err != nil {
			t.Fatal(err)
		}
		stored, err := x.st.GetForm(t.Context(), x.acct.ID, f.ID)
		if err != nil {
			t.Fatal(err)
		}
		if stored.IsPublished() || stored.ShareToken == "" || len(stored.Questions) == 0 {
			t.Errorf("stored as published=%v, share token %q, %d questions", stored.IsPublished(), stored.ShareToken, len(stored.Questions))
		}
		used, _, err := x.st.UsageHistory(t.Context(), x.acct.ID, nil, 10, 0)
		if err != nil {
			t.Fatal(err)
		}
		want := quota.DefaultCosts()[assist.GenerateForm]
		if len(used) != 1 || used[0].Endpoint != assist.GenerateForm || used[0].Credits != want || c.Credits != want {
			t.Errorf("usage history %+v, charge %+v; want one %s of %d credits", used, c, assist.GenerateForm, want)
		}
	})
}

// TestRefusedBeforeAnyWork: without the credits, or with a message the rule
// refuses, nothing is asked of the provider and nothing is stored or charged.
func TestRefusedBeforeAnyWork(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		x := newFixture(t, d)
		f := &form.Form{AccountID: x.acct.ID, Title: "Survey", DisplayMode: form.SinglePage,
			Questions: []form.Question{{Type: form.Text, Text: "Comment"}}}
		if err := x.st.CreateForm(t.Context(), f); err != nil {
			t.Fatal(err)
		}
		conv, err := x.st.CreateConversation(t.Context(), f.ID)
		if err != nil {
			t.Fatal(err)
		}
		broke := x.payer(t, free)
		broke.Balance.Used = free.MonthlyAllowance
		ok := x.payer(t, free)
		blank, long := "  \n ", strings.Repeat("x", ai.MaxMessageLen+1)
		question := "How many responses?"
		for name, err := range map[string]error{
			"generate without credits":   second(x.svc.GenerateForm(t.Context(), broke, "a survey")),
			"analyse without credits":    second(x.svc.Analyze(t.Context(), broke, f)),
			"ask without credits":        errOf(x.svc.Ask(t.Context(), broke, f, conv, &question)),
			"ask nothing":                errOf(x.svc.Ask(t.Context(), ok, f, conv, nil)),
			"ask a blank message":        errOf(x.svc.Ask(t.Context(), ok, f, conv, &blank)),
			"ask a message too long":     errOf(x.svc.Ask(t.Context(), ok, f, conv, &long)),
			"ask with a control char":    errOf(x.svc.Ask(t.Context(), ok, f, conv, ptr("hi\x00"))),
			"generate from a bad prompt": second(x.svc.GenerateForm(t.Context(), ok, "")),
		} {
			want := form.Invalid
			if strings.HasSuffix(name, "without credits") {
				want = form.InsufficientCredits
			}
			if form.ErrorCode(err) != want {
				t.Errorf("%s: %v, want %s", name, err, want)
			}
		}
		if x.ai.calls != 1 { // the bad prompt is the provider's to refuse
			t.Errorf("the provider was asked %d times, want once (the bad prompt)", x.ai.calls)
		}
		if used, err := x.st.CreditsUsed(t.Context(), x.acct.ID, ok.Balance.CycleStart); err != nil || used != 0 {
			t.Errorf("credits used %d (%v), want 0", used, err)
		}
		if msgs, _, err := x.st.Messages(t.Context(), conv.ID, 10, 0); err != nil || len(msgs) != 0 {
			t.Errorf("messages stored: %v (%v)", msgs, err)
		}
	})
}

// TestAskKeepsTheConversation: each question is answered with the conversation
// so far, both messages are stored in order, and each exchange is charged.
func TestAskKeepsTheConversation(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		x := newFixture(t, d)
		f := &form.Form{AccountID: x.acct.ID, Title: "Survey", DisplayMode: form.SinglePage,
			Questions: []form.Question{{Type: form.Rating, Text: "Rating"}}}
		if err := x.st.CreateForm(t.Context(), f); err != nil {
			t.Fatal(err)
		}
		conv, err := x.st.CreateConversation(t.Context(), f.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range []string{"How many responses are there?", "And the average rating?"} {
			if _, err := x.svc.Ask(t.Context(), x.payer(t, free), f, conv, &q); err != nil {
				t.Fatal(err)
			}
		}
		if len(x.ai.history) != 2 || x.ai.history[0].Content != "How many responses are there?" || x.ai.history[1].Role != ai.RoleAssistant {
			t.Errorf("the second question was asked with the history %+v", x.ai.history)
		}
		msgs, total, err := x.st.Messages(t.Context(), conv.ID, 10, 0)
		if err != nil || total != 4 || msgs[2].Content != "And the average rating?" {
			t.Fatalf("stored messages %+v (total %d, %v)", msgs, total, err)
		}
		used, err := x.st.CreditsUsed(t.Context(), x.acct.ID, x.payer(t, free).Balance.CycleStart)
		if want := 2 * quota.DefaultCosts()[assist.ChatMessage]; err != nil || used != want {
			t.Errorf("credits used %d (%v), want %d", used, err, want)
		}
	})
}

func second[T, U any](_ T, _ U, err error) error { return err }

func errOf[T any](_ T, err error) error { return err }

func ptr(s string) *string { return &s }
