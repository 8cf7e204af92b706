package chat

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"forma/internal/ai/query"
	"forma/internal/ai/text"
	"forma/internal/form"
)

// groupFigure words the figure of one group.
func (s *session) groupFigure(in *request, m query.Metric, r query.Result) string {
	switch {
	case m == query.Count:
		return fmt.Sprintf("%d responses", r.N)
	case r.Value == nil && r.Text != "":
		return fmt.Sprintf("%s (%d answers)", r.Display, r.N) // the earliest or latest date
	case r.Value == nil:
		return "no answers"
	case m == query.Percent:
		return fmt.Sprintf("%s (%d of %d)", r.Display, r.N, r.Matched)
	case m == query.Sentiment:
		counts := map[string]int{}
		for _, bk := range r.Buckets {
			counts[bk.Label] = bk.Count
		}
		return fmt.Sprintf("%s, %s (%d answers: %d positive, %d neutral, %d negative)", query.Format(*r.Value),
			query.SentimentClass(*r.Value), r.N, counts[query.Positive], counts[query.Neutral], counts[query.Negative])
	case in.target != nil:
		return fmt.Sprintf("%s (%d answers)", query.FormatValue(in.target.q, *r.Value), r.N)
	}
	return fmt.Sprintf("%s (%d answers)", query.Format(*r.Value), r.N)
}

// scalarMetric reports whether a metric gives one figure per group.
func scalarMetric(m query.Metric) bool {
	switch m {
	case query.Top, query.Distribution, query.List, query.Trend, query.Mode, query.Words:
		return false
	}
	return true
}

// groupsShown returns the groups to show: the compared ones, in the order named.
func (s *session) groupsShown(in *request, res *query.Result) []query.Group {
	if len(in.compare) == 0 {
		return res.Groups
	}
	var out []query.Group
	for _, label := range in.compare {
		for _, g := range res.Groups {
			if strings.EqualFold(g.Label, label) {
				out = append(out, g)
			}
		}
	}
	return out
}

// replyGroups lists the figure of every group of the breakdown question.
func (s *session) replyGroups(in *request, p queryPlan, res *query.Result) string {
	if (p.q.Metric == query.Distribution || p.q.Metric == query.Top) && in.target != nil && groupable(in.target.q) {
		return s.replyCross(in, p, res)
	}
	if !scalarMetric(p.q.Metric) {
		in.ambiguous = fmt.Sprintf("I give this figure over all the answers, not for each answer to %s; ask for it among those who gave one answer at a time",
			text.Quote(in.groupBy.q.Text)) // never the figure of everyone for a question asked by group
		return s.cannotChoose(in)
	}
	g := in.groupBy.q
	var b strings.Builder
	fmt.Fprintf(&b, "%s by answer to %s%s:", s.figureTitle(in, p), text.Quote(g.Text), s.scope(p.base, p, res.Matched))
	shown := s.groupsShown(in, res)
	for _, grp := range shown {
		fmt.Fprintf(&b, "\n- %s: %s", answerLabel(g, grp.Label), s.groupFigure(in, p.q.Metric, grp.Result))
	}
	if len(in.compare) > 0 && p.q.Metric == query.Count {
		b.WriteString(mostCommon(g, shown))
	}
	if len(in.compare) > 1 && g.Type == form.Select {
		b.WriteString(together(in, p.q.Metric, shown))
	}
	return b.String()
}

// together words the combined count or sum of compared answers of a
// single-choice question ("how many Germans and French", "the total paid by VIP
// and Regular attendees"), whose groups cannot overlap; "" for other figures.
func together(in *request, m query.Metric, groups []query.Group) string {
	n, sum := 0, 0.0
	for _, grp := range groups {
		n += grp.Result.N
		if grp.Result.Value != nil {
			sum += *grp.Result.Value
		}
	}
	switch {
	case m == query.Count:
		return fmt.Sprintf("\nTogether: %d responses.", n)
	case m == query.Sum && in.target != nil:
		return fmt.Sprintf("\nTogether: %s (from %d answers).", query.FormatValue(in.target.q, sum), n)
	}
	return ""
}

// mostCommon names the compared answer(s) given most often.
func mostCommon(g *form.Question, groups []query.Group) string {
	best := 0
	for _, grp := range groups {
		best = max(best, grp.Result.N)
	}
	var names []string
	for _, grp := range groups {
		if grp.Result.N == best {
			names = append(names, answerLabel(g, grp.Label))
		}
	}
	if len(names) > 1 {
		return "\n" + andList(names) + " are tied."
	}
	return "\n" + names[0] + " is the more common answer."
}

// figureTitle names the figure of a breakdown ("Average answer to “…”").
func (s *session) figureTitle(in *request, p queryPlan) string {
	switch p.q.Metric {
	case query.Count:
		return "Responses"
	case query.Percent:
		return "Share of responses that " + andList(s.preds(p.match, queryPlan{}))
	case query.Sentiment:
		return "Sentiment of the written answers"
	}
	return text.Capitalize(figureName(p.q.Metric, in.target.q)) + " answer to " + text.Quote(in.target.q.Text)
}

// isDateLike reports whether q's answers are dates or times.
func isDateLike(q *form.Question) bool { return q.Type == form.Date || q.Type == form.Time }

// figureName names the figure m of q's answers: "earliest" and "latest" for the
// extremes of dates and times.
func figureName(m query.Metric, q *form.Question) string {
	if isDateLike(q) {
		if name := map[query.Metric]string{query.Min: "earliest", query.Max: "latest"}[m]; name != "" {
			return name
		}
	}
	return figureNames[m]
}

// replyArg names the group with the highest (or lowest) figure, naming ties;
// "top 3 departments by satisfaction" lists the three, ranked.
func (s *session) replyArg(in *request, p queryPlan, res *query.Result) string {
	if !scalarMetric(p.q.Metric) || len(res.Groups) == 0 {
		return s.replyMetric(in, p, res)
	}
	high := in.kind == highestGroup
	ranked := rankGroups(s.groupsShown(in, res), high)
	if len(ranked) == 0 {
		return s.replyGroups(in, p, res)
	}
	if in.limit > 1 {
		return s.replyRanked(in, p, res, ranked)
	}
	best := ranked[0]
	var names []string
	for _, g := range ranked {
		if query.Format(*g.Result.Value) == query.Format(*best.Result.Value) {
			names = append(names, answerLabel(in.groupBy.q, g.Label))
		}
	}
	of := "the answers to " + text.Quote(in.groupBy.q.Text)
	if len(in.compare) > 0 {
		var compared []string
		for _, label := range in.compare {
			compared = append(compared, answerLabel(in.groupBy.q, label))
		}
		of = andList(compared) + " (" + of + ")" // the groups compared, not all of them
	}
	return fmt.Sprintf("Of %s, %s %s the %s %s%s: %s.",
		of, andList(names), map[bool]string{true: "has", false: "have"}[len(names) == 1],
		extremeWord(high), lowerFirst(s.figureTitle(in, p)), s.scope(p.base, p, res.Matched),
		s.groupFigure(in, p.q.Metric, best.Result))
}

// replyRanked lists the in.limit groups with the highest (or lowest) figure in
// order, with any group tied with the last of them.
func (s *session) replyRanked(in *request, p queryPlan, res *query.Result, ranked []query.Group) string {
	n := min(in.limit, len(ranked))
	for n < len(ranked) && query.Format(*ranked[n].Result.Value) == query.Format(*ranked[n-1].Result.Value) {
		n++
	}
	var b strings.Builder
	fmt.Fprintf(&b, "The %d answers to %s with the %s %s%s:", n, text.Quote(in.groupBy.q.Text),
		extremeWord(in.kind == highestGroup), lowerFirst(s.figureTitle(in, p)), s.scope(p.base, p, res.Matched))
	for i, g := range ranked[:n] {
		fmt.Fprintf(&b, "\n%d. %s: %s", i+1, answerLabel(in.groupBy.q, g.Label), s.groupFigure(in, p.q.Metric, g.Result))
	}
	if n > in.limit {
		b.WriteString("\nThe last places are tied.")
	}
	return b.String()
}

// rankGroups returns the groups with a figure, the highest (or lowest) first.
func rankGroups(groups []query.Group, high bool) []query.Group {
	var out []query.Group
	for _, g := range groups {
		if g.Result.Value != nil {
			out = append(out, g)
		}
	}
	slices.SortStableFunc(out, func(a, b query.Group) int {
		if high {
			return cmp.Compare(*b.Result.Value, *a.Result.Value)
		}
		return cmp.Compare(*a.Result.Value, *b.Result.Value)
	})
	return out
}

// extremeWord names the end of a ranking.
func extremeWord(high bool) string {
	if high {
		return "highest"
	}
	return "lowest"
}

// lowerFirst lowers the first letter of s.
func lowerFirst(s string) string { return strings.ToLower(s[:1]) + s[1:] }

// cannot says the question could not be mapped to the data and suggests questions
// about this form.
func (s *session) cannot() string {
	var b strings.Builder
	b.WriteString("I can't answer that from this form's responses: I can only compute figures from the answers.")
	s.suggest(&b)
	return b.String()
}

// suggest ends a refusal with questions the chat can answer about this form.
func (s *session) suggest(b *strings.Builder) {
	b.WriteString(" You could ask, for example:")
	for _, ex := range s.examples() {
		b.WriteString("\n- " + ex)
	}
}

// noResponses answers any question about a form without responses.
func (s *session) noResponses() string {
	var b strings.Builder
	b.WriteString("This form has no responses yet, so there is nothing to count or average. Once responses arrive, you can ask, for example:")
	for _, ex := range s.examples() {
		b.WriteString("\n- " + ex)
	}
	return b.String()
}

// examples builds three to five questions the chat can answer about this form,
// from its own question texts.
func (s *session) examples() []string {
	var out []string
	num := s.cf.firstOfType(form.Rating, form.Slider, form.Number, form.Currency)
	yn := s.cf.firstOfType(form.YesNo)
	choice := s.cf.firstOfType(form.Select, form.MultiSelect)
	written := s.cf.firstOfType(form.Textarea, form.Text)
	if num != nil {
		out = append(out, "What is the average answer to "+text.Quote(num.q.Text)+"?")
	}
	if yn != nil {
		out = append(out, "What percentage answered yes to "+text.Quote(yn.q.Text)+"?")
	}
	if choice != nil {
		out = append(out, "What is the most common answer to "+text.Quote(choice.q.Text)+"?")
	}
	if written != nil {
		out = append(out, "What are the latest answers to "+text.Quote(written.q.Text)+"?")
	}
	if num != nil && choice != nil {
		out = append(out, "What is the average answer to "+text.Quote(num.q.Text)+" by "+text.Quote(choice.q.Text)+"?")
	}
	out = append(out, "How many responses came in last week?", "How have responses trended per month?")
	return out[:min(5, len(out))]
}
