package chat

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"forma/internal/ai"
	"forma/internal/ai/aitest"
)

// The chat quality suite: questions a user would ask about the generated feedback
// form (testdata/chat_questions.json), with expected numbers computed here by plain
// code over the generated rows — never through the query engine. A reply is correct
// when every expected number (and label) appears in it and no other percentage or
// decimal contradicts them.

// fbCase is one question, or a chain of questions asked in one conversation.
type fbCase struct {
	ID    string   `json:"id"`
	Ask   string   `json:"ask"`
	Want  string   `json:"want"`
	Args  []any    `json:"args"`
	Chain []fbCase `json:"chain"`
}

// fbWant is one expected figure: kind "n" (a count), "num" (a decimal figure), "pct"
// (a percentage), "text" (a label or quoted answer) or "refuse".
type fbWant struct {
	kind string
	v    float64
	s    string
}

func fbN(v int) fbWant       { return fbWant{kind: "n", v: float64(v)} }
func fbNum(v float64) fbWant { return fbWant{kind: "num", v: v} }
func fbPct(v float64) fbWant { return fbWant{kind: "pct", v: v} }
func fbText(s string) fbWant { return fbWant{kind: "text", s: s} }
func fbShare(part, whole int) fbWant {
	return fbPct(float64(part) / float64(whole) * 100)
}

// --- plain helpers over rows ---

func fbWhere(rows []aitest.Row, keep func(aitest.Row) bool) []aitest.Row {
	var out []aitest.Row
	for _, r := range rows {
		if keep(r) {
			out = append(out, r)
		}
	}
	return out
}

func fbMedian(vals []float64) float64 {
	s := slices.Clone(vals)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func fbSpends(rows []aitest.Row) []float64 {
	var out []float64
	for _, r := range rows {
		out = append(out, r.Spend)
	}
	return out
}

func fbEases(rows []aitest.Row) []float64 {
	var out []float64
	for _, r := range rows {
		out = append(out, float64(r.Ease))
	}
	return out
}

func fbCompare(op string, a, b float64) bool {
	switch op {
	case "eq":
		return a == b
	case "gt":
		return a > b
	case "gte":
		return a >= b
	case "lt":
		return a < b
	}
	return a <= b
}

func fbUses(r aitest.Row, feature string) bool { return slices.Contains(r.Features, feature) }

func fbDay(s string) time.Time {
	t, err := time.Parse("2006-01-02", s)
	if err != nil {
		panic(err)
	}
	return t
}

func fbStr(args []any, i int) string     { return args[i].(string) }
func fbNumArg(args []any, i int) float64 { return args[i].(float64) }

// fbTopLabels returns the labels with the highest (or lowest) count and that count.
func fbTopLabels(labels []string, count func(string) int, least bool) ([]string, int) {
	best := count(labels[0])
	for _, l := range labels {
		c := count(l)
		if (!least && c > best) || (least && c < best) {
			best = c
		}
	}
	var out []string
	for _, l := range labels {
		if count(l) == best {
			out = append(out, l)
		}
	}
	return out, best
}

var (
	fbPlans    = []string{"Free", "Starter", "Pro", "Enterprise"}
	fbHeardOpt = []string{"Search engine", "Social media", "Friend or colleague", "Advertisement", "Other"}
	fbFeatOpt  = []string{"Dashboard", "Reports", "Integrations", "Mobile app", "API"}
)

// fbWants maps the "want" names of the JSON to the code computing the expectation.
var fbWants = map[string]func(rows []aitest.Row, args []any) []fbWant{
	"countAll":     func(rows []aitest.Row, _ []any) []fbWant { return []fbWant{fbN(len(rows))} },
	"meanRating":   func(rows []aitest.Row, _ []any) []fbWant { return []fbWant{fbNum(aitest.Mean(aitest.Ratings(rows)))} },
	"medianRating": func(rows []aitest.Row, _ []any) []fbWant { return []fbWant{fbNum(fbMedian(aitest.Ratings(rows)))} },
	"countRating": func(rows []aitest.Row, a []any) []fbWant {
		return []fbWant{fbN(len(fbWhere(rows, func(r aitest.Row) bool { return fbCompare(fbStr(a, 0), float64(r.Rating), fbNumArg(a, 1)) })))}
	},
	"pctRating": func(rows []aitest.Row, a []any) []fbWant {
		n := len(fbWhere(rows, func(r aitest.Row) bool { return fbCompare(fbStr(a, 0), float64(r.Rating), fbNumArg(a, 1)) }))
		return []fbWant{fbShare(n, len(rows)), fbN(n)}
	},
	"pctRecommend": func(rows []aitest.Row, a []any) []fbWant {
		n := len(fbWhere(rows, func(r aitest.Row) bool { return r.Recommend == a[0].(bool) }))
		return []fbWant{fbShare(n, len(rows)), fbN(n)}
	},
	"countRecommend": func(rows []aitest.Row, a []any) []fbWant {
		return []fbWant{fbN(len(fbWhere(rows, func(r aitest.Row) bool { return r.Recommend == a[0].(bool) })))}
	},
	"topHeard": func(rows []aitest.Row, a []any) []fbWant {
		if fbStr(a, 0) == "5" {
			rows = fbWhere(rows, func(r aitest.Row) bool { return r.Rating == 5 })
		}
		labels, n := fbTopLabels(fbHeardOpt, func(l string) int {
			return len(fbWhere(rows, func(r aitest.Row) bool { return r.Heard == l }))
		}, false)
		return append(fbTexts(labels), fbN(n))
	},
	"distPlan": func(rows []aitest.Row, _ []any) []fbWant {
		var out []fbWant
		for _, p := range fbPlans {
			n := len(fbWhere(rows, func(r aitest.Row) bool { return r.Plan == p }))
			out = append(out, fbText(p), fbN(n), fbShare(n, len(rows)))
		}
		return out
	},
	"topFeature":   func(rows []aitest.Row, _ []any) []fbWant { return fbFeatureRank(rows, false) },
	"leastFeature": func(rows []aitest.Row, _ []any) []fbWant { return fbFeatureRank(rows, true) },
	"pctFeature": func(rows []aitest.Row, a []any) []fbWant {
		n := len(fbWhere(rows, func(r aitest.Row) bool { return fbUses(r, fbStr(a, 0)) }))
		return []fbWant{fbShare(n, len(rows)), fbN(n)}
	},
	"countFeature": func(rows []aitest.Row, a []any) []fbWant {
		return []fbWant{fbN(len(fbWhere(rows, func(r aitest.Row) bool { return fbUses(r, fbStr(a, 0)) })))}
	},
	"meanSpend": func(rows []aitest.Row, a []any) []fbWant {
		switch fbStr(a, 0) {
		case "recommend":
			rows = fbWhere(rows, func(r aitest.Row) bool { return r.Recommend })
		case "api-recommend":
			rows = fbWhere(rows, func(r aitest.Row) bool { return r.Recommend && fbUses(r, "API") })
		}
		return []fbWant{fbNum(aitest.Mean(fbSpends(rows)))}
	},
	"sumSpend": func(rows []aitest.Row, _ []any) []fbWant {
		sum := 0.0
		for _, r := range rows {
			sum += r.Spend
		}
		return []fbWant{fbNum(sum)}
	},
	"maxSpend":    func(rows []aitest.Row, _ []any) []fbWant { return []fbWant{fbNum(slices.Max(fbSpends(rows)))} },
	"minSpend":    func(rows []aitest.Row, _ []any) []fbWant { return []fbWant{fbNum(slices.Min(fbSpends(rows)))} },
	"medianSpend": func(rows []aitest.Row, _ []any) []fbWant { return []fbWant{fbNum(fbMedian(fbSpends(rows)))} },
	"medianSpendPlan": func(rows []aitest.Row, a []any) []fbWant {
		return []fbWant{fbNum(fbMedian(fbSpends(fbWhere(rows, func(r aitest.Row) bool { return r.Plan == fbStr(a, 0) }))))}
	},
	"meanSupport": func(rows []aitest.Row, _ []any) []fbWant {
		var vals []float64
		for _, r := range rows {
			if r.Support >= 0 {
				vals = append(vals, float64(r.Support))
			}
		}
		return []fbWant{fbNum(aitest.Mean(vals))}
	},
	"meanEase": func(rows []aitest.Row, a []any) []fbWant {
		if fbStr(a, 0) == "low" {
			rows = fbWhere(rows, func(r aitest.Row) bool { return r.Rating <= 2 })
		}
		return []fbWant{fbNum(aitest.Mean(fbEases(rows)))}
	},
	"countSupport": func(rows []aitest.Row, a []any) []fbWant {
		return []fbWant{fbN(len(fbWhere(rows, func(r aitest.Row) bool {
			return r.Support >= 0 && fbCompare(fbStr(a, 0), float64(r.Support), fbNumArg(a, 1))
		})))}
	},
	"meanRatingPlan": func(rows []aitest.Row, a []any) []fbWant {
		return []fbWant{fbNum(aitest.Mean(aitest.Ratings(fbWhere(rows, func(r aitest.Row) bool { return r.Plan == fbStr(a, 0) }))))}
	},
	"pctRecommendAmongRating": func(rows []aitest.Row, a []any) []fbWant {
		base := fbWhere(rows, func(r aitest.Row) bool { return fbCompare(fbStr(a, 0), float64(r.Rating), fbNumArg(a, 1)) })
		n := len(fbWhere(base, func(r aitest.Row) bool { return r.Recommend }))
		return []fbWant{fbShare(n, len(base)), fbN(n)}
	},
	"countPlanFeature": func(rows []aitest.Row, a []any) []fbWant {
		return []fbWant{fbN(len(fbWhere(rows, func(r aitest.Row) bool { return r.Plan == fbStr(a, 0) && fbUses(r, fbStr(a, 1)) })))}
	},
	"meanRatingByPlan": func(rows []aitest.Row, a []any) []fbWant {
		plans := fbPlans
		if len(a) > 0 {
			plans = []string{fbStr(a, 0), fbStr(a, 1)}
		}
		var out []fbWant
		for _, p := range plans {
			out = append(out, fbText(p), fbNum(aitest.Mean(aitest.Ratings(fbWhere(rows, func(r aitest.Row) bool { return r.Plan == p })))))
		}
		return out
	},
	"meanSpendByPlan": func(rows []aitest.Row, _ []any) []fbWant {
		var out []fbWant
		for _, p := range fbPlans {
			out = append(out, fbText(p), fbNum(aitest.Mean(fbSpends(fbWhere(rows, func(r aitest.Row) bool { return r.Plan == p })))))
		}
		return out
	},
	"meanEaseByPlan": func(rows []aitest.Row, _ []any) []fbWant {
		var out []fbWant
		for _, p := range fbPlans {
			out = append(out, fbText(p), fbNum(aitest.Mean(fbEases(fbWhere(rows, func(r aitest.Row) bool { return r.Plan == p })))))
		}
		return out
	},
	"pctPlanAmongHeard": func(rows []aitest.Row, a []any) []fbWant {
		base := fbWhere(rows, func(r aitest.Row) bool { return r.Heard == fbStr(a, 1) })
		return []fbWant{fbShare(len(fbWhere(base, func(r aitest.Row) bool { return r.Plan == fbStr(a, 0) })), len(base))}
	},
	"countBetween": func(rows []aitest.Row, a []any) []fbWant {
		from, to := fbDay(fbStr(a, 0)), fbDay(fbStr(a, 1)).AddDate(0, 0, 1)
		return []fbWant{fbN(len(fbWhere(rows, func(r aitest.Row) bool { return !r.At.Before(from) && r.At.Before(to) })))}
	},
	"meanRatingBetween": func(rows []aitest.Row, a []any) []fbWant {
		from, to := fbDay(fbStr(a, 0)), fbDay(fbStr(a, 1)).AddDate(0, 0, 1)
		return []fbWant{fbNum(aitest.Mean(aitest.Ratings(fbWhere(rows, func(r aitest.Row) bool { return !r.At.Before(from) && r.At.Before(to) }))))}
	},
	"recentComments": fbRecentComments,
	"sentiment":      fbSentiment,
	"countNegative": func(rows []aitest.Row, _ []any) []fbWant {
		return []fbWant{fbN(len(fbWhere(rows, func(r aitest.Row) bool { return r.Comment != "" && aitest.Compound(r.Comment) <= -0.05 })))}
	},
	"countComments": func(rows []aitest.Row, a []any) []fbWant {
		return []fbWant{fbN(len(fbWhere(rows, func(r aitest.Row) bool {
			return r.Comment != "" && (fbStr(a, 0) != "no" || !r.Recommend)
		})))}
	},
	"countEmails": func(rows []aitest.Row, _ []any) []fbWant {
		return []fbWant{fbN(len(fbWhere(rows, func(r aitest.Row) bool { return r.Email != "" })))}
	},
	"countPerMonth": func(rows []aitest.Row, _ []any) []fbWant {
		var out []fbWant
		for m := time.January; m <= time.July; m++ {
			out = append(out, fbN(len(fbWhere(rows, func(r aitest.Row) bool { return r.At.Month() == m }))))
		}
		return out
	},
	"meanRatingPerMonth": func(rows []aitest.Row, _ []any) []fbWant {
		var out []fbWant
		for m := time.January; m <= time.July; m++ {
			out = append(out, fbNum(aitest.Mean(aitest.Ratings(fbWhere(rows, func(r aitest.Row) bool { return r.At.Month() == m })))))
		}
		return out
	},
	"countStartBetween": func(rows []aitest.Row, a []any) []fbWant {
		return []fbWant{fbN(len(fbWhere(rows, func(r aitest.Row) bool {
			return r.Start != "" && r.Start >= fbStr(a, 0) && r.Start <= fbStr(a, 1)
		})))}
	},
	"pctRecommendPlan": func(rows []aitest.Row, a []any) []fbWant {
		base := fbWhere(rows, func(r aitest.Row) bool { return r.Plan == fbStr(a, 0) })
		return []fbWant{fbShare(len(fbWhere(base, func(r aitest.Row) bool { return r.Recommend })), len(base))}
	},
	"countHeard": func(rows []aitest.Row, a []any) []fbWant {
		return []fbWant{fbN(len(fbWhere(rows, func(r aitest.Row) bool { return r.Heard == fbStr(a, 0) })))}
	},
	"pctHeard": func(rows []aitest.Row, a []any) []fbWant {
		n := len(fbWhere(rows, func(r aitest.Row) bool { return r.Heard == fbStr(a, 0) }))
		return []fbWant{fbShare(n, len(rows)), fbN(n)}
	},
	"bestPlanByRating": func(rows []aitest.Row, _ []any) []fbWant {
		best, bestMean := "", -1.0
		for _, p := range fbPlans {
			if m := aitest.Mean(aitest.Ratings(fbWhere(rows, func(r aitest.Row) bool { return r.Plan == p }))); m > bestMean {
				best, bestMean = p, m
			}
		}
		return []fbWant{fbText(best), fbNum(bestMean)}
	},
	"pctBothFeatures": func(rows []aitest.Row, a []any) []fbWant {
		n := len(fbWhere(rows, func(r aitest.Row) bool { return fbUses(r, fbStr(a, 0)) && fbUses(r, fbStr(a, 1)) }))
		return []fbWant{fbShare(n, len(rows)), fbN(n)}
	},
	"countPlanSpendOver": func(rows []aitest.Row, a []any) []fbWant {
		return []fbWant{fbN(len(fbWhere(rows, func(r aitest.Row) bool { return r.Plan == fbStr(a, 0) && r.Spend > fbNumArg(a, 1) })))}
	},
	"meanRatingSupportAtLeast": func(rows []aitest.Row, a []any) []fbWant {
		return []fbWant{fbNum(aitest.Mean(aitest.Ratings(fbWhere(rows, func(r aitest.Row) bool { return r.Support >= int(fbNumArg(a, 0)) }))))}
	},
	"ratingDistribution": func(rows []aitest.Row, _ []any) []fbWant {
		var out []fbWant
		for s := 1; s <= 5; s++ {
			out = append(out, fbN(len(fbWhere(rows, func(r aitest.Row) bool { return r.Rating == s }))))
		}
		return out
	},
	"meanRatingFeature": func(rows []aitest.Row, a []any) []fbWant {
		return []fbWant{fbNum(aitest.Mean(aitest.Ratings(fbWhere(rows, func(r aitest.Row) bool { return fbUses(r, fbStr(a, 0)) }))))}
	},
	"pctFeatureAmongPlan": func(rows []aitest.Row, a []any) []fbWant {
		base := fbWhere(rows, func(r aitest.Row) bool { return r.Plan == fbStr(a, 1) })
		return []fbWant{fbShare(len(fbWhere(base, func(r aitest.Row) bool { return fbUses(r, fbStr(a, 0)) })), len(base))}
	},
	"busiestDay": func(rows []aitest.Row, _ []any) []fbWant {
		perDay := map[string]int{}
		var days []string
		for _, r := range rows {
			d := r.At.Format("2006-01-02")
			if perDay[d] == 0 {
				days = append(days, d)
			}
			perDay[d]++
		}
		slices.Sort(days)
		labels, n := fbTopLabels(days, func(d string) int { return perDay[d] }, false)
		return append(fbTexts(labels), fbN(n))
	},
	"refuse": func([]aitest.Row, []any) []fbWant { return []fbWant{{kind: "refuse"}} },
	"countPlan": func(rows []aitest.Row, a []any) []fbWant {
		return []fbWant{fbN(len(fbWhere(rows, func(r aitest.Row) bool { return r.Plan == fbStr(a, 0) })))}
	},
	"completion": func(rows []aitest.Row, _ []any) []fbWant {
		started := len(rows) + len(rows)/8
		return []fbWant{fbShare(len(rows), started), fbN(len(rows)), fbN(started)}
	},
	"earliestStart": func(rows []aitest.Row, _ []any) []fbWant {
		first := "9999"
		for _, r := range rows {
			if r.Start != "" && r.Start < first {
				first = r.Start
			}
		}
		return []fbWant{fbText(first)}
	},
	"meanRatingRecommend": func(rows []aitest.Row, a []any) []fbWant {
		return []fbWant{fbNum(aitest.Mean(aitest.Ratings(fbWhere(rows, func(r aitest.Row) bool { return r.Recommend == a[0].(bool) }))))}
	},
	"meanSpendPlan": func(rows []aitest.Row, a []any) []fbWant {
		return []fbWant{fbNum(aitest.Mean(fbSpends(fbWhere(rows, func(r aitest.Row) bool { return r.Plan == fbStr(a, 0) }))))}
	},
	"countNoFeatures": func(rows []aitest.Row, _ []any) []fbWant {
		return []fbWant{fbN(len(fbWhere(rows, func(r aitest.Row) bool { return len(r.Features) == 0 })))}
	},
	"countPlanRecommend": func(rows []aitest.Row, a []any) []fbWant {
		return []fbWant{fbN(len(fbWhere(rows, func(r aitest.Row) bool { return r.Plan == fbStr(a, 0) && r.Recommend == a[1].(bool) })))}
	},
	"topFeatures": func(rows []aitest.Row, a []any) []fbWant {
		counts := map[string]int{}
		for _, f := range fbFeatOpt {
			counts[f] = len(fbWhere(rows, func(r aitest.Row) bool { return fbUses(r, f) }))
		}
		sorted := slices.Clone(fbFeatOpt)
		slices.SortStableFunc(sorted, func(x, y string) int { return counts[y] - counts[x] })
		var out []fbWant
		for _, f := range sorted[:int(fbNumArg(a, 0))] {
			out = append(out, fbText(f), fbN(counts[f]))
		}
		return out
	},
	"meanRatingFeatures": func(rows []aitest.Row, a []any) []fbWant {
		return []fbWant{fbNum(aitest.Mean(aitest.Ratings(fbWhere(rows, func(r aitest.Row) bool { return fbUses(r, fbStr(a, 0)) && fbUses(r, fbStr(a, 1)) }))))}
	},
	"maxSupport": func(rows []aitest.Row, _ []any) []fbWant {
		best := 0
		for _, r := range rows {
			best = max(best, r.Support)
		}
		return []fbWant{fbN(best)}
	},
	"countHeardAnswered": func(rows []aitest.Row, _ []any) []fbWant {
		return []fbWant{fbN(len(fbWhere(rows, func(r aitest.Row) bool { return r.Heard != "" })))}
	},
	"morePopular": func(rows []aitest.Row, a []any) []fbWant {
		x := len(fbWhere(rows, func(r aitest.Row) bool { return fbUses(r, fbStr(a, 0)) }))
		y := len(fbWhere(rows, func(r aitest.Row) bool { return fbUses(r, fbStr(a, 1)) }))
		winner := fbStr(a, 0)
		if y > x {
			winner = fbStr(a, 1)
		}
		return []fbWant{fbText(winner), fbN(x), fbN(y)}
	},
	"countMonths": func(rows []aitest.Row, a []any) []fbWant {
		var out []fbWant
		for _, m := range a {
			out = append(out, fbN(len(fbWhere(rows, func(r aitest.Row) bool { return int(r.At.Month()) == int(m.(float64)) }))))
		}
		return out
	},
	"meanRatingHeard": func(rows []aitest.Row, a []any) []fbWant {
		return []fbWant{fbNum(aitest.Mean(aitest.Ratings(fbWhere(rows, func(r aitest.Row) bool { return r.Heard == fbStr(a, 0) }))))}
	},
	"ratingDistributionPlan": func(rows []aitest.Row, a []any) []fbWant {
		rows = fbWhere(rows, func(r aitest.Row) bool { return r.Plan == fbStr(a, 0) })
		var out []fbWant
		for s := 1; s <= 5; s++ {
			n := len(fbWhere(rows, func(r aitest.Row) bool { return r.Rating == s }))
			out = append(out, fbN(n), fbShare(n, len(rows)))
		}
		return out
	},
	"countFeatureRecommend": func(rows []aitest.Row, a []any) []fbWant {
		return []fbWant{fbN(len(fbWhere(rows, func(r aitest.Row) bool { return r.Recommend && fbUses(r, fbStr(a, 0)) })))}
	},
}

func fbTexts(labels []string) []fbWant {
	var out []fbWant
	for _, l := range labels {
		out = append(out, fbText(l))
	}
	return out
}

// fbFeatureRank expects the most (or least) used feature(s) and their count.
func fbFeatureRank(rows []aitest.Row, least bool) []fbWant {
	labels, n := fbTopLabels(fbFeatOpt, func(f string) int {
		return len(fbWhere(rows, func(r aitest.Row) bool { return fbUses(r, f) }))
	}, least)
	return append(fbTexts(labels), fbN(n))
}

// fbRecentComments expects the three newest comments matching the filter in args:
// ["negative" | "rating1" | "", plan or ""].
func fbRecentComments(rows []aitest.Row, a []any) []fbWant {
	sorted := slices.Clone(rows)
	slices.SortStableFunc(sorted, func(x, y aitest.Row) int { return y.At.Compare(x.At) })
	var out []fbWant
	for _, r := range sorted {
		switch {
		case r.Comment == "",
			fbStr(a, 0) == "negative" && aitest.Compound(r.Comment) > -0.05,
			fbStr(a, 0) == "rating1" && r.Rating != 1,
			fbStr(a, 1) != "" && r.Plan != fbStr(a, 1):
			continue
		}
		out = append(out, fbText(r.Comment))
		if len(out) == 3 {
			break
		}
	}
	return out
}

// fbSentiment expects the class of the mean compound score, the score, the number of
// comments and the positive and negative counts.
func fbSentiment(rows []aitest.Row, _ []any) []fbWant {
	sum, n, pos, neg := 0.0, 0, 0, 0
	for _, r := range rows {
		if r.Comment == "" {
			continue
		}
		c := aitest.Compound(r.Comment)
		sum += c
		n++
		if c >= 0.05 {
			pos++
		} else if c <= -0.05 {
			neg++
		}
	}
	mean := sum / float64(n)
	class := "neutral"
	if mean >= 0.05 {
		class = "positive"
	} else if mean <= -0.05 {
		class = "negative"
	}
	return []fbWant{fbText(class), fbNum(mean), fbN(n), fbN(pos), fbN(neg)}
}

var (
	fbDateRe   = regexp.MustCompile(`\d{4}-\d{2}(-\d{2})?`)
	fbNumberRe = regexp.MustCompile(`(^|[^\w.])(-?\d+(?:\.\d+)?)(%?)`)
	fbRefuseRe = regexp.MustCompile(`(?i)can't answer|cannot answer|can not answer`)
)

// fbNumbers returns the numbers of a reply (dates removed), split into plain numbers
// and percentages, as written.
func fbNumbers(reply string) (plain, pct []string) {
	reply = strings.ReplaceAll(fbDateRe.ReplaceAllString(reply, " "), ",", " ")
	for _, m := range fbNumberRe.FindAllStringSubmatch(reply, -1) {
		if m[3] == "%" {
			pct = append(pct, m[2])
		} else {
			plain = append(plain, m[2])
		}
	}
	return plain, pct
}

// fbCheck returns what is wrong with a reply; nothing when it is correct.
func fbCheck(reply string, wants []fbWant) []string {
	var problems []string
	plain, pct := fbNumbers(reply)
	wantPct, wantNum := map[string]bool{}, map[string]bool{}
	for _, w := range wants {
		switch w.kind {
		case "refuse":
			if !fbRefuseRe.MatchString(reply) || strings.Count(reply, "?") < 3 || len(pct) > 0 {
				problems = append(problems, "expected a refusal listing example questions")
			}
		case "text":
			if !strings.Contains(strings.ToLower(reply), strings.ToLower(w.s)) {
				problems = append(problems, fmt.Sprintf("missing %q", w.s))
			}
		case "pct":
			wantPct[aitest.Fmt(w.v)] = true
			if !slices.Contains(pct, aitest.Fmt(w.v)) {
				problems = append(problems, fmt.Sprintf("missing %s%%", aitest.Fmt(w.v)))
			}
		default:
			if w.kind == "num" {
				wantNum[aitest.Fmt(w.v)] = true
			}
			if !slices.Contains(plain, aitest.Fmt(w.v)) && !slices.Contains(pct, aitest.Fmt(w.v)) {
				problems = append(problems, fmt.Sprintf("missing %s", aitest.Fmt(w.v)))
			}
		}
	}
	return append(problems, fbContradictions(plain, pct, wantPct, wantNum)...)
}

// fbContradictions flags percentages and decimals that are not among the expected
// ones, when the question expects percentages or decimals.
func fbContradictions(plain, pct []string, wantPct, wantNum map[string]bool) []string {
	var problems []string
	for _, p := range pct {
		if len(wantPct) > 0 && !wantPct[p] {
			problems = append(problems, fmt.Sprintf("unexpected %s%%", p))
		}
	}
	for _, p := range plain {
		if len(wantNum) > 0 && strings.Contains(p, ".") && !wantNum[p] {
			problems = append(problems, fmt.Sprintf("unexpected %s", p))
		}
	}
	return problems
}

func fbLoadCases(t testing.TB) []fbCase {
	raw, err := os.ReadFile("testdata/chat_questions.json")
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Questions []fbCase `json:"questions"`
	}
	if err := json.Unmarshal(raw, &file); err != nil {
		t.Fatal(err)
	}
	return file.Questions
}

func TestChatQuality(t *testing.T) {
	rows := aitest.Generate(500, 2025)
	ds := aitest.Dataset(rows)
	total, correct, chains := 0, 0, 0
	var failures []string
	for _, c := range fbLoadCases(t) {
		turns := c.Chain
		if len(turns) == 0 {
			turns = []fbCase{c}
		} else {
			chains++
		}
		var history []ai.Turn
		for i, turn := range turns {
			want, ok := fbWants[turn.Want]
			if !ok {
				t.Fatalf("%s: unknown want %q", c.ID, turn.Want)
			}
			reply := Answer(ds, history, turn.Ask, aitest.Now)
			total++
			if problems := fbCheck(reply, want(rows, turn.Args)); len(problems) > 0 {
				failures = append(failures, fmt.Sprintf("%s#%d %q\n    reply: %s\n    problems: %s",
					c.ID, i+1, turn.Ask, reply, strings.Join(problems, "; ")))
			} else {
				correct++
			}
			history = append(history, ai.Turn{Role: ai.RoleUser, Content: turn.Ask}, ai.Turn{Role: ai.RoleAssistant, Content: reply})
		}
	}
	score := float64(correct) / float64(total) * 100
	fmt.Printf("chat quality: %d/%d correct (%.1f%%)\n", correct, total, score)
	t.Logf("chat quality: %d/%d correct (%.1f%%)", correct, total, score)
	for _, f := range failures {
		t.Logf("FAIL %s", f)
	}
	if total < 60 || chains < 8 {
		t.Errorf("suite too small: %d questions, %d chains", total, chains)
	}
	if score < 90 {
		t.Errorf("chat quality %.1f%% is below 90%%", score)
	}
}
