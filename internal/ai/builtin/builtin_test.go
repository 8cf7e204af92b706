package builtin_test

import (
	"context"
	"reflect"
	"testing"
	"time"

	"forma/internal/ai"
	"forma/internal/ai/aitest"
	"forma/internal/ai/analyze"
	"forma/internal/ai/builtin"
	"forma/internal/ai/chat"
	"forma/internal/ai/generate"
)

// TestProvider checks that the provider passes its clock and its inputs to the
// packages it composes.
func TestProvider(t *testing.T) {
	ctx := context.Background()
	p := builtin.Provider{Now: func() time.Time { return aitest.Now }}
	ds := aitest.Dataset(aitest.Generate(50, 9))

	prompt := "a contact form with name, email and message"
	got, err := p.GenerateForm(ctx, prompt)
	want, wantErr := generate.Form(prompt)
	if err != nil || wantErr != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("GenerateForm = %+v, %v; want %+v, %v", got, err, want, wantErr)
	}
	if _, err := p.GenerateForm(ctx, ""); err == nil {
		t.Error("GenerateForm accepted an empty prompt")
	}

	a, err := p.Analyze(ctx, ds)
	if wantA := analyze.Dataset(ds, aitest.Now); err != nil || !reflect.DeepEqual(*a, wantA) {
		t.Errorf("Analyze = %+v, %v; want %+v", a, err, wantA)
	}

	history := []ai.Turn{{Role: ai.RoleUser, Content: "How many responses came in last week?"}}
	reply, err := p.Chat(ctx, ds, history, "And the week before?")
	if wantR := chat.Answer(ds, history, "And the week before?", aitest.Now); err != nil || reply != wantR {
		t.Errorf("Chat = %q, %v; want %q", reply, err, wantR)
	}
}
