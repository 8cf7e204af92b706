package chat

import (
	"fmt"
	"slices"
	"strings"

	"forma/internal/ai/query"
	"forma/internal/ai/text"
	"forma/internal/form"
)

// maxLines caps the lines of a listing reply.
const maxLines = 31

// maxQuoted caps the characters of an answer quoted in a reply.
const maxQuoted = 280

// reply computes and words the answer to a request.
func (s *session) reply(in *request) string {
	if len(in.unknown) > 0 || in.clash != "" {
		return s.cannotPart(in)
	}
	if in.ambiguous != "" {
		return s.cannotChoose(in)
	}
	if in.kind == completionRate {
		return s.replyCompletion()
	}
	if !s.answerable(in) {
		return s.cannot()
	}
	p, ok := s.plan(in)
	if !ok {
		return s.cannot()
	}
	res, err := s.eng.Run(p.q)
	if err != nil {
		return s.cannot()
	}
	if in.check != nil {
		return s.replyCheck(in, p, res)
	}
	switch {
	case in.kind == busiestPeriod:
		return s.replyBusiest(p, res, in.least)
	case in.kind == highestGroup || in.kind == lowestGroup:
		return s.replyArg(in, p, res)
	case len(res.Groups) > 0:
		return s.replyGroups(in, p, res)
	}
	return s.replyMetric(in, p, res)
}

// replyCheck words the figure of a yes/no question and whether it passes the
// number the question gave; a question with more than one figure is refused.
func (s *session) replyCheck(in *request, p queryPlan, res *query.Result) string {
	checkable := in.kind == metricIntent && len(res.Groups) == 0 && (in.target != nil || p.q.Metric == query.Percent)
	switch p.q.Metric {
	case query.Mean, query.Median, query.Sum, query.Min, query.Max, query.StdDev, query.Percentile, query.Percent:
	case query.Count:
		checkable = checkable || in.kind == metricIntent && len(res.Groups) == 0
	default:
		checkable = false
	}
	if !checkable {
		in.ambiguous = "I can check one figure against a number, and this question does not ask for one figure"
		return s.cannotChoose(in)
	}
	out := s.replyMetric(in, p, res)
	value, display := res.Value, res.Display
	switch {
	case p.q.Metric == query.Count:
		n := float64(res.N)
		value, display = &n, fmt.Sprint(res.N)
	case value == nil:
		return out
	case p.q.Metric != query.Percent:
		display = query.FormatValue(in.target.q, *value)
	}
	v, ok := in.check.verdict(p.q.Metric, display, *value)
	if !ok {
		in.ambiguous = "the number to check is not in the unit of the figure asked for"
		return s.cannotChoose(in)
	}
	return out + v
}

// replyMetric words the result of one metric.
func (s *session) replyMetric(in *request, p queryPlan, res *query.Result) string {
	switch p.q.Metric {
	case query.Count:
		return s.replyCount(p, res)
	case query.Percent:
		return s.replyPercent(p, res)
	case query.Mean, query.Median, query.Sum, query.Min, query.Max, query.StdDev, query.Percentile:
		return s.replyNumber(in, p, res)
	case query.Mode:
		return s.replyMode(in, p, res)
	case query.Words:
		return s.replyWords(in, p, res)
	case query.Top:
		return s.replyTop(in, p, res)
	case query.Distribution:
		return s.replyDistribution(in, p, res)
	case query.List:
		return s.replyList(in, p, res)
	case query.Trend:
		return s.replyTrend(in, p, res)
	}
	return s.replySentiment(in, p, res)
}

// preds words the conditions and date range of a plan's population.
func (s *session) preds(cs []cond, p queryPlan) []string {
	var out []string
	for _, c := range cs {
		if c.q != nil {
			out = append(out, s.pred(c))
		}
	}
	if p.span != nil {
		out = append(out, "were submitted "+p.span.describe())
	}
	return out
}

// pred words one condition as what the respondent did ("answered Yes to “…”").
func (s *session) pred(c cond) string {
	q, f := c.q.q, c.f
	quoted := text.Quote(q.Text)
	switch f.Op {
	case query.IsNotEmpty:
		return "answered " + quoted
	case query.IsEmpty:
		return "left " + quoted + " blank"
	case query.SentimentOp:
		return fmt.Sprintf("gave a %v answer to %s", f.Value, quoted)
	case query.In:
		return "answered " + orList(f.Value.([]any)) + " to " + quoted
	}
	switch q.Type {
	case form.YesNo:
		return "answered " + yesNoText(f) + " to " + quoted
	case form.MultiSelect:
		if f.Op == query.NotEquals {
			return fmt.Sprintf("did not choose %v in %s", f.Value, quoted)
		}
		return fmt.Sprintf("chose %v in %s", f.Value, quoted)
	}
	return "answered " + cmpText(q, f) + " to " + quoted
}

// yesNoText names the answer a yes_no filter asks for.
func yesNoText(f query.Filter) string {
	b, _ := f.Value.(bool)
	if f.Op == query.NotEquals {
		b = !b
	}
	if b {
		return "Yes"
	}
	return "No"
}

// cmpText words a comparison with the values the question gave.
func cmpText(q *form.Question, f query.Filter) string {
	v, to := operand(f.Value), operand(f.To)
	date := isDateLike(q)
	switch f.Op {
	case query.NotEquals:
		return "something other than " + v
	case query.GT, query.After:
		return map[bool]string{true: "after ", false: "more than "}[date] + v
	case query.GTE:
		return map[bool]string{true: v + " or later", false: v + " or more"}[date]
	case query.LT, query.Before:
		return map[bool]string{true: "before ", false: "less than "}[date] + v
	case query.LTE:
		return map[bool]string{true: v + " or earlier", false: v + " or less"}[date]
	case query.Between:
		return "between " + v + " and " + to
	case query.Contains:
		return "something containing " + v
	}
	return v
}

// operand renders a filter value as the question gave it.
func operand(v any) string {
	if n, ok := v.(float64); ok {
		return query.Format(n)
	}
	return fmt.Sprint(v)
}

// orList joins values with commas and a final "or".
func orList(vals []any) string {
	parts := make([]string, len(vals))
	for i, v := range vals {
		parts[i] = operand(v)
	}
	if len(parts) < 2 {
		return strings.Join(parts, "")
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " or " + parts[len(parts)-1]
}

// andList joins phrases with commas and a final "and".
func andList(parts []string) string {
	switch len(parts) {
	case 0:
		return ""
	case 1:
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

// scope words the population of a result: "" for all responses.
func (s *session) scope(cs []cond, p queryPlan, matched int) string {
	preds := s.preds(cs, p)
	if len(preds) == 0 {
		return ""
	}
	return fmt.Sprintf(" among the %d responses that %s", matched, andList(preds))
}

// replyCompletion words the completion rate.
func (s *session) replyCompletion() string {
	c := s.eng.Completion()
	if c.Started == 0 {
		return fmt.Sprintf("No sessions were recorded as started on this form, so its completion rate is %s; it has %d completed responses.",
			query.FormatPercent(c.Rate), c.Completed)
	}
	return fmt.Sprintf("The completion rate is %s: %d responses were completed out of %d started sessions.",
		query.FormatPercent(c.Rate), c.Completed, c.Started)
}

// replyCount words a count.
func (s *session) replyCount(p queryPlan, res *query.Result) string {
	preds := s.preds(p.base, p)
	if len(preds) == 0 {
		return fmt.Sprintf("There are %d responses in total.", res.N)
	}
	return fmt.Sprintf("%d of the %d responses %s.", res.N, res.Total, andList(preds))
}

// replyPercent words a share.
func (s *session) replyPercent(p queryPlan, res *query.Result) string {
	base, match := s.preds(p.base, p), s.preds(p.match, queryPlan{span: p.matchSpan})
	if res.Value == nil {
		return fmt.Sprintf("No responses %s, so there is no percentage to give.", andList(base))
	}
	if len(base) == 0 {
		return fmt.Sprintf("%s of all %d responses %s (%d of %d).",
			res.Display, res.Matched, andList(match), res.N, res.Matched)
	}
	return fmt.Sprintf("Among the %d responses that %s, %s %s (%d of %d).",
		res.Matched, andList(base), res.Display, andList(match), res.N, res.Matched)
}

// figureNames name the numeric metrics in replies.
var figureNames = map[query.Metric]string{
	query.Mean: "average", query.Median: "median", query.Sum: "total", query.Min: "lowest", query.Max: "highest",
	query.StdDev: "standard deviation", query.Percentile: "percentile",
}

// replyNumber words a mean, median, total or extreme.
func (s *session) replyNumber(in *request, p queryPlan, res *query.Result) string {
	q := in.target.q
	name := figureName(p.q.Metric, q)
	if p.q.Metric == query.Percentile {
		name = ordinal(p.q.Percentile) + " percentile"
	}
	scope := s.scope(p.base, p, res.Matched)
	if res.Text != "" {
		return fmt.Sprintf("The %s answer to %s%s is %s (from %d answers).", name, text.Quote(q.Text), scope, res.Text, res.N)
	}
	if res.Value == nil && res.N == 1 {
		return fmt.Sprintf("Only 1 response%s answered %s, and a %s needs at least two answers.", scope, text.Quote(q.Text), name)
	}
	if res.Value == nil {
		return fmt.Sprintf("No responses%s answered %s, so there is no %s to give.", scope, text.Quote(q.Text), name)
	}
	if p.q.Metric == query.Sum {
		total := query.FormatValue(q, *res.Value)
		if isScale(q) {
			total = query.Format(*res.Value) // a sum of ratings is no rating "out of 5"
		}
		return fmt.Sprintf("The answers to %s%s add up to %s (from %d answers).", text.Quote(q.Text), scope, total, res.N)
	}
	return fmt.Sprintf("The %s answer to %s%s is %s (from %d answers).",
		name, text.Quote(q.Text), scope, query.FormatValue(q, *res.Value), res.N)
}

// answerLabel names an answer of q in a reply.
func answerLabel(q *form.Question, label string) string {
	if q.Type == form.Rating {
		if label == "1" {
			return "1 star"
		}
		return label + " stars"
	}
	return label
}

// replyTop words the most (or least) common answers, naming ties.
func (s *session) replyTop(in *request, p queryPlan, res *query.Result) string {
	q := in.target.q
	scope := s.scope(p.base, p, res.Matched)
	if len(res.Buckets) == 0 || (res.Buckets[0].Count == 0 && !in.least) {
		return fmt.Sprintf("Nobody%s has answered %s yet.", scope, text.Quote(q.Text))
	}
	kind := map[bool]string{false: "most", true: "least"}[in.least]
	if in.limit > 1 {
		return s.replyRanking(in, kind, scope, res)
	}
	first := res.Buckets[0]
	var tied []string
	for _, b := range res.Buckets {
		if b.Count == first.Count {
			tied = append(tied, answerLabel(q, b.Label))
		}
	}
	var out string
	if len(tied) > 1 {
		out = fmt.Sprintf("%s are tied as the %s common answers to %s%s, with %d responses each (%s each).",
			andList(tied), kind, text.Quote(q.Text), scope, first.Count, query.FormatPercent(first.Percent))
	} else {
		out = fmt.Sprintf("The %s common answer to %s%s is %s, given in %d of %d responses (%s).",
			kind, text.Quote(q.Text), scope, answerLabel(q, first.Label), first.Count, res.Matched, query.FormatPercent(first.Percent))
	}
	return out + runnersUp(q, res.Buckets[len(tied):])
}

// replyRanking lists the top (or bottom) answers when a number of them was asked.
func (s *session) replyRanking(in *request, kind, scope string, res *query.Result) string {
	q := in.target.q
	var b strings.Builder
	fmt.Fprintf(&b, "The %d %s common answers to %s%s, of %d responses:", len(res.Buckets), kind, text.Quote(q.Text), scope, res.Matched)
	for i, bk := range res.Buckets {
		fmt.Fprintf(&b, "\n%d. %s: %d (%s)", i+1, answerLabel(q, bk.Label), bk.Count, query.FormatPercent(bk.Percent))
	}
	return b.String()
}

// runnersUp words the runners-up of a top list: all of them when there are three
// or fewer, else the next two.
func runnersUp(q *form.Question, rest []query.Bucket) string {
	n := 2
	if len(rest) <= 3 {
		n = len(rest)
	}
	var parts []string
	for _, b := range rest[:n] {
		parts = append(parts, fmt.Sprintf("%s (%d)", answerLabel(q, b.Label), b.Count))
	}
	if len(parts) == 0 {
		return ""
	}
	return " Next: " + strings.Join(parts, ", ") + "."
}

// replyDistribution lists every answer with its count and share.
func (s *session) replyDistribution(in *request, p queryPlan, res *query.Result) string {
	q := in.target.q
	var b strings.Builder
	fmt.Fprintf(&b, "Answers to %s%s (%d responses, %d answered):", text.Quote(q.Text), s.scope(p.base, p, res.Matched), res.Matched, res.N)
	for _, bk := range res.Buckets {
		fmt.Fprintf(&b, "\n- %s: %d (%s)", answerLabel(q, bk.Label), bk.Count, query.FormatPercent(bk.Percent))
	}
	if q.Type == form.MultiSelect {
		b.WriteString("\nRespondents could choose several options, so the shares add up to more than the whole.")
	}
	return b.String()
}

// replyList quotes the newest answers.
func (s *session) replyList(in *request, p queryPlan, res *query.Result) string {
	q := in.target.q
	scope := s.scope(p.base, p, res.Matched)
	if len(res.Items) == 0 {
		return fmt.Sprintf("There are no answers to %s%s.", text.Quote(q.Text), scope)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "The %d most recent answers to %s%s (out of %d):", len(res.Items), text.Quote(q.Text), scope, res.N)
	for _, it := range res.Items {
		fmt.Fprintf(&b, "\n- %s: “%s”", it.SubmittedAt.UTC().Format("2006-01-02"), excerpt(it.Text))
	}
	return b.String()
}

// excerpt flattens and shortens an answer for quoting.
func excerpt(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > maxQuoted {
		s = string(r[:maxQuoted]) + "…"
	}
	return s
}

// replyTrend lists responses (or the target's average) per period.
func (s *session) replyTrend(in *request, p queryPlan, res *query.Result) string {
	var b strings.Builder
	buckets := res.Buckets
	if len(buckets) > maxLines {
		buckets = buckets[len(buckets)-maxLines:]
	}
	scope := s.scope(p.base, p, res.Matched)
	if p.q.Question != 0 {
		q := in.target.q
		fmt.Fprintf(&b, "Average answer to %s per %s%s:", text.Quote(q.Text), res.Interval, scope)
		for _, bk := range buckets {
			if bk.Value == nil {
				fmt.Fprintf(&b, "\n- %s: no answers", query.PeriodName(bk.Label, res.Interval))
				continue
			}
			fmt.Fprintf(&b, "\n- %s: %s (%d answers)", query.PeriodName(bk.Label, res.Interval), query.Format(*bk.Value), bk.Count)
		}
		return b.String()
	}
	fmt.Fprintf(&b, "Responses per %s%s:", res.Interval, scope)
	for _, bk := range buckets {
		fmt.Fprintf(&b, "\n- %s: %d", query.PeriodName(bk.Label, res.Interval), bk.Count)
	}
	if len(res.Buckets) == 0 {
		b.WriteString("\nNo responses yet.")
	}
	return b.String()
}

// periodsAtEdge returns the periods of buckets with the most responses (with
// least, the fewest) and that number of responses.
func periodsAtEdge(buckets []query.Bucket, least bool) ([]query.Bucket, int) {
	best := 0
	for i, bk := range buckets {
		if least && (i == 0 || bk.Count < best) || !least && bk.Count > best {
			best = bk.Count
		}
	}
	return slices.DeleteFunc(slices.Clone(buckets), func(bk query.Bucket) bool { return bk.Count != best }), best
}

// replyBusiest names the period(s) with the most (with least, the fewest)
// responses; a quietest period is one with responses.
func (s *session) replyBusiest(p queryPlan, res *query.Result, least bool) string {
	at, best := periodsAtEdge(res.Buckets, least)
	var names []string
	for _, bk := range at {
		names = append(names, query.PeriodName(bk.Label, res.Interval))
	}
	scope := s.scope(p.base, p, res.Matched)
	if best == 0 {
		return fmt.Sprintf("There are no responses%s.", scope)
	}
	word := "busiest"
	if least {
		word = "quietest"
	}
	if len(names) == 1 {
		return fmt.Sprintf("The %s %s%s was %s, with %d responses.", word, res.Interval, scope, names[0], best)
	}
	return fmt.Sprintf("The %s %ss%s were %s, with %d responses each.", word, res.Interval, scope, andList(names), best)
}

// replySentiment words the sentiment of text answers.
func (s *session) replySentiment(in *request, p queryPlan, res *query.Result) string {
	what := "the written answers"
	if in.target != nil {
		what = "the answers to " + text.Quote(in.target.q.Text)
	}
	scope := s.scope(p.base, p, res.Matched)
	if res.Value == nil {
		return fmt.Sprintf("There are no written answers%s to score.", scope)
	}
	counts := map[string]int{}
	for _, bk := range res.Buckets {
		counts[bk.Label] = bk.Count
	}
	return fmt.Sprintf("Overall, %s%s are %s: the average sentiment score is %s on a scale from -1 (negative) to +1 (positive), "+
		"over %d answers (%d positive, %d neutral, %d negative).",
		what, scope, query.SentimentClass(*res.Value), query.Format(*res.Value), res.N,
		counts[query.Positive], counts[query.Neutral], counts[query.Negative])
}
