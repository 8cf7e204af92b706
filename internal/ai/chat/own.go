package chat

import (
	"slices"

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
		p.markRuns(p.cf.qs[qi].words)
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

// markRuns marks runs of two or more consecutive message words found in a row in
// qwords, when the run holds a content word that is not a period.
func (p *parser) markRuns(qwords []string) {
	for i := range p.words {
		for j := range qwords {
			n := 0
			for i+n < len(p.words) && j+n < len(qwords) && p.words[i+n] == qwords[j+n] {
				n++
			}
			if n >= 2 && p.hasContent(i, i+n) {
				for k := i; k < i+n; k++ {
					p.own[k] = true
				}
			}
		}
	}
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
		if stated == "" || !p.namesBefore(q, i) {
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
		before := i > 0 && p.ts[i-1].stem != "" && slices.Contains(q.stems, p.ts[i-1].stem) // "cups daily"
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

// namesBefore reports whether one of the three words before i is a content word
// of q that is not a period.
func (p *parser) namesBefore(q *question, i int) bool {
	for k := max(0, i-3); k < i; k++ {
		t := p.ts[k]
		if t.stem != "" && !periodWords[t.low] && slices.Contains(q.stems, t.stem) {
			return true
		}
	}
	return false
}

// singular drops the plural of a period word.
func singular(w string) string {
	if len(w) > 3 && w[len(w)-1] == 's' {
		return w[:len(w)-1]
	}
	return w
}
