package chat

import (
	"fmt"
	"slices"

	"forma/internal/ai/query"
	"forma/internal/ai/text"
	"forma/internal/form"
)

// Questions framed for a yes or no: "is the average rating above 4?" checks one
// figure against a number; "are most attendees coming back?" asks for a share;
// "do Germans rate higher than the French?" compares two groups.

// figureCheck is the number a yes/no question compares its figure with.
type figureCheck struct {
	f       query.Filter // Op and Value: the comparison the figure must pass
	percent bool         // the number was given as a percentage
	count   bool         // "are there more than 50 responses?": the figure is a count
	// share is set by "do more than half of …": a share of the respondents named
	// from position after on.
	share bool
	after int
}

// auxiliaries open a question framed for a yes or no.
var auxiliaries = text.Set("is are was were does do did has have")

// checkStats are the statistics a yes/no question can check.
// "rate" checks a share given as a percentage ("is the recommendation rate over 50%?").
var checkStats = text.Set("average avg mean median total sum percentage percent share rate highest lowest max min maximum minimum")

// checkStops end the span between a statistic and its check: a clause there
// ("the average of people with more than 3 cups") makes the number a filter.
var checkStops = text.Set("who that with whose among amongst where which whom")

// statCheck reads "is the average … above 4?" and "average satisfaction in
// Support, and is it below 3?": the comparison after the statistic (or after
// "is it") is what the figure is checked against, not a filter. Its words are
// marked used.
func (p *parser) statCheck() *figureCheck {
	if c := p.shareCheck(); c != nil {
		return c
	}
	if auxiliaries[p.word(0)] && trueThat.At(p.words, 1) {
		for k := 1; k <= len(trueThat); k++ {
			p.used[k] = true // "is it true that the average …"
		}
	}
	if auxiliaries[p.word(0)] && itWords[p.word(1)] && !slices.ContainsFunc(p.words, func(w string) bool { return checkStats[w] }) {
		if c := p.checkAfter(1, 1); c != nil {
			p.used[0], p.used[1] = true, true // "is that above 4?": the previous figure, checked
			return c
		}
	}
	a := slices.IndexFunc(p.words, func(w string) bool { return checkStats[w] })
	if a < 0 {
		return p.countCheck()
	}
	from := -1
	switch {
	case auxiliaries[p.word(0)]:
		from = a
	default:
		for j := 1; j+1 < len(p.words); j++ {
			if auxiliaries[p.words[j]] && itWords[p.words[j+1]] && (p.words[j-1] == "and" || p.words[j-1] == "," || p.ts[j].sentence != p.ts[j-1].sentence) {
				from = j + 1
				p.used[j], p.used[j+1] = true, true
				break
			}
		}
	}
	if from < 0 {
		return nil
	}
	c := p.checkAfter(from, a)
	if c != nil {
		p.used[0] = p.used[0] || auxiliaries[p.word(0)]
	}
	return c
}

// trueThat follows an auxiliary without changing what is asked.
var trueThat = phrase("it true that")

// shareCheck reads "do more than half of the people …", "did more than 60%
// say …": a share checked against a percentage.
func (p *parser) shareCheck() *figureCheck {
	if !auxiliaries[p.word(0)] {
		return nil
	}
	for _, c := range cmpBefore {
		if !c.phrase.At(p.words, 1) {
			continue
		}
		j := 1 + len(c.phrase)
		var v float64
		end := j + 1
		switch {
		case p.word(j) == "half":
			v = 50
		case j+1 < len(p.ts) && p.ts[j].isNum && p.word(j+1) == "%":
			v, end = p.ts[j].num, j+2
		default:
			return nil
		}
		for k := 0; k < end; k++ {
			p.used[k], p.cueWords[k] = true, ""
		}
		return &figureCheck{f: query.Filter{Op: c.op, Value: v}, percent: true, share: true, after: end}
	}
	return nil
}

// countCheck reads "are there more than 50 responses?", "did more than 10 people
// start before 2016?": a count checked against the number, which must be followed
// by a word for the respondents or their answers.
func (p *parser) countCheck() *figureCheck {
	if !auxiliaries[p.word(0)] {
		return nil
	}
	start := 1
	if trueThat.At(p.words, 1) {
		start += len(trueThat) // "is it true that fewer than 20 people use childcare?"
	}
	if p.word(start) == "we" && gotWords[p.word(start+1)] {
		start += 2 // "did we get more than 20 responses in October?"
	}
	there := p.word(start) == "there"
	if there {
		start++
	}
	if !there && !slices.ContainsFunc(cmpBefore, func(c cmpPhrase) bool { return c.phrase.At(p.words, start) }) {
		return nil // "did more than 10 people start before 2016?" opens with the comparison
	}
	for i := start; i < len(p.ts) && i <= start+3; i++ {
		if !p.ts[i].isNum {
			continue
		}
		if w := p.word(i + 1); !aboutWords[w] && !groupNouns[w] && !listedThings[w] {
			return nil
		}
		c := p.checkAfter(start-1, start-1)
		if c != nil {
			for k := 0; k < start; k++ {
				p.used[k] = true
			}
			c.count = true
		}
		return c
	}
	return nil
}

// gotWords say responses came in: "did we get …".
var gotWords = text.Set("get got have had receive received")

// itWords stand for the figure asked in "… and is it below 3?".
var itWords = text.Set("it that this")

// checkAfter reads the first comparison with a number after position from.
func (p *parser) checkAfter(from, stat int) *figureCheck {
	for i := from + 1; i < len(p.ts); i++ {
		if checkStops[p.words[i]] || p.words[i] == "," {
			return nil
		}
		if !p.ts[i].isNum || p.used[i] {
			continue
		}
		op, lo, _, start, end := p.comparison(i, &question{q: &form.Question{}})
		if op == query.Equals || op == query.Between || start <= from {
			return nil
		}
		c := &figureCheck{f: query.Filter{Op: op, Value: lo}}
		if p.word(i+1) == "%" {
			c.percent = true
			end = max(end, i+2)
		}
		if p.word(stat) == "rate" && !c.percent {
			return nil
		}
		for k := start; k < end; k++ {
			p.used[k], p.cueWords[k] = true, ""
		}
		return c
	}
	return nil
}

// majorityOf asks whether most of a group do something.
var majorityOf = phrase("majority of")

// majorityAsked returns the position of the respondents' noun in "are most
// attendees …", "did most VIP attendees …": a share of them; -1 when the
// message does not ask so.
func (p *parser) majorityAsked(check *figureCheck) int {
	from := 2
	switch {
	case check != nil && check.share:
		from = check.after
		for p.word(from) == "of" || p.word(from) == "the" || p.word(from) == "our" || p.word(from) == "all" {
			from++
		}
	case auxiliaries[p.word(0)] && majorityOf.Index(p.words) > 0 && majorityOf.Index(p.words) <= 3:
		m := majorityOf.Index(p.words) // "does the majority of Italians recommend us", "is it the majority of UK customers who …"
		from = m + 2
		p.used[m], p.cueWords[m] = true, ""
	case !auxiliaries[p.word(0)] || p.word(1) != "most":
		return -1
	}
	for k := from; k <= from+2; k++ {
		if groupNouns[p.word(k)] || peopleNouns[p.word(k)] || k == from && p.word(k) == "of" {
			return k
		}
	}
	for _, c := range p.conds {
		if c.pos == from && c.q != nil && c.q.q.Type != form.YesNo {
			return from + 1 // "did most Germans recommend us": the option names the respondents
		}
	}
	if check != nil && check.share {
		return from // "did more than 60% say …": everyone
	}
	return -1
}

// majorityBase makes the conditions before the respondents' noun of "did most
// VIP attendees …" the population of the share, and the first one of a clause
// right after it ("most people in the Madrid office …").
func (p *parser) majorityBase(noun int) {
	match := false
	for _, c := range p.conds {
		match = match || c.pos >= noun
	}
	if !match {
		return
	}
	first, after := -1, 0
	for i, c := range p.conds {
		p.conds[i].base = c.pos < noun
		if c.pos >= noun {
			after++
			if first < 0 || c.pos < p.conds[first].pos {
				first = i
			}
		}
	}
	if clauseWords[p.word(noun+1)] && after >= 2 {
		p.conds[first].base = true // "do most people in the Madrid office work remotely?"
	}
}

// verdict words whether the figure v passes the check: "So yes: 4.12 is more
// than 4."; false when the check does not fit the figure computed.
func (c *figureCheck) verdict(m query.Metric, display string, v float64) (string, bool) {
	if c.percent != (m == query.Percent) {
		return "", false
	}
	want := c.f.Value.(float64)
	pass := map[query.Op]bool{query.GT: v > want, query.GTE: v >= want, query.LT: v < want, query.LTE: v <= want}[c.f.Op]
	than := cmpText(&form.Question{Type: form.Number}, c.f)
	if c.percent {
		than += " percent"
	}
	if pass {
		return fmt.Sprintf(" So yes: %s is %s.", display, than), true
	}
	return fmt.Sprintf(" So no: %s is not %s.", display, than), true
}

// comparativeWords say which way two groups are compared ("higher than").
var comparativeWords = text.Set("higher lower better worse more less greater bigger smaller larger fewer longer shorter")

// thanGroups reads "Germans rate higher than the French", "is latte more popular
// than tea": a comparison word before "than" between two options of one
// question, one before "than" and one after. Its words are marked used; it
// reports whether one was found.
func (p *parser) thanGroups() bool {
	i := slices.Index(p.words, "than")
	if i < 0 || p.used[i] {
		return false
	}
	c := -1
	for k := i - 1; k >= max(0, i-4) && c < 0 && p.words[k] != ","; k-- {
		if comparativeWords[p.words[k]] {
			c = k
		}
	}
	if c < 0 {
		return false
	}
	if p.optionPair(i) {
		p.used[c], p.used[i], p.cueWords[c] = true, true, ""
		return true
	}
	return p.thanOthers(c, i)
}

// comparedPair reads "do tea or espresso drinkers rate us higher?" and "tea vs
// espresso, who rates us higher?": a comparison word with no "than", in a message
// naming two options of one question, compares them. Its word is marked used.
func (p *parser) comparedPair() bool {
	if slices.Contains(p.words, "than") {
		return false
	}
	c := slices.IndexFunc(p.words, func(w string) bool { return comparativeWords[w] })
	if c < 0 || p.used[c] {
		return false
	}
	if p.optionPair(-1) {
		p.used[c], p.cueWords[c] = true, ""
		return true
	}
	return false
}

// optionPair reports whether the message names two options of one question,
// one before split and one after it (anywhere when split is negative).
func (p *parser) optionPair(split int) bool {
	for _, a := range p.conds {
		for _, b := range p.conds {
			if a.q != nil && a.q == b.q && a.pos < b.pos && (split < 0 || a.pos < split && b.pos > split) &&
				a.f.Op == query.Equals && b.f.Op == query.Equals && len(a.q.options) > 0 {
				return true
			}
		}
	}
	return false
}

// othersWords name the respondents a group is compared with ("than the others").
var othersWords = text.Set("others rest else")

// thanOthers reads "remote workers are more satisfied than the others": the one
// yes_no condition before "than" becomes the breakdown (yes against no).
func (p *parser) thanOthers(c, i int) bool {
	k := i + 1
	for k < len(p.words) && (p.words[k] == "the" || p.words[k] == "everyone" || p.words[k] == "everybody") {
		k++
	}
	if !othersWords[p.word(k)] || len(p.conds) != 1 || p.conds[0].q == nil || p.conds[0].q.q.Type != form.YesNo || p.conds[0].pos > i {
		return false
	}
	p.others = p.conds[0].q
	p.conds = nil
	for j := i + 1; j <= k; j++ {
		p.used[j] = true
	}
	p.used[c], p.used[i], p.cueWords[c] = true, true, ""
	return true
}
