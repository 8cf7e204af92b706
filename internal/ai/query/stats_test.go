package query

import (
	"encoding/json"
	"math"
	"testing"
)

func TestSpreadMetrics(t *testing.T) {
	// Ratings 1 2 3 4 4 5 5: mean 24/7; squared deviations sum 96/7 → sample variance 16/7.
	wantValue(t, "stddev", run(t, Query{Metric: StdDev, Question: qRating}), math.Sqrt(16.0/7))
	// Visits sorted 0 1 2 3 5.5 7 10: the 90th percentile is at rank 5.4 → 7 + 0.4×3.
	wantValue(t, "p90", run(t, Query{Metric: Percentile, Question: qVisits, Percentile: 90}), 8.2)
	wantValue(t, "p50", run(t, Query{Metric: Percentile, Question: qVisits, Percentile: 50}), 3)
	wantValue(t, "p100", run(t, Query{Metric: Percentile, Question: qVisits, Percentile: 100}), 10)
	one := run(t, Query{Metric: StdDev, Question: qRating, Filters: []Filter{{Question: qPlan, Op: Equals, Value: "Team"}}})
	if one.Value != nil || one.N != 1 {
		t.Errorf("stddev of one answer: %+v", one)
	}
	for _, q := range []Query{{Metric: Percentile, Question: qVisits}, {Metric: Percentile, Question: qVisits, Percentile: 101},
		{Metric: StdDev, Question: qPlan}, {Metric: StdDev}} {
		if _, err := New(testData()).Run(q); err == nil {
			t.Errorf("%+v: no error", q)
		}
	}
}

func TestMode(t *testing.T) {
	// Ratings: 4 and 5 are given twice each.
	res := run(t, Query{Metric: Mode, Question: qRating})
	if len(res.Buckets) != 2 || res.Buckets[0].Count != 2 || res.Buckets[1].Count != 2 || res.N != 7 {
		t.Fatalf("mode of ratings: %+v", res.Buckets)
	}
	// Plans: Pro (with "pro") three times.
	res = run(t, Query{Metric: Mode, Question: qPlan})
	if len(res.Buckets) != 1 || res.Buckets[0].Label != "Pro" || res.Buckets[0].Count != 3 {
		t.Errorf("mode of plans: %+v", res.Buckets)
	}
}

func TestWords(t *testing.T) {
	// "love" is in two comments, every other word in one; "it" and "the" are stop words.
	res := run(t, Query{Metric: Words, Question: qComment, Limit: 2})
	if len(res.Buckets) != 2 || res.Buckets[0].Label != "love" || res.Buckets[0].Count != 2 || res.N != 6 {
		t.Errorf("words: n=%d %+v", res.N, res.Buckets)
	}
}

func TestInFilter(t *testing.T) {
	// Free (r2, r3) or Team (r4, r8).
	res := run(t, Query{Metric: Count, Filters: []Filter{{Question: qPlan, Op: In, Value: []any{"Free", "Team"}}}})
	wantValue(t, "free or team", res, 4)
	// Multi-select: chose Mobile (r4, r5, r6) or API (r1, r4, r7).
	res = run(t, Query{Metric: Count, Filters: []Filter{{Question: qFeatures, Op: In, Value: []any{"Mobile", "API"}}}})
	wantValue(t, "mobile or api", res, 5)
	raw, err := New(testData()).RunJSON(json.RawMessage(`{"metric":"count","filters":[{"question":3,"op":"in","value":["Pro"]}]}`))
	if err != nil || !json.Valid(raw) {
		t.Fatalf("in through JSON: %v", err)
	}
	var out Result
	json.Unmarshal(raw, &out)
	if out.Value == nil || *out.Value != 3 {
		t.Errorf("in through JSON: %s", raw)
	}
	if _, err := New(testData()).Run(Query{Metric: Count, Filters: []Filter{{Question: qPlan, Op: In, Value: "Free"}}}); err == nil {
		t.Error("in without a list: no error")
	}
}
