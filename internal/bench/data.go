package bench

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	mrand "math/rand/v2"
	"strconv"
	"sync/atomic"
	"time"

	"forma/internal/form"
	"forma/internal/logic"
	"forma/internal/store"
)

// question is one question of a bench form and how a respondent answers it.
type question struct {
	in form.QuestionInput
	// answer draws an answer as a respondent sends it; nil leaves it unanswered.
	answer func(r *mrand.Rand) any
}

func ask(t form.QuestionType, text string, required bool, options ...string) form.QuestionInput {
	return form.QuestionInput{Type: t, Question: &text, Required: required, Options: options}
}

// oneOf answers with one of the choices.
func oneOf(choices ...any) func(r *mrand.Rand) any {
	return func(r *mrand.Rand) any { return choices[r.IntN(len(choices))] }
}

// sometimes answers with answer in percent of the cases, and skips otherwise.
func sometimes(percent int, answer func(r *mrand.Rand) any) func(r *mrand.Rand) any {
	return func(r *mrand.Rand) any {
		if r.IntN(100) < percent {
			return answer(r)
		}
		return nil
	}
}

// tenQuestions is the customer-feedback form of the submission, paging and AI
// rows: a mix of the types the query engine computes with.
func tenQuestions() []question {
	features := []string{"Dashboard", "Reports", "Integrations", "Mobile app", "API"}
	slider := ask(form.Slider, "How easy was it to get started?", true)
	slider.SliderConfig = &form.SliderConfig{Min: 1, Max: 10, Step: 1}
	spend := ask(form.Currency, "How much did you spend with us last month?", false)
	spend.CurrencyConfig = &form.CurrencyConfig{Currency: "USD"}
	return []question{
		{ask(form.Rating, "How would you rate your overall experience?", true), oneOf(1, 2, 3, 4, 4, 5, 5)},
		{ask(form.YesNo, "Would you recommend us to a friend?", true), oneOf(true, true, false)},
		{ask(form.Select, "How did you hear about us?", false, "Search engine", "Social media", "Friend or colleague", "Advertisement", "Other"),
			sometimes(90, oneOf("Search engine", "Social media", "Friend or colleague", "Advertisement", "Other"))},
		{ask(form.Select, "Which plan are you on?", true, "Free", "Starter", "Pro", "Enterprise"), oneOf("Free", "Free", "Starter", "Pro", "Enterprise")},
		{ask(form.MultiSelect, "Which features do you use?", false, features...), func(r *mrand.Rand) any {
			var out []string
			for _, f := range features {
				if r.IntN(2) == 0 {
					out = append(out, f)
				}
			}
			return out
		}},
		{ask(form.Number, "How many times did you contact support last month?", false), sometimes(95, func(r *mrand.Rand) any { return r.IntN(8) })},
		{spend, func(r *mrand.Rand) any { return float64(r.IntN(50000)) / 100 }},
		{slider, func(r *mrand.Rand) any { return 1 + r.IntN(10) }},
		{ask(form.Textarea, "What could we do better?", false), sometimes(60, oneOf(
			"Great product, the dashboard is really easy to use.", "The app is slow and crashes all the time.",
			"It is fine, but the reports could be faster.", "Excellent support team, very friendly and helpful.",
			"Too expensive for what you get.", "Please add dark mode."))},
		{ask(form.Email, "Your email address (optional)", false), sometimes(40, func(r *mrand.Rand) any {
			return fmt.Sprintf("customer%d@example.com", r.IntN(100000))
		})},
	}
}

// twentyQuestions is the form of the page, definition and API rows: the ten
// questions and ten more of the other types.
func twentyQuestions() []question {
	qs := tenQuestions()
	for _, in := range []form.QuestionInput{
		ask(form.Text, "Your name", true), ask(form.Phone, "Phone number", false), ask(form.URL, "Your website", false),
		ask(form.Date, "When did you start using our product?", false), ask(form.Time, "Best time to call you", false),
		ask(form.Text, "Company", false), ask(form.Number, "Team size", false), ask(form.YesNo, "May we contact you?", true),
		ask(form.Select, "Country", false, "France", "Germany", "Spain", "United Kingdom", "United States"),
		ask(form.Textarea, "Anything else?", false),
	} {
		qs = append(qs, question{in: in})
	}
	return qs
}

// formInput is the body of POST /api/v1/forms for a bench form.
func formInput(title string, qs []question) form.FormInput {
	desc := "Created by forma bench"
	in := form.FormInput{Title: &title, Description: &desc}
	for _, q := range qs {
		in.Questions = append(in.Questions, q.in)
	}
	return in
}

// answers draws one respondent's answers to qs, keyed by the ids of the created
// questions (in the same order), as the submission body carries them.
func answers(qs []question, ids []int64, r *mrand.Rand) (map[string]json.RawMessage, error) {
	raw := map[string]json.RawMessage{}
	for i, q := range qs {
		if q.answer == nil {
			continue
		}
		v := q.answer(r)
		if v == nil {
			continue
		}
		b, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		raw[strconv.FormatInt(ids[i], 10)] = b
	}
	return raw, nil
}

// variants is how many distinct answer sets the bench draws: submissions and
// loaded responses cycle through them.
const variants = 256

// submissionBodies are JSON bodies of POST /f/{s}/submissions for a form of qs.
func submissionBodies(qs []question, ids []int64) ([][]byte, error) {
	r := mrand.New(mrand.NewPCG(1, 2))
	bodies := make([][]byte, variants)
	for i := range bodies {
		raw, err := answers(qs, ids, r)
		if err != nil {
			return nil, err
		}
		if bodies[i], err = json.Marshal(map[string]any{"answers": raw}); err != nil {
			return nil, err
		}
	}
	return bodies, nil
}

// completed returns answer sets completed by the same rules as a respondent's
// (logic.Complete: validation, visibility, required questions, score), so the
// loaded responses are ones the server could have stored.
func completed(f *form.Form, qs []question) ([]form.Submission, error) {
	ids := make([]int64, len(f.Questions))
	for i, q := range form.InOrder(f.Questions) {
		ids[i] = q.ID
	}
	r := mrand.New(mrand.NewPCG(3, 4))
	out := make([]form.Submission, variants)
	for i := range out {
		raw, err := answers(qs, ids, r)
		if err != nil {
			return nil, err
		}
		sub, err := logic.Complete(f.Questions, raw, nil)
		if err != nil {
			return nil, fmt.Errorf("bench answers refused: %w", err)
		}
		out[i] = *sub
	}
	return out, nil
}

// loadBatch is how many responses one transaction of the loader stores.
const loadBatch = 10_000

// loadResponses stores n completed responses to the form shared as share, spread
// over the last 90 days, through store.LoadSubmissions (multi-row INSERTs) in
// transactions of loadBatch, several at once: PostgreSQL runs them in parallel,
// SQLite's one writer in turn while the next batch is being built.
func loadResponses(ctx context.Context, st *store.Store, share string, qs []question, n int) error {
	cached, err := st.FormByShareToken(ctx, share)
	if err != nil {
		return err
	}
	f := cached.Form
	sets, err := completed(f, qs)
	if err != nil {
		return err
	}
	now := time.Now().UTC()
	step := 90 * 24 * time.Hour / time.Duration(n)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var next atomic.Int64
	errc := make(chan error, loaders)
	for range loaders {
		go func() {
			for {
				first := int(next.Add(loadBatch) - loadBatch)
				if first >= n {
					errc <- nil
					return
				}
				if err := st.LoadSubmissions(ctx, f.ID, responses(f.ID, sets, first, min(loadBatch, n-first), now, step, n)); err != nil {
					cancel()
					errc <- err
					return
				}
			}
		}()
	}
	var first error
	for range loaders {
		if err := <-errc; err != nil && first == nil {
			first = err
		}
	}
	return first
}

// loaders is how many transactions loadResponses runs at once.
const loaders = 4

// responses builds count responses from number first on, the i-th of n
// completed (n-i)·step before now, with answers cycling through sets.
func responses(formID int64, sets []form.Submission, first, count int, now time.Time, step time.Duration, n int) []form.Submission {
	out := make([]form.Submission, count)
	for k := range out {
		i := first + k
		at := now.Add(-time.Duration(n-i) * step)
		set := sets[i%len(sets)]
		out[k] = form.Submission{ID: loadedID(now, i), FormID: formID, StartedAt: at.Add(-2 * time.Minute), UpdatedAt: at,
			CompletedAt: &at, Answers: set.Answers, Score: set.Score}
	}
	return out
}

// loadedID is the id of the i-th loaded response of a load started at now: in
// the order of i (so that a million of them are appended to the primary key
// index instead of scattered over it, which would make the load several times
// slower), unique across runs, and unguessable like the server's random ids.
func loadedID(now time.Time, i int) string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return fmt.Sprintf("%016x%08x%x", now.UnixNano(), i, b)
}
