package chat

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"forma/internal/ai/aitest"
	"forma/internal/form"
)

// The expectations of the chat evaluation (eval_test.go), computed by plain code
// over the records of aitest.Surveys — never through the query engine.
//
// A case's spec is "STAT ARGS ; WHERE ; MATCH":
//   count [F]                responses (that answered F)
//   pct                      share of the WHERE responses that satisfy MATCH, and their count
//   mean|median|mode|min|max|sum|sd F, pNN F (percentile, linear interpolation),
//   earliest|latest F        a figure of F's answers (sd: sample standard deviation)
//   dist F                   every option of F with its count
//   top F N, bottom F N      the N most (least) common options with counts
//   by G STAT [F]            STAT for every option of G, labelled
//   best|worst G STAT [F]    the option of G with the highest (lowest) STAT, and it
//   bestN|worstN G STAT [F]  the N options of G with the highest (lowest) STAT, and theirs
//   cross A B                the count of every pair of options of A and B
//   trend month|week         responses per period
//   sentiment F              class, mean compound score, answers scored, positive, negative
//   mentions F WORD          answers of F containing WORD
//   words F N                the N words found in most answers of F, with counts
//   refuse                   the chat must say it can't
// Conditions (space-separated, ANDed): k=v, k=v1|v2 (either), k!=v, k>n, k>=n,
// k<n, k<=n, k? (answered), k! (skipped), k~word (text contains), k:positive
// (sentiment class), at=FROM..TO (submission days, inclusive). "_" in a value is a
// space; for a multi-select question = means "chose".

// spec is a parsed expectation.
type spec struct {
	stat  string
	args  []string
	where []condSpec
	match []condSpec
}

// condSpec is one condition of a spec.
type condSpec struct {
	key, op string
	vals    []string
}

var condRe = regexp.MustCompile(`^([a-z]+)(!=|>=|<=|=|>|<|~|:|\?|!)(.*)$`)

// parseSpec reads a spec.
func parseSpec(s string) (spec, error) {
	parts := strings.Split(s, ";")
	words := strings.Fields(parts[0])
	if len(words) == 0 {
		return spec{}, fmt.Errorf("empty spec")
	}
	sp := spec{stat: words[0], args: words[1:]}
	for i, dst := range []*[]condSpec{&sp.where, &sp.match} {
		if len(parts) <= i+1 {
			break
		}
		for _, c := range strings.Fields(parts[i+1]) {
			m := condRe.FindStringSubmatch(c)
			if m == nil {
				return spec{}, fmt.Errorf("bad condition %q", c)
			}
			var vals []string
			for _, v := range strings.Split(m[3], "|") {
				vals = append(vals, strings.ReplaceAll(v, "_", " "))
			}
			*dst = append(*dst, condSpec{key: m[1], op: m[2], vals: vals})
		}
	}
	return sp, nil
}

// holds reports whether record r satisfies c.
func (c condSpec) holds(r aitest.Record) bool {
	if c.key == "at" {
		day := r.At.Format("2006-01-02")
		lo, hi, _ := strings.Cut(c.vals[0], "..")
		return day >= lo && day <= hi
	}
	v, ok := r.V[c.key]
	switch c.op {
	case "?":
		return ok
	case "!":
		return !ok
	}
	if !ok {
		return false
	}
	for _, want := range c.vals {
		if c.test(v, want) {
			return true
		}
	}
	return false
}

// test compares one answer with one operand.
func (c condSpec) test(v any, want string) bool {
	switch x := v.(type) {
	case bool:
		return (c.op == "=") == (x == (want == "yes"))
	case []string:
		has := slices.ContainsFunc(x, func(s string) bool { return strings.EqualFold(s, want) })
		return has == (c.op == "=")
	case float64:
		w, err := strconv.ParseFloat(want, 64)
		if err != nil {
			panic(fmt.Sprintf("condition %v: %q is not a number", c, want))
		}
		return map[string]bool{"=": x == w, "!=": x != w, ">": x > w, ">=": x >= w, "<": x < w, "<=": x <= w}[c.op]
	}
	s := v.(string)
	switch c.op {
	case "~":
		return strings.Contains(strings.ToLower(s), strings.ToLower(want))
	case ":":
		return classOf(aitest.Compound(s)) == want
	case "=":
		return strings.EqualFold(s, want)
	case "!=":
		return !strings.EqualFold(s, want)
	}
	return map[string]bool{">": s > want, ">=": s >= want, "<": s < want, "<=": s <= want}[c.op]
}

// classOf is the VADER class of a compound score.
func classOf(c float64) string {
	switch {
	case c >= 0.05:
		return "positive"
	case c <= -0.05:
		return "negative"
	}
	return "neutral"
}

// filterRecs keeps the records satisfying every condition.
func filterRecs(rs []aitest.Record, cs []condSpec) []aitest.Record {
	var out []aitest.Record
	for _, r := range rs {
		ok := true
		for _, c := range cs {
			ok = ok && c.holds(r)
		}
		if ok {
			out = append(out, r)
		}
	}
	return out
}

// answersOf returns the answers of key that are of type T: the numbers
// (float64) or the texts (string).
func answersOf[T any](rs []aitest.Record, key string) []T {
	var out []T
	for _, r := range rs {
		if v, ok := r.V[key].(T); ok {
			out = append(out, v)
		}
	}
	return out
}

// numberStat computes a statistic over numbers (not empty).
func numberStat(stat string, vals []float64) float64 {
	s := slices.Clone(vals)
	slices.Sort(s)
	sum := 0.0
	for _, v := range s {
		sum += v
	}
	mean := sum / float64(len(s))
	switch stat {
	case "mean":
		return mean
	case "sum":
		return sum
	case "min":
		return s[0]
	case "max":
		return s[len(s)-1]
	case "median":
		return percentile(s, 50)
	case "sd":
		ss := 0.0
		for _, v := range s {
			ss += (v - mean) * (v - mean)
		}
		return math.Sqrt(ss / float64(len(s)-1))
	}
	p, err := strconv.ParseFloat(strings.TrimPrefix(stat, "p"), 64)
	if err != nil {
		panic("unknown statistic " + stat)
	}
	return percentile(s, p)
}

// percentile interpolates linearly between the closest ranks of sorted values.
func percentile(s []float64, p float64) float64 {
	h := float64(len(s)-1) * p / 100
	lo := math.Floor(h)
	if int(lo)+1 >= len(s) {
		return s[len(s)-1]
	}
	return s[int(lo)] + (h-lo)*(s[int(lo)+1]-s[int(lo)])
}

// labelCounts counts the records choosing each option of key, in option order.
func labelCounts(sv *aitest.Survey, rs []aitest.Record, key string) ([]string, []int) {
	labels := optionsOf(sv, key)
	counts := make([]int, len(labels))
	for i, l := range labels {
		counts[i] = len(filterRecs(rs, []condSpec{{key: key, op: "=", vals: []string{l}}}))
	}
	return labels, counts
}

// writtenAnswers returns the distinct written answers to key's question, sorted.
func writtenAnswers(sv *aitest.Survey, key string) []string {
	var out []string
	for _, r := range sv.Records {
		if v, ok := r.V[key].(string); ok && v != "" && !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	slices.Sort(out)
	return out
}

// optionsOf returns the options of key's question ("yes", "no" for yes_no, the
// stars of a rating).
func optionsOf(sv *aitest.Survey, key string) []string {
	for _, q := range sv.Form.Questions {
		if q.ID == sv.Keys[key] {
			switch q.Type {
			case form.YesNo:
				return []string{"yes", "no"}
			case form.Rating:
				return []string{"1", "2", "3", "4", "5"}
			case form.Text, form.Textarea:
				return writtenAnswers(sv, key) // the most common comment: written answers repeat
			}
			return q.Options
		}
	}
	panic("no question " + key)
}

// expect computes the wanted figures of a spec; an error when the expectation is
// ambiguous (ties) or malformed.
func expect(sv *aitest.Survey, sp spec) ([]fbWant, error) {
	rs := filterRecs(sv.Records, sp.where)
	arg := func(i int) string {
		if i < len(sp.args) {
			return sp.args[i]
		}
		return ""
	}
	if m := rankedGroupsRe.FindStringSubmatch(sp.stat); m != nil {
		n, _ := strconv.Atoi(m[2])
		sp.stat = m[1]
		return grouped(sv, rs, sp, n)
	}
	switch sp.stat {
	case "refuse":
		return []fbWant{{kind: "refuse"}}, nil
	case "count":
		if arg(0) != "" {
			rs = filterRecs(rs, []condSpec{{key: arg(0), op: "?"}})
		}
		return []fbWant{fbN(len(rs))}, nil
	case "pct":
		n := len(filterRecs(rs, sp.match))
		return []fbWant{fbShare(n, len(rs)), fbN(n)}, nil
	case "mode":
		return modeOf(rs, arg(0))
	case "earliest", "latest":
		ds := answersOf[string](rs, arg(0))
		slices.Sort(ds)
		if sp.stat == "earliest" {
			return []fbWant{fbText(ds[0])}, nil
		}
		return []fbWant{fbText(ds[len(ds)-1])}, nil
	case "dist":
		labels, counts := labelCounts(sv, rs, arg(0))
		var out []fbWant
		for i := range labels {
			out = append(out, fbText(labels[i]), fbN(counts[i]))
		}
		return out, nil
	case "top", "bottom":
		return ranked(sv, rs, arg(0), arg(1), sp.stat == "bottom")
	case "by", "best", "worst":
		return grouped(sv, rs, sp, 1)
	case "cross":
		return crossOf(sv, rs, arg(0), arg(1)), nil
	case "trend":
		return trendOf(rs, arg(0)), nil
	case "sentiment":
		return sentimentOf(answersOf[string](rs, arg(0))), nil
	case "mentions":
		return []fbWant{fbN(len(filterRecs(rs, []condSpec{{key: arg(0), op: "~", vals: []string{arg(1)}}})))}, nil
	case "words":
		return topWords(answersOf[string](rs, arg(0)), arg(1))
	}
	vals := answersOf[float64](rs, arg(0))
	if len(vals) == 0 {
		return nil, fmt.Errorf("no numbers for %s", arg(0))
	}
	return []fbWant{numWant(numberStat(sp.stat, vals))}, nil
}

// numWant wants a figure: a count when it is whole, else a decimal.
func numWant(v float64) fbWant {
	if v == math.Trunc(v) {
		return fbN(int(v))
	}
	return fbNum(v)
}

// modeOf wants the most common answers of key (all of them when tied) and how
// often each was given.
func modeOf(rs []aitest.Record, key string) ([]fbWant, error) {
	counts := map[string]int{}
	for _, r := range rs {
		if v, ok := r.V[key]; ok {
			counts[fmt.Sprint(v)]++
		}
	}
	n := 0
	for _, c := range counts {
		n = max(n, c)
	}
	var out []fbWant
	for v, c := range counts {
		if c == n {
			out = append(out, fbText(v))
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s has no answers", key)
	}
	return append(out, fbN(n)), nil
}

// ranked wants the n most (or least) chosen options of key with their counts.
func ranked(sv *aitest.Survey, rs []aitest.Record, key, n string, least bool) ([]fbWant, error) {
	labels, counts := labelCounts(sv, rs, key)
	idx := make([]int, len(labels))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		if least {
			return counts[a] - counts[b]
		}
		return counts[b] - counts[a]
	})
	k, _ := strconv.Atoi(n)
	k = max(k, 1)
	if k < len(idx) && counts[idx[k]] == counts[idx[k-1]] {
		return nil, fmt.Errorf("top %d of %s is tied", k, key)
	}
	var out []fbWant
	for _, i := range idx[:k] {
		out = append(out, fbText(labels[i]), fbN(counts[i]))
	}
	return out, nil
}

// rankedGroupsRe reads "best3": the 3 groups with the highest figure.
var rankedGroupsRe = regexp.MustCompile(`^(best|worst)([1-9]\d*)$`)

// grouped wants a statistic per option of a group question, or the n best or worst.
func grouped(sv *aitest.Survey, rs []aitest.Record, sp spec, n int) ([]fbWant, error) {
	g := sp.args[0]
	inner := spec{stat: sp.args[1], args: sp.args[2:], match: sp.match}
	type fig struct {
		label string
		w     []fbWant
		v     float64
	}
	var figs []fig
	for _, l := range optionsOf(sv, g) {
		sub := filterRecs(rs, []condSpec{{key: g, op: "=", vals: []string{l}}})
		if len(sub) == 0 {
			continue
		}
		w, err := expect(&aitest.Survey{Form: sv.Form, Keys: sv.Keys, Records: sub}, inner)
		if err != nil {
			return nil, err
		}
		figs = append(figs, fig{label: l, w: w, v: w[0].v})
	}
	if sp.stat == "by" {
		var out []fbWant
		for _, f := range figs {
			out = append(out, fbText(f.label))
			out = append(out, f.w...)
		}
		return out, nil
	}
	slices.SortStableFunc(figs, func(a, b fig) int {
		if sp.stat == "best" {
			return cmpFloat(b.v, a.v)
		}
		return cmpFloat(a.v, b.v)
	})
	if n > len(figs) || n < len(figs) && aitest.Fmt(figs[n-1].v) == aitest.Fmt(figs[n].v) {
		return nil, fmt.Errorf("%s %d of %s is tied or too many", sp.stat, n, g)
	}
	var out []fbWant
	for _, f := range figs[:n] {
		out = append(out, fbText(f.label), f.w[0])
	}
	return out, nil
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// crossOf wants the labels of both questions and the count of every pair.
func crossOf(sv *aitest.Survey, rs []aitest.Record, a, b string) []fbWant {
	var out []fbWant
	for _, la := range optionsOf(sv, a) {
		sub := filterRecs(rs, []condSpec{{key: a, op: "=", vals: []string{la}}})
		out = append(out, fbText(la))
		_, counts := labelCounts(sv, sub, b)
		for _, c := range counts {
			out = append(out, fbN(c))
		}
	}
	for _, lb := range optionsOf(sv, b) {
		out = append(out, fbText(lb))
	}
	return out
}

// trendOf wants the responses of every month (or ISO week) from the first to the
// last response.
func trendOf(rs []aitest.Record, unit string) []fbWant {
	key := func(t time.Time) string {
		if unit == "week" {
			y, w := t.ISOWeek()
			return fmt.Sprintf("%d-%02d", y, w)
		}
		return t.Format("2006-01")
	}
	counts := map[string]int{}
	var keys []string
	for _, r := range rs {
		k := key(r.At)
		if counts[k] == 0 {
			keys = append(keys, k)
		}
		counts[k]++
	}
	var out []fbWant
	for _, k := range keys {
		out = append(out, fbN(counts[k]))
	}
	return out
}

// sentimentOf wants the class of the mean compound score, the score, the answers
// scored and the positive and negative counts.
func sentimentOf(texts []string) []fbWant {
	sum, pos, neg := 0.0, 0, 0
	for _, t := range texts {
		c := aitest.Compound(t)
		sum += c
		switch classOf(c) {
		case "positive":
			pos++
		case "negative":
			neg++
		}
	}
	mean := sum / float64(len(texts))
	return []fbWant{fbText(classOf(mean)), fbNum(mean), fbN(len(texts)), fbN(pos), fbN(neg)}
}

// evalStopWords are left out of the word counts: the standard NLTK English stop
// words, plus the few more the engine's words metric also leaves out ("many",
// "much", "got", …). Both lists must agree, or a top-words question would be
// scored on the definition of a stop word, not on the chat.
var evalStopWords = strings.Fields("i me my myself we our ours ourselves you your yours yourself yourselves " +
	"he him his himself she her hers herself it its itself they them their theirs themselves what which who whom " +
	"this that these those am is are was were be been being have has had having do does did doing a an the and " +
	"but if or because as until while of at by for with about against between into through during before after " +
	"above below to from up down in out on off over under again further then once here there when where why how " +
	"all any both each few more most other some such no nor not only own same so than too very s t can will just " +
	"don should now " +
	"many much get got keep almost nobody though yes could would shall may might must")

// topWords wants the n words found in most answers, with the number of answers.
func topWords(texts []string, n string) ([]fbWant, error) {
	counts := map[string]int{}
	for _, t := range texts {
		seen := map[string]bool{}
		for _, w := range regexp.MustCompile(`\pL+`).FindAllString(strings.ToLower(t), -1) {
			if !seen[w] && !slices.Contains(evalStopWords, w) {
				seen[w] = true
				counts[w]++
			}
		}
	}
	var words []string
	for w := range counts {
		words = append(words, w)
	}
	slices.SortFunc(words, func(a, b string) int {
		if counts[a] != counts[b] {
			return counts[b] - counts[a]
		}
		return strings.Compare(a, b)
	})
	k, _ := strconv.Atoi(n)
	if k < len(words) && counts[words[k]] == counts[words[k-1]] {
		return nil, fmt.Errorf("top %d words are tied", k)
	}
	var out []fbWant
	for _, w := range words[:k] {
		out = append(out, fbText(w), fbN(counts[w]))
	}
	return out, nil
}
