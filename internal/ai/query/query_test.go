package query

import (
	"encoding/json"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"forma/internal/form"
)

// Question ids of the test form.
const (
	qRating    = 1
	qRecommend = 2
	qPlan      = 3
	qFeatures  = 4
	qVisits    = 5
	qStart     = 6
	qComment   = 7
	qTime      = 8
	qEmail     = 9
)

func at(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t
}

func fp(v float64) *float64 { return &v }

// testData is eight hand-made responses; the expectations below are worked out by
// hand from this table.
func testData() *Dataset {
	f := &form.Form{ID: 1, Title: "Feedback", Questions: []form.Question{
		{ID: qRating, Order: 1, Type: form.Rating, Text: "Rating"},
		{ID: qRecommend, Order: 2, Type: form.YesNo, Text: "Recommend?"},
		{ID: qPlan, Order: 3, Type: form.Select, Text: "Plan", Options: []string{"Free", "Pro", "Team"}},
		{ID: qFeatures, Order: 4, Type: form.MultiSelect, Text: "Features", Options: []string{"Reports", "API", "Mobile"}},
		{ID: qVisits, Order: 5, Type: form.Number, Text: "Visits"},
		{ID: qStart, Order: 6, Type: form.Date, Text: "Start date"},
		{ID: qComment, Order: 7, Type: form.Textarea, Text: "Comments"},
		{ID: qTime, Order: 8, Type: form.Time, Text: "Time"},
		{ID: qEmail, Order: 9, Type: form.Email, Text: "Email"},
	}}
	rs := []form.Submission{
		{ID: "r1", CompletedAt: new(at("2025-01-06T10:00:00Z")), Score: fp(10), Answers: map[int64]any{
			qRating: 5.0, qRecommend: true, qPlan: "Pro", qFeatures: []any{"Reports", "API"}, qVisits: 10.0,
			qStart: "2024-12-01", qComment: "Great product, love it", qTime: "09:30", qEmail: "a@example.com"}},
		{ID: "r2", CompletedAt: new(at("2025-01-07T12:00:00Z")), Score: fp(5), Answers: map[int64]any{
			qRating: 4.0, qRecommend: true, qPlan: "Free", qFeatures: []any{"Reports"}, qVisits: 3.0,
			qStart: "2025-01-02", qComment: "Good but slow", qTime: "14:00"}},
		{ID: "r3", CompletedAt: new(at("2025-01-15T08:00:00Z")), Answers: map[int64]any{
			qRating: 2.0, qRecommend: false, qPlan: "Free", qFeatures: []any{}, qVisits: 1.0,
			qStart: "2024-06-15", qComment: "Terrible support, very disappointed", qTime: "08:15"}},
		{ID: "r4", CompletedAt: new(at("2025-02-01T09:00:00Z")), Answers: map[int64]any{
			qRating: 3.0, qRecommend: false, qPlan: "Team", qFeatures: []any{"API", "Mobile"}, qVisits: 0.0,
			qComment: "  "}},
		{ID: "r5", CompletedAt: new(at("2025-02-10T18:00:00Z")), Answers: map[int64]any{
			qRating: 5.0, qRecommend: true, qPlan: "Pro", qFeatures: []any{"Mobile"}, qVisits: 7.0,
			qStart: "2025-01-20", qComment: "It is ok"}},
		{ID: "r6", CompletedAt: new(at("2025-03-03T07:00:00Z")), Answers: map[int64]any{
			qRating: 1.0, qRecommend: false, qFeatures: []any{"Reports", "Mobile"}, qVisits: 2.0,
			qStart: "2023-11-30"}},
		{ID: "r7", CompletedAt: new(at("2025-03-04T23:59:00Z")), Answers: map[int64]any{
			qRating: 4.0, qPlan: "pro", qFeatures: []string{"API", "Reports"}, qVisits: 5.5,
			qStart: "2025-02-28", qComment: "Love the API"}},
		{ID: "r8", CompletedAt: new(at("2025-03-31T10:00:00Z")), Answers: map[int64]any{
			qRecommend: true, qPlan: "Team", qComment: "Awful experience"}},
	}
	return &Dataset{Form: f, Responses: rs, Started: 10}
}

func run(t *testing.T, q Query) *Result {
	t.Helper()
	res, err := New(testData()).Run(q)
	if err != nil {
		t.Fatalf("%+v: %v", q, err)
	}
	return res
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func wantValue(t *testing.T, name string, res *Result, want float64) {
	t.Helper()
	if res.Value == nil || !near(*res.Value, want) {
		t.Errorf("%s: value %v, want %v", name, deref(res.Value), want)
	}
}

func deref(p *float64) any {
	if p == nil {
		return nil
	}
	return *p
}

func TestNumericMetrics(t *testing.T) {
	cases := []struct {
		metric   Metric
		question int64
		want     float64
		n        int
	}{
		{Mean, qRating, 24.0 / 7, 7}, // 5+4+2+3+5+1+4
		{Median, qRating, 4, 7},      // 1 2 3 [4] 4 5 5
		{Min, qRating, 1, 7},
		{Max, qRating, 5, 7},
		{Sum, qRating, 24, 7},
		{Mean, qVisits, 28.5 / 7, 7}, // 10+3+1+0+7+2+5.5
		{Median, qVisits, 3, 7},      // 0 1 2 [3] 5.5 7 10
		{Sum, qVisits, 28.5, 7},
		{Min, qVisits, 0, 7},
		{Max, qVisits, 10, 7},
	}
	for _, c := range cases {
		res := run(t, Query{Metric: c.metric, Question: c.question})
		wantValue(t, string(c.metric), res, c.want)
		if res.N != c.n || res.Matched != 8 || res.Total != 8 {
			t.Errorf("%s q%d: n=%d matched=%d total=%d", c.metric, c.question, res.N, res.Matched, res.Total)
		}
	}
	// Even count: ratings of Free and Pro (4 2 5 5 4) plus Team's 3 -> filtered to plan answered.
	res := run(t, Query{Metric: Median, Question: qRating, Filters: []Filter{{Question: qPlan, Op: IsNotEmpty}}})
	wantValue(t, "even median", res, 4) // 2 3 4 4 5 5 -> (4+4)/2
	res = run(t, Query{Metric: Median, Question: qVisits, Filters: []Filter{{Question: qPlan, Op: Equals, Value: "Free"}}})
	wantValue(t, "median of two", res, 2) // 3 and 1
	if res := run(t, Query{Metric: Mean, Question: qRating, Filters: []Filter{{Question: qPlan, Op: Equals, Value: "None"}}}); res.Value != nil || res.N != 0 {
		t.Errorf("mean of nothing: %+v", res)
	}
}

func TestDateExtremes(t *testing.T) {
	if res := run(t, Query{Metric: Min, Question: qStart}); res.Text != "2023-11-30" || res.N != 6 || res.Display != "2023-11-30" {
		t.Errorf("min date: %+v", res)
	}
	if res := run(t, Query{Metric: Max, Question: qStart}); res.Text != "2025-02-28" {
		t.Errorf("max date: %+v", res)
	}
	if res := run(t, Query{Metric: Max, Question: qTime}); res.Text != "14:00" || res.N != 3 {
		t.Errorf("max time: %+v", res)
	}
}

func TestCountAndPercent(t *testing.T) {
	wantValue(t, "count all", run(t, Query{Metric: Count}), 8)
	wantValue(t, "count answered", run(t, Query{Metric: Count, Question: qComment}), 6) // r4 blank, r6 none
	wantValue(t, "count empty selection", run(t, Query{Metric: Count, Question: qFeatures}), 6)
	res := run(t, Query{Metric: Percent, Match: []Filter{{Question: qRecommend, Op: Equals, Value: true}}})
	wantValue(t, "percent yes", res, 50) // r1 r2 r5 r8 of 8
	if res.N != 4 || res.Matched != 8 || res.Display != "50%" {
		t.Errorf("percent counts: %+v", res)
	}
	res = run(t, Query{Metric: Percent,
		Filters: []Filter{{Question: qRating, Op: GTE, Value: 4}},
		Match:   []Filter{{Question: qRecommend, Op: Equals, Value: "yes"}}})
	wantValue(t, "yes among 4+", res, 75) // r1 r2 r5 r7 -> r1 r2 r5
	if res.N != 3 || res.Matched != 4 {
		t.Errorf("percent among: %+v", res)
	}
	res = run(t, Query{Metric: Percent, Filters: []Filter{{Question: qPlan, Op: Equals, Value: "None"}},
		Match: []Filter{{Question: qRecommend, Op: Equals, Value: true}}})
	if res.Value != nil || res.Matched != 0 {
		t.Errorf("percent of nothing: %+v", res)
	}
}

func TestFilters(t *testing.T) {
	cases := []struct {
		name string
		f    Filter
		want []string
	}{
		{"rating gt", Filter{Question: qRating, Op: GT, Value: 3}, []string{"r1", "r2", "r5", "r7"}},
		{"rating gte", Filter{Question: qRating, Op: GTE, Value: 4.0}, []string{"r1", "r2", "r5", "r7"}},
		{"rating lt", Filter{Question: qRating, Op: LT, Value: 3}, []string{"r3", "r6"}},
		{"rating lte", Filter{Question: qRating, Op: LTE, Value: "3"}, []string{"r3", "r4", "r6"}},
		{"rating between", Filter{Question: qRating, Op: Between, Value: 2, To: 4}, []string{"r2", "r3", "r4", "r7"}},
		{"rating equals", Filter{Question: qRating, Op: Equals, Value: 5}, []string{"r1", "r5"}},
		{"rating not_equals", Filter{Question: qRating, Op: NotEquals, Value: 5}, []string{"r2", "r3", "r4", "r6", "r7"}},
		{"visits decimal", Filter{Question: qVisits, Op: GT, Value: 5}, []string{"r1", "r5", "r7"}},
		{"bool no", Filter{Question: qRecommend, Op: Equals, Value: "no"}, []string{"r3", "r4", "r6"}},
		{"bool false", Filter{Question: qRecommend, Op: Equals, Value: false}, []string{"r3", "r4", "r6"}},
		{"bool not true", Filter{Question: qRecommend, Op: NotEquals, Value: true}, []string{"r3", "r4", "r6"}},
		{"select case", Filter{Question: qPlan, Op: Equals, Value: "PRO"}, []string{"r1", "r5", "r7"}},
		{"select not", Filter{Question: qPlan, Op: NotEquals, Value: "Pro"}, []string{"r2", "r3", "r4", "r8"}},
		{"select contains", Filter{Question: qPlan, Op: Contains, Value: "ea"}, []string{"r4", "r8"}},
		{"multi member", Filter{Question: qFeatures, Op: Equals, Value: "reports"}, []string{"r1", "r2", "r6", "r7"}},
		{"multi contains", Filter{Question: qFeatures, Op: Contains, Value: "MOB"}, []string{"r4", "r5", "r6"}},
		{"multi not", Filter{Question: qFeatures, Op: NotEquals, Value: "Reports"}, []string{"r4", "r5"}},
		{"text contains", Filter{Question: qComment, Op: Contains, Value: "LOVE"}, []string{"r1", "r7"}},
		{"text equals", Filter{Question: qComment, Op: Equals, Value: "it is OK"}, []string{"r5"}},
		{"empty", Filter{Question: qPlan, Op: IsEmpty}, []string{"r6"}},
		{"blank is empty", Filter{Question: qComment, Op: IsEmpty}, []string{"r4", "r6"}},
		{"empty selection", Filter{Question: qFeatures, Op: IsEmpty}, []string{"r3", "r8"}},
		{"not empty", Filter{Question: qEmail, Op: IsNotEmpty}, []string{"r1"}},
		{"date before", Filter{Question: qStart, Op: Before, Value: "2025-01-01"}, []string{"r1", "r3", "r6"}},
		{"date after", Filter{Question: qStart, Op: After, Value: "2025-01-02"}, []string{"r5", "r7"}},
		{"date gte", Filter{Question: qStart, Op: GTE, Value: "2025-01-02"}, []string{"r2", "r5", "r7"}},
		{"date between", Filter{Question: qStart, Op: Between, Value: "2025-01-01", To: "2025-01-31"}, []string{"r2", "r5"}},
		{"date month", Filter{Question: qStart, Op: Contains, Value: "2025-01"}, []string{"r2", "r5"}},
		{"time before", Filter{Question: qTime, Op: Before, Value: "10:00"}, []string{"r1", "r3"}},
		{"submitted between", Filter{Field: FieldSubmittedAt, Op: Between, Value: "2025-01-01", To: "2025-01-31"}, []string{"r1", "r2", "r3"}},
		{"submitted after day", Filter{Field: FieldSubmittedAt, Op: After, Value: "2025-03-03"}, []string{"r7", "r8"}},
		{"submitted before", Filter{Field: FieldSubmittedAt, Op: Before, Value: "2025-02-01"}, []string{"r1", "r2", "r3"}},
		{"submitted lte day", Filter{Field: FieldSubmittedAt, Op: LTE, Value: "2025-03-04"}, []string{"r1", "r2", "r3", "r4", "r5", "r6", "r7"}},
		{"submitted on day", Filter{Field: FieldSubmittedAt, Op: Equals, Value: "2025-03-04"}, []string{"r7"}},
		{"submitted gt instant", Filter{Field: FieldSubmittedAt, Op: GT, Value: "2025-02-01T09:00:00Z"}, []string{"r5", "r6", "r7", "r8"}},
		{"submitted gte instant", Filter{Field: FieldSubmittedAt, Op: GTE, Value: "2025-02-01T09:00:00Z"}, []string{"r4", "r5", "r6", "r7", "r8"}},
		{"score", Filter{Field: FieldScore, Op: GTE, Value: 6}, []string{"r1"}},
		{"score empty", Filter{Field: FieldScore, Op: IsEmpty}, []string{"r3", "r4", "r5", "r6", "r7", "r8"}},
	}
	e := New(testData())
	for _, c := range cases {
		res, err := e.Run(Query{Metric: List, Question: qRating, Filters: []Filter{c.f}, Limit: 100})
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		p, _ := e.compile(c.f)
		var got []string
		for i, r := range e.ds.Responses {
			if p(i) {
				got = append(got, r.ID)
			}
		}
		if !slices.Equal(got, c.want) || res.Matched != len(c.want) {
			t.Errorf("%s: got %v (matched %d), want %v", c.name, got, res.Matched, c.want)
		}
	}
}

func TestHiddenFieldFilters(t *testing.T) {
	ds := testData()
	ds.Form.Settings.HiddenFields = []string{"utm_source", "visits"}
	ds.Responses[0].Hidden = form.HiddenValues{"utm_source": "Newsletter", "visits": "12"}
	ds.Responses[1].Hidden = form.HiddenValues{"utm_source": "ads", "visits": "3"}
	ds.Responses[4].Hidden = form.HiddenValues{"utm_source": "newsletter-may"}
	e := New(ds)
	for _, c := range []struct {
		name string
		f    Filter
		want int
	}{
		{"equals ignores case", Filter{HiddenField: "utm_source", Op: Equals, Value: "newsletter"}, 1},
		{"contains", Filter{HiddenField: "utm_source", Op: Contains, Value: "NEWS"}, 2},
		{"not equals needs a value", Filter{HiddenField: "utm_source", Op: NotEquals, Value: "ads"}, 2},
		{"numbers", Filter{HiddenField: "visits", Op: GT, Value: 5}, 1},
		{"empty", Filter{HiddenField: "visits", Op: IsEmpty}, 6},
		{"not empty", Filter{HiddenField: "utm_source", Op: IsNotEmpty}, 3},
	} {
		res, err := e.Run(Query{Metric: Count, Filters: []Filter{c.f}})
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		wantValue(t, c.name, res, float64(c.want))
	}
	if _, err := e.Run(Query{Metric: Count, Filters: []Filter{{HiddenField: "campaign", Op: IsEmpty}}}); err == nil ||
		!strings.Contains(err.Error(), "no hidden field") {
		t.Errorf("unknown hidden field: %v", err)
	}
	if !strings.Contains(string(e.Catalog()), `"hiddenFields":["utm_source","visits"]`) {
		t.Errorf("the catalog does not list the hidden fields: %s", e.Catalog())
	}
}

func TestFiltersAreANDedWithRange(t *testing.T) {
	res := run(t, Query{Metric: Count, From: "2025-02-01", To: "2025-03-03"})
	wantValue(t, "from-to", res, 3) // r4 r5 r6
	res = run(t, Query{Metric: Count, From: "2025-01-01", Filters: []Filter{
		{Question: qRecommend, Op: Equals, Value: true}, {Question: qFeatures, Op: Equals, Value: "Reports"}}})
	wantValue(t, "and", res, 2) // r1 r2
}

func TestDistribution(t *testing.T) {
	res := run(t, Query{Metric: Distribution, Question: qPlan})
	want := []Bucket{{Label: "Free", Count: 2, Percent: 25}, {Label: "Pro", Count: 3, Percent: 37.5}, {Label: "Team", Count: 2, Percent: 25}}
	if !slices.Equal(res.Buckets, want) || res.N != 7 {
		t.Errorf("plan: %+v", res)
	}
	// Multi-select: each chosen option counts, percentages of all 8 responses.
	res = run(t, Query{Metric: Distribution, Question: qFeatures})
	want = []Bucket{{Label: "Reports", Count: 4, Percent: 50}, {Label: "API", Count: 3, Percent: 37.5}, {Label: "Mobile", Count: 3, Percent: 37.5}}
	if !slices.Equal(res.Buckets, want) || res.N != 6 {
		t.Errorf("features: %+v", res)
	}
	res = run(t, Query{Metric: Distribution, Question: qRating})
	counts := []int{}
	for _, b := range res.Buckets {
		counts = append(counts, b.Count)
	}
	if !slices.Equal(counts, []int{1, 1, 1, 2, 2}) || res.Buckets[0].Label != "1" {
		t.Errorf("rating: %+v", res.Buckets)
	}
	res = run(t, Query{Metric: Distribution, Question: qRecommend})
	want = []Bucket{{Label: "Yes", Count: 4, Percent: 50}, {Label: "No", Count: 3, Percent: 37.5}}
	if !slices.Equal(res.Buckets, want) {
		t.Errorf("recommend: %+v", res.Buckets)
	}
	res = run(t, Query{Metric: Distribution, Question: qVisits, Filters: []Filter{{Question: qVisits, Op: LT, Value: 3}}})
	if len(res.Buckets) != 3 || res.Buckets[0].Label != "0" || res.Buckets[2].Label != "2" {
		t.Errorf("numbers ascending: %+v", res.Buckets)
	}
}

func TestTop(t *testing.T) {
	res := run(t, Query{Metric: Top, Question: qFeatures, Limit: 1})
	if len(res.Buckets) != 1 || res.Buckets[0] != (Bucket{Label: "Reports", Count: 4, Percent: 50}) {
		t.Errorf("top: %+v", res.Buckets)
	}
	res = run(t, Query{Metric: Top, Question: qFeatures, Order: "asc"})
	labels := []string{}
	for _, b := range res.Buckets {
		labels = append(labels, b.Label)
	}
	if !slices.Equal(labels, []string{"API", "Mobile", "Reports"}) {
		t.Errorf("least: %v", labels)
	}
	res = run(t, Query{Metric: Top, Question: qPlan})
	if res.Buckets[0].Label != "Pro" || res.Buckets[0].Count != 3 || res.Buckets[1].Label != "Free" {
		t.Errorf("top plan (r7 'pro' counts as Pro): %+v", res.Buckets)
	}
}

func TestList(t *testing.T) {
	res := run(t, Query{Metric: List, Question: qComment, Limit: 2})
	if res.N != 6 || len(res.Items) != 2 || res.Items[0].Text != "Awful experience" || res.Items[1].Response != "r7" {
		t.Errorf("list: %+v", res)
	}
	res = run(t, Query{Metric: List, Question: qFeatures, Filters: []Filter{{Question: qPlan, Op: Equals, Value: "Pro"}}})
	if len(res.Items) != 3 || res.Items[0].Text != "API, Reports" || res.Items[2].Text != "Reports, API" {
		t.Errorf("list selections: %+v", res.Items)
	}
}

func TestTrend(t *testing.T) {
	res := run(t, Query{Metric: Trend, Interval: Month})
	want := []Bucket{{Label: "2025-01", Count: 3, Percent: 37.5}, {Label: "2025-02", Count: 2, Percent: 25}, {Label: "2025-03", Count: 3, Percent: 37.5}}
	if !slices.Equal(res.Buckets, want) || res.N != 8 {
		t.Errorf("months: %+v", res.Buckets)
	}
	res = run(t, Query{Metric: Trend, Interval: Week})
	if len(res.Buckets) != 13 || res.Buckets[0].Label != "2025-01-06" || res.Buckets[0].Count != 2 ||
		res.Buckets[3].Label != "2025-01-27" || res.Buckets[3].Count != 1 || res.Buckets[8].Count != 2 || res.Buckets[12].Count != 1 {
		t.Errorf("weeks: %+v", res.Buckets)
	}
	if res := run(t, Query{Metric: Trend}); res.Interval != Week { // 84 days
		t.Errorf("default interval %q", res.Interval)
	}
	res = run(t, Query{Metric: Trend, Question: qRating, Interval: Month})
	if res.Buckets[0].Count != 3 || !near(*res.Buckets[0].Value, 11.0/3) || !near(*res.Buckets[1].Value, 4) ||
		res.Buckets[2].Count != 2 || !near(*res.Buckets[2].Value, 2.5) {
		t.Errorf("rating by month: %+v", res.Buckets)
	}
}

func TestGroupBy(t *testing.T) {
	res := run(t, Query{Metric: Mean, Question: qRating, GroupBy: qPlan})
	if len(res.Groups) != 3 {
		t.Fatalf("groups: %+v", res.Groups)
	}
	wantValue(t, "Free", &res.Groups[0].Result, 3)     // 4, 2
	wantValue(t, "Pro", &res.Groups[1].Result, 14.0/3) // 5, 5, 4
	wantValue(t, "Team", &res.Groups[2].Result, 3)     // 3 (r8 unrated)
	wantValue(t, "overall", res, 24.0/7)
	if res.Groups[2].Result.N != 1 || res.Groups[2].Result.Matched != 2 {
		t.Errorf("Team counts: %+v", res.Groups[2].Result)
	}
	res = run(t, Query{Metric: Count, GroupBy: qFeatures})
	got := []float64{}
	for _, g := range res.Groups {
		got = append(got, *g.Result.Value)
	}
	if !slices.Equal(got, []float64{4, 3, 3}) {
		t.Errorf("features groups: %v", got)
	}
	res = run(t, Query{Metric: Percent, GroupBy: qPlan, Match: []Filter{{Question: qRating, Op: GTE, Value: 4}}})
	for i, want := range []float64{50, 100, 0} {
		wantValue(t, res.Groups[i].Label, &res.Groups[i].Result, want)
	}
	res = run(t, Query{Metric: Mean, Question: qVisits, GroupBy: qRating})
	want := []struct {
		label string
		mean  float64
		n     int
	}{{"1", 2, 1}, {"2", 1, 1}, {"3", 0, 1}, {"4", 8.5 / 2, 2}, {"5", 17.0 / 2, 2}} // r6; r3; r4; r2+r7; r1+r5
	for i, w := range want {
		g := res.Groups[i]
		if g.Label != w.label || g.Result.N != w.n || !near(*g.Result.Value, w.mean) {
			t.Errorf("visits by rating %s: %+v", w.label, g)
		}
	}
	res = run(t, Query{Metric: Count, GroupBy: qRecommend})
	if res.Groups[0].Label != "Yes" || *res.Groups[0].Result.Value != 4 || *res.Groups[1].Result.Value != 3 {
		t.Errorf("recommend groups: %+v", res.Groups)
	}
}

func TestSentiment(t *testing.T) {
	res := run(t, Query{Metric: Sentiment, Question: qComment})
	texts := []string{"Great product, love it", "Good but slow", "Terrible support, very disappointed", "It is ok", "Love the API", "Awful experience"}
	sum, classes := 0.0, map[string]int{}
	for _, s := range texts {
		sum += SentimentScore(s)
		classes[SentimentClass(SentimentScore(s))]++
	}
	wantValue(t, "mean compound", res, sum/6)
	if res.N != 6 || res.Buckets[0].Count != classes[Positive] || res.Buckets[2].Count != classes[Negative] {
		t.Errorf("sentiment: %+v", res)
	}
	for _, s := range []string{"Great product, love it", "Love the API"} {
		if SentimentClass(SentimentScore(s)) != Positive {
			t.Errorf("%q not positive", s)
		}
	}
	for _, s := range []string{"Terrible support, very disappointed", "Awful experience"} {
		if SentimentClass(SentimentScore(s)) != Negative {
			t.Errorf("%q not negative", s)
		}
	}
	res = run(t, Query{Metric: List, Question: qComment, Filters: []Filter{{Question: qComment, Op: SentimentOp, Value: "negative"}}})
	if res.N != classes[Negative] || res.Items[0].Text != "Awful experience" {
		t.Errorf("negative comments: %+v", res)
	}
	if all := run(t, Query{Metric: Sentiment}); all.N != 6 {
		t.Errorf("all text questions: n=%d", all.N)
	}
}

func TestErrors(t *testing.T) {
	bad := []Query{
		{Metric: "avg"},
		{Metric: Mean, Question: 99},
		{Metric: Mean, Question: qPlan},
		{Metric: Mean},
		{Metric: Percent},
		{Metric: Count, GroupBy: qComment},
		{Metric: Count, Filters: []Filter{{Question: qRecommend, Op: GT, Value: true}}},
		{Metric: Count, Filters: []Filter{{Question: qStart, Op: After, Value: "March"}}},
		{Metric: Count, Filters: []Filter{{Question: qRating, Op: Equals, Value: "five"}}},
		{Metric: Count, Filters: []Filter{{Field: "when", Op: Equals, Value: "x"}}},
		{Metric: Count, Filters: []Filter{{Question: qComment, Op: SentimentOp, Value: "angry"}}},
		{Metric: Trend, Interval: "year"},
		{Metric: Sentiment, Question: qRating},
	}
	e := New(testData())
	for _, q := range bad {
		if _, err := e.Run(q); err == nil {
			t.Errorf("%+v: no error", q)
		}
	}
}

func TestRunJSON(t *testing.T) {
	e := New(testData())
	out, err := e.RunJSON(json.RawMessage(`{"metric":"percent","filters":[{"question":1,"op":"gte","value":4}],"match":[{"question":2,"op":"equals","value":true}]}`))
	if err != nil {
		t.Fatal(err)
	}
	var res Result
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatal(err)
	}
	if *res.Value != 75 || res.N != 3 || res.Matched != 4 || res.Display != "75%" {
		t.Errorf("RunJSON: %s", out)
	}
	if _, err := e.RunJSON(json.RawMessage(`{"metric":"count","bogus":1}`)); err == nil {
		t.Error("unknown field accepted")
	}
	var schema map[string]any
	if err := json.Unmarshal(Schema(), &schema); err != nil {
		t.Fatalf("schema: %v", err)
	}
	for _, m := range Metrics {
		if !strings.Contains(string(Schema()), `"`+string(m)+`"`) {
			t.Errorf("schema lacks metric %s", m)
		}
	}
	for _, op := range Ops {
		if !strings.Contains(string(Schema()), `"`+string(op)+`"`) {
			t.Errorf("schema lacks op %s", op)
		}
	}
	var cat struct {
		Responses int
		Questions []QuestionInfo
	}
	if err := json.Unmarshal(e.Catalog(), &cat); err != nil || cat.Responses != 8 || len(cat.Questions) != 9 {
		t.Errorf("catalog: %s", e.Catalog())
	}
}

func TestCompletion(t *testing.T) {
	c := New(testData()).Completion()
	if c.Completed != 8 || c.Started != 10 || c.Rate != 80 {
		t.Errorf("completion: %+v", c)
	}
	if c := New(&Dataset{Form: &form.Form{}}).Completion(); c.Rate != 0 {
		t.Errorf("none started: %+v", c)
	}
}

func TestFormat(t *testing.T) {
	cases := map[float64]string{4: "4", 3.456: "3.46", 41.5: "41.5", 100: "100", 0: "0", -0.001: "0",
		100.0 / 3: "33.33", 200.0 / 3: "66.67", 24.0 / 7: "3.43", -2.5: "-2.5", 1234567: "1234567"}
	for v, want := range cases {
		if got := Format(v); got != want {
			t.Errorf("Format(%v) = %q, want %q", v, got, want)
		}
	}
	if FormatPercent(37.5) != "37.5%" {
		t.Error(FormatPercent(37.5))
	}
}

func TestFormatValueAndPeriod(t *testing.T) {
	usd := &form.Question{Type: form.Currency, Currency: &form.CurrencyConfig{Currency: "USD"}}
	for _, c := range []struct {
		q    *form.Question
		want string
	}{
		{&form.Question{Type: form.Rating}, "4.25 out of 5"}, {usd, "4.25 USD"},
		{&form.Question{Type: form.Currency}, "4.25"}, {&form.Question{Type: form.Number}, "4.25"},
	} {
		if got := FormatValue(c.q, 4.25); got != c.want {
			t.Errorf("FormatValue(%s) = %q, want %q", c.q.Type, got, c.want)
		}
	}
	for _, c := range [][3]string{
		{"2025-03", Month, "March 2025"}, {"2025-03-03", Week, "week of 2025-03-03"},
		{"2025-03-05", Day, "2025-03-05"}, {"spring", Month, "spring"},
	} {
		if got := PeriodName(c[0], c[1]); got != c[2] {
			t.Errorf("PeriodName(%q, %q) = %q, want %q", c[0], c[1], got, c[2])
		}
	}
}

// TestNewestFirst: responses stored oldest first are ordered in one pass exactly
// as a sort orders any others: newest first, equal times in index order.
func TestNewestFirst(t *testing.T) {
	base := time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)
	at := func(minutes ...int) []form.Submission {
		rs := make([]form.Submission, len(minutes))
		for i, m := range minutes {
			rs[i].CompletedAt = new(base.Add(time.Duration(m) * time.Minute))
		}
		return rs
	}
	for _, rs := range [][]form.Submission{at(), at(1), at(1, 2, 2, 3, 5, 5, 5), at(4, 4, 4), at(3, 1, 2, 2, 0)} {
		if got, want := newestFirst(rs), sortNewest(rs); !slices.Equal(got, want) {
			t.Errorf("newestFirst = %v, want %v", got, want)
		}
	}
}
