package builtin

import (
	"slices"

	"forma/internal/ai/query"
	"forma/internal/form"
)

// chatCond is one condition named in a message: a filter on a question's answers.
// q is nil for a bare "yes"/"no" that the conversation must bind to a question.
type chatCond struct {
	q    *chatQuestion
	f    query.Filter
	pos  int
	base bool // narrows the population (percent: the denominator) rather than being the share asked about
}

// chatParser holds one message being parsed.
type chatParser struct {
	cf    *chatForm
	ts    []chatToken
	words []string
	used  []bool
	conds []chatCond
}

// isNumeric reports whether q has numeric answers.
func chatIsNumeric(q *form.Question) bool {
	switch q.Type {
	case form.Rating, form.Number, form.Currency, form.Slider:
		return true
	}
	return false
}

// chatIsFreeText reports whether q takes written text.
func chatIsFreeText(q *form.Question) bool { return q.Type == form.Text || q.Type == form.Textarea }

// chatIsTextLike reports whether q's answers are strings that are not choices.
func chatIsTextLike(q *form.Question) bool {
	switch q.Type {
	case form.Text, form.Textarea, form.Email, form.Phone, form.URL, form.FileUpload:
		return true
	}
	return false
}

// add records a condition.
func (p *chatParser) add(q *chatQuestion, f query.Filter, pos int) {
	if q != nil {
		f.Question = q.q.ID
	}
	p.conds = append(p.conds, chatCond{q: q, f: f, pos: pos})
}

// word returns the word at i, "" outside the message.
func (p *chatParser) word(i int) string {
	if i < 0 || i >= len(p.words) {
		return ""
	}
	return p.words[i]
}

// chatCmpBefore are comparisons written before a number, longest first.
var chatCmpBefore = []struct {
	phrase string
	op     query.Op
}{
	{"no more than", query.LTE}, {"no less than", query.GTE}, {"not more than", query.LTE},
	{"more than", query.GT}, {"greater than", query.GT}, {"higher than", query.GT}, {"bigger than", query.GT},
	{"larger than", query.GT}, {"over", query.GT}, {"above", query.GT}, {"exceeding", query.GT},
	{"at least", query.GTE}, {"minimum of", query.GTE}, {"> =", query.GTE}, {">", query.GT},
	{"less than", query.LT}, {"fewer than", query.LT}, {"lower than", query.LT}, {"smaller than", query.LT},
	{"under", query.LT}, {"below", query.LT}, {"at most", query.LTE}, {"maximum of", query.LTE},
	{"up to", query.LTE}, {"< =", query.LTE}, {"<", query.LT}, {"exactly", query.Equals}, {"equal to", query.Equals},
	{"=", query.Equals},
}

// chatCmpAfter are comparisons written after a number.
var chatCmpAfter = []struct {
	phrase string
	op     query.Op
}{
	{"or more", query.GTE}, {"or higher", query.GTE}, {"or above", query.GTE}, {"or better", query.GTE},
	{"or greater", query.GTE}, {"or over", query.GTE}, {"+", query.GTE}, {"and up", query.GTE},
	{"and above", query.GTE}, {"plus", query.GTE}, {"or less", query.LTE}, {"or lower", query.LTE},
	{"or below", query.LTE}, {"or fewer", query.LTE}, {"or worse", query.LTE}, {"or under", query.LTE},
	{"and below", query.LTE}, {"and under", query.LTE},
}

// chatUnits are words between a number and a comparison after it ("5 stars or more").
var chatUnits = chatSet("star stars time times dollar dollars usd eur gbp point points")

// endsAt reports whether the words ending at position j spell phrase.
func (p *chatParser) endsAt(j int, phrase string) bool {
	i, ok := chatHasPhrase(p.words[max(0, j-3):j+1], phrase)
	return ok && max(0, j-3)+i+len(chatWordsOf(phrase))-1 == j
}

// chatWordsOf splits a phrase into words.
func chatWordsOf(phrase string) []string { return chatTokensWords(phrase) }

// chatTokensWords returns the lower-case words of a phrase.
func chatTokensWords(phrase string) []string { return chatWords(chatTokens(phrase)) }

// startsAt reports whether the words from position i spell phrase.
func (p *chatParser) startsAt(i int, phrase string) bool {
	w := chatWordsOf(phrase)
	if i+len(w) > len(p.words) {
		return false
	}
	return slices.Equal(p.words[i:i+len(w)], w)
}

// comparison reads the comparison around the number at i: its operator, bounds and
// token range.
func (p *chatParser) comparison(i int) (op query.Op, lo, hi float64, start, end int) {
	lo, hi, start, end = p.ts[i].num, p.ts[i].num, i, i+1
	if r, ok := p.rangeAround(i); ok {
		return query.Between, r[0], r[1], int(r[2]), int(r[3])
	}
	j := i - 1
	if p.word(j) == "$" {
		j--
	}
	for _, c := range chatCmpBefore {
		if j >= 0 && p.endsAt(j, c.phrase) {
			return c.op, lo, hi, j - len(chatWordsOf(c.phrase)) + 1, end
		}
	}
	k := i + 1
	for chatUnits[p.word(k)] {
		k++
	}
	for _, c := range chatCmpAfter {
		if p.startsAt(k, c.phrase) {
			return c.op, lo, hi, start, k + len(chatWordsOf(c.phrase))
		}
	}
	return query.Equals, lo, hi, start, end
}

// rangeAround reads "between N and M", "from N to M", "N to M" and "N or M" at the
// number i: lower, upper, start and end.
func (p *chatParser) rangeAround(i int) ([4]float64, bool) {
	if i+2 >= len(p.ts) || !p.ts[i+2].isNum {
		return [4]float64{}, false
	}
	mid, prev := p.word(i+1), p.word(i-1)
	ok := (prev == "between" && mid == "and") || (prev == "from" && mid == "to") || mid == "to" || mid == "or"
	if !ok {
		return [4]float64{}, false
	}
	a, b := p.ts[i].num, p.ts[i+2].num
	start := i
	if prev == "between" || prev == "from" {
		start = i - 1
	}
	return [4]float64{min(a, b), max(a, b), float64(start), float64(i + 3)}, true
}

// numbers turns the comparisons of numbers with numeric questions into conditions.
func (p *chatParser) numbers() {
	for i := 0; i < len(p.ts); i++ {
		t := p.ts[i]
		if !t.isNum || p.used[i] || chatYear(t.low) > 0 && p.word(i-1) != "$" {
			continue
		}
		q := p.numberQuestion(i)
		if q == nil {
			continue
		}
		op, lo, hi, start, end := p.comparison(i)
		f := query.Filter{Op: op, Value: lo}
		if op == query.Between {
			f.To = hi
		}
		p.add(q, f, start)
		for k := start; k < end; k++ {
			p.used[k] = true
		}
		p.cf.absorb(p.ts, p.used, q, start, end, 4)
		i = end - 1
	}
}

// numberQuestion picks the numeric question a number at i is about: the one whose
// words are nearest in the same clause; "$" points at currency questions.
func (p *chatParser) numberQuestion(i int) *chatQuestion {
	var best *chatQuestion
	bestScore := 0.0
	for qi := range p.cf.qs {
		q := &p.cf.qs[qi]
		if !chatIsNumeric(q.q) {
			continue
		}
		score := p.nearScore(i, q)
		if q.q.Type == form.Currency && p.word(i-1) == "$" {
			score += 2
		}
		if score > bestScore {
			best, bestScore = q, score
		}
	}
	return best
}

// nearScore weighs the words of q found near position i, within its clause.
func (p *chatParser) nearScore(i int, q *chatQuestion) float64 {
	score := 0.0
	for _, dir := range []int{-1, 1} {
		for k := i + dir; k >= 0 && k < len(p.ts) && chatAbs(k-i) <= 6; k += dir {
			t := p.ts[k]
			if t.low == "," || t.low == "?" || (p.used[k] && dir < 0 && t.isNum) {
				break
			}
			if (t.stem != "" && slices.Contains(q.stems, t.stem)) || chatTypeCues[q.q.Type][t.low] {
				score += 1 / float64(chatAbs(k-i))
			}
		}
	}
	return score
}

// chatAbs returns |n|.
func chatAbs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// chatNegators negate the condition that follows them.
var chatNegators = chatSet("not never no without nor neither")

// negatedBefore reports whether a negation stands among the n words before i, in
// the same clause and not inside another condition; the words from the negation
// on are marked used.
func (p *chatParser) negatedBefore(i, n int) bool {
	for k := i - 1; k >= max(0, i-n); k-- {
		if p.words[k] == "," || p.words[k] == "who" || p.words[k] == "that" || p.used[k] {
			return false
		}
		if chatNegators[p.words[k]] {
			for j := k; j < i; j++ {
				p.used[j] = true
			}
			return true
		}
	}
	return false
}

// options turns the options named in the message into conditions.
func (p *chatParser) options() []chatMention {
	ms := p.cf.mentions(p.ts, p.used)
	for _, m := range ms {
		op := query.Equals
		if p.negatedBefore(m.start, 4) {
			op = query.NotEquals
		}
		p.add(m.q, query.Filter{Op: op, Value: m.label}, m.start)
		for k := m.start; k < m.end; k++ {
			p.used[k] = true
		}
		p.cf.absorb(p.ts, p.used, m.q, m.start, m.end, 3)
	}
	return ms
}

// yesNo finds yes_no questions named by their distinctive words ("would recommend
// us") and turns them into conditions, negated by "not", "no" or "said no to".
func (p *chatParser) yesNo() {
	for qi := range p.cf.qs {
		q := &p.cf.qs[qi]
		if q.q.Type != form.YesNo {
			continue
		}
		for i, t := range p.ts {
			if p.used[i] || t.stem == "" || !slices.Contains(q.stems, t.stem) || p.cf.df[t.stem] != 1 {
				continue
			}
			p.add(q, query.Filter{Op: query.Equals, Value: !p.negatedBefore(i, 4)}, i)
			p.markSaid(i)
			p.used[i] = true
			p.cf.absorb(p.ts, p.used, q, i, i+1, 5)
			break
		}
	}
}

// chatAnswerVerbs introduce a text-like question that was answered ("left a
// comment", "gave their email").
var chatAnswerVerbs = chatSet("left leave leaving gave give giving provided provide wrote write writing shared share " +
	"included include added add entered enter submitted commented filled with without")

// answeredText turns "left a comment" or "without an email" into is_not_empty or
// is_empty conditions on text-like questions.
func (p *chatParser) answeredText() {
	for i, w := range p.words {
		if !chatAnswerVerbs[w] || p.used[i] {
			continue
		}
		for k := i + 1; k < len(p.ts) && k <= i+4; k++ {
			q := p.textQuestionAt(k)
			if q == nil {
				continue
			}
			op := query.IsNotEmpty
			if w == "without" || p.negatedBefore(i, 3) {
				op = query.IsEmpty
			}
			p.add(q, query.Filter{Op: op}, i)
			p.used[i], p.used[k] = true, true
			break
		}
	}
}

// textQuestionAt returns the text-like question the word at k names, if any.
func (p *chatParser) textQuestionAt(k int) *chatQuestion {
	t := p.ts[k]
	if p.used[k] {
		return nil
	}
	for qi := range p.cf.qs {
		q := &p.cf.qs[qi]
		if !chatIsTextLike(q.q) {
			continue
		}
		if chatTypeCues[q.q.Type][t.low] || (t.stem != "" && slices.Contains(q.stems, t.stem) && p.cf.df[t.stem] == 1) {
			return q
		}
	}
	return nil
}

// chatSentimentWords name sentiment classes.
var chatSentimentWords = map[string]string{
	"positive": query.Positive, "negative": query.Negative, "neutral": query.Neutral,
	"happy": query.Positive, "unhappy": query.Negative, "angry": query.Negative, "complaints": query.Negative,
}

// sentimentWords returns the sentiment classes named in the message, marking them.
func (p *chatParser) sentimentWords() []string {
	var out []string
	for i, w := range p.words {
		if c, ok := chatSentimentWords[w]; ok && !p.used[i] && !slices.Contains(out, c) {
			out = append(out, c)
			p.used[i] = true
		}
	}
	return out
}

// freeTextQuestion returns the free-text question the message names, or the form's
// first one.
func (p *chatParser) freeTextQuestion(scores []float64) *chatQuestion {
	var best *chatQuestion
	bestScore := 0.0
	for qi := range p.cf.qs {
		if q := &p.cf.qs[qi]; chatIsFreeText(q.q) && (best == nil || scores[qi] > bestScore) {
			best, bestScore = q, scores[qi]
		}
	}
	return best
}

// chatSayVerbs introduce a yes or no answer.
var chatSayVerbs = chatSet("said say saying answered answer voted chose picked replied ticked")

// unboundYesNo finds "said no", "answered yes" and similar answers that name no
// question; it returns the answer.
func (p *chatParser) unboundYesNo() (value, ok bool) {
	for i, w := range p.words {
		if (w != "yes" && w != "no") || p.used[i] {
			continue
		}
		prev := p.word(i - 1)
		if chatSayVerbs[prev] || p.word(i+1) == "?" || p.word(i+1) == "" || p.word(i+1) == "to" {
			p.used[i] = true
			if chatSayVerbs[prev] {
				p.used[i-1] = true
			}
			return w == "yes", true
		}
	}
	return false, false
}

// markSaid marks "said yes to" / "answered no to" before position i as used, so
// that "said" does not point at a text question.
func (p *chatParser) markSaid(i int) {
	for k := i - 1; k >= max(0, i-4); k-- {
		if chatSayVerbs[p.words[k]] || p.words[k] == "yes" || p.words[k] == "no" || p.words[k] == "to" {
			p.used[k] = true
		}
	}
}

// chatPickVerbs answer a choice question ("did not pick any features").
var chatPickVerbs = chatSet("pick picked choose chose select selected use used answer answered tick ticked mention mentioned")

// noneChosen turns "did not pick any <question>" into an is_empty condition and
// "picked any <question>" into is_not_empty.
func (p *chatParser) noneChosen() {
	for i, w := range p.words {
		if !chatPickVerbs[w] || p.used[i] || p.word(i+1) != "any" {
			continue
		}
		for k := i + 2; k < len(p.ts) && k <= i+3; k++ {
			q := p.namedAt(k)
			if q == nil {
				continue
			}
			op := query.IsNotEmpty
			if p.negatedBefore(i, 3) {
				op = query.IsEmpty
			}
			p.add(q, query.Filter{Op: op}, i)
			p.used[i], p.used[i+1], p.used[k] = true, true, true
			return
		}
	}
}

// namedAt returns the question whose distinctive word is at k.
func (p *chatParser) namedAt(k int) *chatQuestion {
	t := p.ts[k]
	if p.used[k] || t.stem == "" || p.cf.df[t.stem] != 1 {
		return nil
	}
	for qi := range p.cf.qs {
		if slices.Contains(p.cf.qs[qi].stems, t.stem) {
			return &p.cf.qs[qi]
		}
	}
	return nil
}
