package chat

import (
	"slices"
	"strings"

	"forma/internal/ai/text"
)

// markOwn finds the words of the message that belong to a question's own text
// ("cups per day" of the question “Cups per day”): they name the question, so
// their period words are not a time bucketing ("per day"), nor their "by" or "per"
// a breakdown. A period word after a question's word that the question's text
// states with another period ("hours per day" of “Hours worked per week”) is a
// clash: the form has no such figure.
func (p *parser) markOwn() {
	p.own = make([]bool, len(p.ts))
	for qi := range p.cf.qs {
		p.markRuns(p.cf.qs[qi].tokens)
	}
	for i, w := range p.words {
		if !periodWords[w] || p.own[i] || !perWords[p.word(i-1)] {
			continue
		}
		p.periodOfQuestion(i)
	}
	for i, w := range p.words {
		if period, ok := periodAdjectives[w]; ok && !p.own[i] {
			p.adjectiveOfQuestion(i, period)
		}
	}
	p.cueWords = slices.Clone(p.words)
	for i := range p.cueWords {
		if p.own[i] {
			p.cueWords[i] = ""
		}
	}
}

// markRuns marks runs of two or more consecutive message words found in a row,
// as they are or in another tense, in a question's text qts ("enjoyed most" of
// “Which session did you enjoy most?”), when the run holds a content word that
// is not a period. A "the" the text does not have may stand inside the run
// ("what did you like the most" of “What did you like most?”).
func (p *parser) markRuns(qts []token) {
	for i := range p.words {
		for j := range qts {
			n, matched, end := 0, 0, 0
			for i+n < len(p.words) && j+matched < len(qts) {
				if sameWord(p.ts[i+n], qts[j+matched]) {
					n, matched = n+1, matched+1
					end = n
				} else if n > 0 && p.words[i+n] == "the" {
					n++
				} else {
					break
				}
			}
			if matched >= 2 && p.hasContent(i, i+end) {
				for k := i; k < i+end; k++ {
					p.own[k] = true
				}
			}
		}
	}
}

// sameWord reports whether the message's word a is b, or b in another tense
// ("enjoyed", "enjoying": enjoy). A plural is not: "ticket types" asks for the
// types, not the question “Ticket type”.
func sameWord(a, b token) bool {
	return a.low == b.low || a.stem != "" && a.stem == b.stem && (strings.HasSuffix(a.low, "ed") || strings.HasSuffix(a.low, "ing"))
}

// hasContent reports whether the words [from, to) hold a content word that is not
// a period.
func (p *parser) hasContent(from, to int) bool {
	for k := from; k < to; k++ {
		if p.ts[k].stem != "" && !periodWords[p.words[k]] && !functionWords[p.words[k]] {
			return true
		}
	}
	return false
}

// perWords introduce a rate's period ("a day", "per week").
var perWords = text.Set("per a an each every")

// periodOfQuestion handles a period word at i that follows, within three words, a
// word of a question whose text states a period: the same period is the
// question's own; another one is a clash.
func (p *parser) periodOfQuestion(i int) {
	for qi := range p.cf.qs {
		q := &p.cf.qs[qi]
		stated := ""
		for _, w := range q.words {
			if periodWords[w] {
				stated = w
			}
		}
		if stated == "" || !p.namesBefore(q, i, 3) {
			continue
		}
		if singular(stated) != singular(p.words[i]) {
			p.clash = p.words[i]
			return
		}
		p.own[i] = true
		if perWords[p.word(i-1)] {
			p.own[i-1] = true
		}
		return
	}
}

// periodAdjectives name a period before a noun ("weekly hours").
var periodAdjectives = map[string]string{"daily": "day", "weekly": "week", "monthly": "month"}

// adjectiveOfQuestion handles a period adjective at i right before or after a
// word of a question whose text states a period: "weekly hours" of “Hours worked
// per week” and "cups daily" of “Cups per day” are the question's own; "daily
// hours" is a clash.
func (p *parser) adjectiveOfQuestion(i int, period string) {
	for qi := range p.cf.qs {
		q := &p.cf.qs[qi]
		stated := ""
		for _, w := range q.words {
			if periodWords[w] {
				stated = singular(w)
			}
		}
		after := i+1 < len(p.ts) && p.ts[i+1].stem != "" && slices.Contains(q.stems, p.ts[i+1].stem)
		before := p.namesBefore(q, i, 1) // "cups daily", "cups people have daily"
		if stated == "" || !after && !before {
			continue
		}
		if stated != period {
			p.clash = period
			return
		}
		p.own[i] = true
		return
	}
}

// namesBefore reports whether a content word of q that is not a period comes
// before i: among the free words right before it, or further back across the
// words that may stand in a rate ("cups per person per day", "cups people have
// daily", "cups does our biggest coffee drinker get through in a day", "cups a
// UK customer drinks in a day"), ten
// words back at most.
func (p *parser) namesBefore(q *question, i, free int) bool {
	for k := i - 1; k >= max(0, i-10); k-- {
		t := p.ts[k]
		if t.stem != "" && !periodWords[t.low] && slices.Contains(q.stems, t.stem) {
			return true
		}
		if i-k > free && !betweenRateWords[t.low] && !(t.stem != "" && (slices.Contains(p.cf.titleStems, t.stem) || p.cf.optionStem(t.stem))) {
			return false
		}
	}
	return false
}

// betweenRateWords may stand between a question's word and the period of its rate.
var betweenRateWords = text.Set("per a an each every person people ppl folks head capita they we you i " +
	"have has had drink drinks drank take takes consume consumes get gets usually typically normally on average avg " +
	"does do did our your their the biggest heaviest top drinker drinkers through")

// singular drops the plural of a period word.
func singular(w string) string {
	if len(w) > 3 && w[len(w)-1] == 's' {
		return w[:len(w)-1]
	}
	return w
}
