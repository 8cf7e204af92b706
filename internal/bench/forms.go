package bench

import (
	"cmp"
	"context"
	"fmt"
	"net/http"
	"slices"
	"time"

	"forma/internal/form"
)

// apiForm is a form as the API answers it.
type apiForm struct {
	ID        int64               `json:"id"`
	ShareURL  string              `json:"shareUrl"`
	Questions []form.QuestionJSON `json:"questions"`
}

// ids are the form's question ids in the form's order.
func (f *apiForm) ids() []int64 {
	qs := slices.SortedFunc(slices.Values(f.Questions), func(a, b form.QuestionJSON) int { return cmp.Compare(a.Order, b.Order) })
	ids := make([]int64, len(qs))
	for i, q := range qs {
		ids[i] = q.ID
	}
	return ids
}

// benchForms are the forms of a run.
type benchForms struct {
	// submit has ten questions and a webhook to the receiver; twenty has twenty
	// questions; paging and ai hold the loaded responses.
	submit, twenty, paging, ai *apiForm
}

// all lists the forms created so far.
func (b benchForms) all() []*apiForm {
	var out []*apiForm
	for _, f := range []*apiForm{b.submit, b.twenty, b.paging, b.ai} {
		if f != nil {
			out = append(out, f)
		}
	}
	return out
}

// prepare creates and publishes the forms through the API, and loads the
// responses of the paging and AI forms through the store.
func (r *run) prepare(ctx context.Context) error {
	r.progress("creating the forms through the API")
	var err error
	if r.forms.submit, err = r.createForm(ctx, "Bench: submissions", tenQuestions(), r.hook.url); err != nil {
		return err
	}
	if r.forms.twenty, err = r.createForm(ctx, "Bench: twenty questions", twentyQuestions(), ""); err != nil {
		return err
	}
	if r.forms.paging, err = r.createForm(ctx, "Bench: paging", tenQuestions(), ""); err != nil {
		return err
	}
	if r.forms.ai, err = r.createForm(ctx, "Bench: AI", tenQuestions(), ""); err != nil {
		return err
	}
	for _, l := range []struct {
		f    *apiForm
		n    int
		what string
	}{{r.forms.paging, r.o.Paging, "paging"}, {r.forms.ai, r.o.AI, "AI"}} {
		r.progress("loading %s responses for the %s rows", thousands(float64(l.n)), l.what)
		start := time.Now()
		if err := loadResponses(ctx, r.st, l.f.ShareURL, tenQuestions(), l.n); err != nil {
			return fmt.Errorf("load responses: %w", err)
		}
		r.progress("loaded in %s", time.Since(start).Round(100*time.Millisecond))
	}
	return nil
}

// createForm creates a form of qs, sets its webhook (when webhookURL is not
// empty) and publishes it.
func (r *run) createForm(ctx context.Context, title string, qs []question, webhookURL string) (*apiForm, error) {
	var f apiForm
	if err := r.call(ctx, http.MethodPost, "/api/v1/forms", formInput(title, qs), http.StatusCreated, &f); err != nil {
		return nil, fmt.Errorf("create a bench form: %w", err)
	}
	path := fmt.Sprintf("/api/v1/forms/%d", f.ID)
	if webhookURL != "" {
		hook := map[string]any{"webhookUrl": webhookURL, "webhookEnabled": true}
		if err := r.call(ctx, http.MethodPatch, path, hook, http.StatusOK, nil); err != nil {
			return nil, fmt.Errorf("set the bench webhook: %w", err)
		}
	}
	if err := r.call(ctx, http.MethodPost, path+"/publish", nil, http.StatusOK, nil); err != nil {
		return nil, fmt.Errorf("publish a bench form: %w", err)
	}
	return &f, nil
}
