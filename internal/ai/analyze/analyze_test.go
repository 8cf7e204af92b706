package analyze_test

import (
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"forma/internal/ai"
	"forma/internal/ai/aitest"
	"forma/internal/ai/analyze"
	"forma/internal/ai/query"
	"forma/internal/form"
)

// anaDataset is six hand-made responses to a café feedback form; the expected
// figures in TestAnalyticsFigures are worked out by hand from this table.
//
//	id  submitted         rating  back  branch  comment                          email
//	r1  2025-03-10 09:00  5       yes   North   Wonderful staff, great coffee
//	r2  2025-03-09 18:00  4       yes   North
//	r3  2025-03-05 12:00  2       no    South   Terrible service and cold food   yes
//	r4  2025-02-20 12:00  1       no    South   Awful, never again
//	r5  2025-02-10 12:00  3       yes   -
//	r6  2025-01-15 12:00  5       yes   North   Great experience
func anaDataset() *query.Dataset {
	f := &form.Form{Title: "Café feedback", Questions: []form.Question{
		{ID: 1, Order: 1, Type: form.Rating, Text: "How satisfied are you?", Required: true},
		{ID: 2, Order: 2, Type: form.YesNo, Text: "Would you come back?", Required: true},
		{ID: 3, Order: 3, Type: form.Select, Text: "Which branch did you visit?", Options: []string{"North", "South"}},
		{ID: 4, Order: 4, Type: form.Textarea, Text: "Any comments?"},
		{ID: 5, Order: 5, Type: form.Email, Text: "Email"},
	}}
	at := func(s string) time.Time { t, _ := time.Parse("2006-01-02 15:04", s); return t }
	r := func(id, when string, rating float64, back bool, branch, comment, email string) form.Submission {
		a := map[int64]any{1: rating, 2: back}
		for k, v := range map[int64]string{3: branch, 4: comment, 5: email} {
			if v != "" {
				a[k] = v
			}
		}
		return form.Submission{ID: id, CompletedAt: new(at(when)), Answers: a}
	}
	return &query.Dataset{Form: f, Started: 8, Responses: []form.Submission{
		r("r1", "2025-03-10 09:00", 5, true, "North", "Wonderful staff, great coffee", ""),
		r("r2", "2025-03-09 18:00", 4, true, "North", "", ""),
		r("r3", "2025-03-05 12:00", 2, false, "South", "Terrible service and cold food", "x@example.com"),
		r("r4", "2025-02-20 12:00", 1, false, "South", "Awful, never again", ""),
		r("r5", "2025-02-10 12:00", 3, true, "", "", ""),
		r("r6", "2025-01-15 12:00", 5, true, "North", "Great experience", ""),
	}}
}

var anaNow = time.Date(2025, 3, 10, 12, 0, 0, 0, time.UTC) // a Monday

func TestAnalyticsFigures(t *testing.T) {
	a := analyze.Dataset(anaDataset(), anaNow)
	if a.TotalResponses != 6 || a.CompletionRate != 75 { // 6 of 8 started
		t.Errorf("total %d, completion %v", a.TotalResponses, a.CompletionRate)
	}
	sum := 0.0
	for _, s := range []string{"Wonderful staff, great coffee", "Terrible service and cold food", "Awful, never again", "Great experience"} {
		sum += aitest.Compound(s)
	}
	wantMetrics := map[string]string{
		"responseRate":       "75%",
		"topAnswer":          "Yes (66.67%) — “Would you come back?”", // 4 of 6; answered by all 6, the branch by 5
		"sentiment":          query.SentimentClass(sum/4) + " (" + aitest.Fmt(sum/4) + ")",
		"averageRating":      "3.33 / 5 (6 ratings)", // 20 / 6
		"responsesLast7Days": "3",                    // 2025-03-04 to 2025-03-10: r1 r2 r3
		"mostRecentResponse": "2025-03-10T09:00:00Z",
		"firstResponse":      "2025-01-15T12:00:00Z",
		"startedSessions":    "8",
	}
	if !reflect.DeepEqual(a.KeyMetrics, wantMetrics) {
		t.Errorf("key metrics:\n got %v\nwant %v", a.KeyMetrics, wantMetrics)
	}
	wantInsights := []string{
		// 20/6 = 3.33; median of 1 2 3 4 5 5 = 3.5; r1 r2 r6 rated 4 or 5 = 3/6
		"“How satisfied are you?”: average 3.33 out of 5, median 3.5 (6 ratings); 50% of responses rated it 4 or 5.",
		"“Would you come back?”: Yes leads; answers: Yes 66.67% (4), No 33.33% (2).",
		// shares of all 6 responses; r5 skipped the branch
		"“Which branch did you visit?”: North leads; answers: North 50% (3), South 33.33% (2).",
		"“Email”: answered in 1 of 6 responses (16.67%).",
		// last 30 days = 2025-02-09..2025-03-10: r1-r5; the 30 before: r6
		"5 responses arrived in the last 30 days (2025-02-09 to 2025-03-10), up from the 1 of the 30 days before.",
		// weeks from Monday 2025-01-13: r3 (Wed) and r2 (Sun) share the week of 2025-03-03
		"The busiest week was the week of 2025-03-03, with 2 responses.",
		"6 of 8 started sessions were completed (75%).",
		"The least answered question is “Email”: 16.67% of responses answer it (1 of 6).",
	}
	for _, w := range wantInsights {
		if !slices.Contains(a.Insights, w) {
			t.Errorf("missing insight %q in\n%s", w, strings.Join(a.Insights, "\n"))
		}
	}
	comments := "“Any comments?”: 4 written answers, 2 positive, 0 neutral and 2 negative"
	if !strings.Contains(strings.Join(a.Insights, "\n"), comments) {
		t.Errorf("missing %q", comments)
	}
	wantAdvice := []string{
		"With only 6 responses the figures can change a lot: share the form more widely before drawing conclusions.",
		"Only 16.67% of responses answer “Email”: reword it, explain why it is asked, or drop it.",
		// r3 and r4 rated 1 or 2
		"The average answer to “How satisfied are you?” is 3.33 out of 5: follow up on the 2 responses that rated it 1 or 2 to find the causes.",
		"50% of written answers are negative (2 of 4): read them for recurring problems and answer the most common ones.",
	}
	if !reflect.DeepEqual(a.Recommendations, wantAdvice) {
		t.Errorf("recommendations:\n got %q\nwant %q", a.Recommendations, wantAdvice)
	}
	for _, w := range []string{"6 responses from 8 started sessions (75% completed)", "3.33 out of 5 (6 ratings)", "Yes (66.67% of responses)"} {
		if !strings.Contains(a.Summary, w) {
			t.Errorf("summary lacks %q: %s", w, a.Summary)
		}
	}
	if b := analyze.Dataset(anaDataset(), anaNow); !reflect.DeepEqual(a, b) {
		t.Error("Dataset is not deterministic")
	}
}

func TestAnalyticsEmpty(t *testing.T) {
	ds := anaDataset()
	ds.Responses, ds.Started = nil, 0
	a := analyze.Dataset(ds, anaNow)
	if a.TotalResponses != 0 || a.CompletionRate != 0 || len(a.Recommendations) == 0 || a.Summary == "" {
		t.Errorf("empty: %+v", a)
	}
	for _, k := range []string{ai.MetricResponseRate, ai.MetricTopAnswer, ai.MetricSentiment} {
		if a.KeyMetrics[k] != "n/a" {
			t.Errorf("%s = %q", k, a.KeyMetrics[k])
		}
	}
	ds.Started = 4
	if a := analyze.Dataset(ds, anaNow); a.KeyMetrics[ai.MetricResponseRate] != "0%" {
		t.Errorf("started but none completed: %q", a.KeyMetrics[ai.MetricResponseRate])
	}
	if a := analyze.Dataset(nil, anaNow); a.TotalResponses != 0 || a.KeyMetrics[ai.MetricTopAnswer] != "n/a" {
		t.Errorf("nil dataset: %+v", a)
	}
}

func TestAnalyticsNumbersComeFromData(t *testing.T) {
	// Every insight of the generated data set names only figures the chat suite's
	// plain code also finds; spot-check the leading ones.
	rows := aitest.Generate(500, 2025)
	a := analyze.Dataset(aitest.Dataset(rows), aitest.Now)
	mean := aitest.Fmt(aitest.Mean(aitest.Ratings(rows)))
	if !strings.Contains(a.KeyMetrics["averageRating"], mean) || !strings.Contains(a.Summary, mean) {
		t.Errorf("average rating %s missing: %v / %s", mean, a.KeyMetrics, a.Summary)
	}
	if a.KeyMetrics[ai.MetricResponseRate] != aitest.Fmt(500.0/562*100)+"%" {
		t.Errorf("response rate %q", a.KeyMetrics[ai.MetricResponseRate])
	}
}

func BenchmarkAnalytics100k(b *testing.B) {
	ds := aitest.Big()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if a := analyze.Dataset(ds, aitest.Now); a.TotalResponses != 100_000 {
			b.Fatal(a.TotalResponses)
		}
	}
}

// BenchmarkAnalytics100kFirst analyses 100,000 responses with a new engine every
// time: the first analysis of a freshly loaded dataset, which works out the
// engine's columns too.
func BenchmarkAnalytics100kFirst(b *testing.B) {
	big := aitest.Big()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		ds := &query.Dataset{Form: big.Form, Responses: big.Responses, Started: big.Started}
		if a := analyze.Dataset(ds, aitest.Now); a.TotalResponses != 100_000 {
			b.Fatal(a.TotalResponses)
		}
	}
}

// TestFollowingDataset: a dataset that grew from a kept one (query.Following),
// whose engine starts from the kept engine's columns and sentiment scores, is
// analysed exactly as the same responses loaded afresh.
func TestFollowingDataset(t *testing.T) {
	all := aitest.Dataset(aitest.Generate(500, 2025))
	kept := &query.Dataset{Form: all.Form, Started: 440, Responses: all.Responses[:400:400]}
	analyze.Dataset(kept, aitest.Now) // reads the kept engine's columns and scores
	grown := query.Following(kept, all.Form, all.Started, all.Responses)
	if got, want := analyze.Dataset(grown, aitest.Now), analyze.Dataset(all, aitest.Now); !reflect.DeepEqual(got, want) {
		t.Errorf("following dataset:\n%+v\nloaded afresh:\n%+v", got, want)
	}
}
