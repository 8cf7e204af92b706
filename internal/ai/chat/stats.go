package chat

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"forma/internal/ai/query"
	"forma/internal/ai/text"
)

// ordinalSuffixes follow the number of a percentile ("90th").
var ordinalSuffixes = text.Set("th st nd rd")

// quartileWords name the quartiles by the words before "quartile".
var quartileWords = map[string]float64{"lower": 25, "first": 25, "1": 25, "second": 50, "2": 50, "upper": 75, "third": 75, "3": 75}

// percentile reads "90th percentile", "percentile 90", "p90", "the lower
// quartile" and "q3 of", marking them used; 0 when the message asks for none.
func (p *parser) percentile() float64 {
	for i, w := range p.words {
		if (w == "q1" || w == "q3") && p.word(i+1) == "of" && !(i+2 < len(p.ts) && p.ts[i+2].isNum) && !p.used[i] {
			p.used[i], p.used[i+1] = true, true // "q3 of cups a day": a quartile, not "q3 of 2025"
			return quartileWords[w[1:]]
		}
		if w == "quartile" && !p.used[i] {
			at := i - 1
			if ordinalSuffixes[p.word(at)] {
				at-- // "3rd quartile"
			}
			if n, ok := quartileWords[p.word(at)]; ok && at >= 0 {
				for k := at; k <= i; k++ {
					p.used[k] = true
				}
				return n
			}
		}
		if len(w) > 1 && w[0] == 'p' && !p.used[i] {
			if n, err := strconv.Atoi(w[1:]); err == nil && n > 0 && n < 100 {
				p.used[i] = true
				return float64(n)
			}
		}
		ordinal := ordinalSuffixes[p.word(i-1)] && (w == "percent" || w == "pct")
		if w != "percentile" && w != "percentiles" && !ordinal {
			continue // "90th pct" is a percentile, "90 percent" a share
		}
		at := i - 1
		if ordinalSuffixes[p.word(at)] {
			at--
		}
		if at < 0 || !p.ts[at].isNum {
			at = i + 1
		}
		if at < len(p.ts) && p.ts[at].isNum && p.ts[at].num > 0 && p.ts[at].num <= 100 {
			for k := min(at, i); k <= max(at, i); k++ {
				p.used[k] = true
			}
			return p.ts[at].num
		}
	}
	return 0
}

// mentionVerbs ask which text answers contain a word; talkVerbs do with "about"
// ("talk about the price").
var (
	mentionVerbs = text.Set("mention mentions mentioned mentioning contain contains containing")
	talkVerbs    = text.Set("talk talks talked talking complain complains complained speak speaks say says said write wrote written")
)

// mentions turns "comments that mention support" into a contains condition on the
// free-text question named (or the form's first), with the next content word.
func (p *parser) mentions(scores []float64) {
	for i, w := range p.words {
		about := w == "about" && listedThings[p.word(i-1)]                                                                          // "any comments about the reports?"
		said := (w == "say" || w == "says") && listedThings[p.word(i-1)] && (!fillerWords[p.word(i+1)] || vagueThings[p.word(i+1)]) // "how many comments say slow"
		n := phraseLenAt(topWordBack, p.words, i+1)
		usesWord := useVerbs[w] && n > 0 && p.word(i+n) == "word" // "how many comments use that word", not "what share uses the first one"
		if !(mentionVerbs[w] || talkVerbs[w] && p.word(i+1) == "about" || about || said || usesWord) || p.used[i] {
			continue
		}
		k := i + 1
		if strings.HasSuffix(w, "ed") && passiveBe[p.word(i-1)] && i >= 2 && p.ts[i-2].stem != "" && !p.used[i-2] {
			k = i - 2 // "onboarding is mentioned in how many comments"
		} else if strings.HasSuffix(w, "ed") && p.word(i+1) == "in" && i >= 1 && p.ts[i-1].stem != "" && !p.used[i-1] && !p.ts[i-1].isNum {
			k = i - 1 // "reports mentioned in how many comments"
		} else if n := phraseLenAt(topWordBack, p.words, i+1); n > 0 {
			q := p.freeTextQuestion(scores)
			if q == nil {
				return
			}
			p.add(q, query.Filter{Op: query.Contains}, i) // "how many mention the top one": the word the previous reply ranked first
			for j := i; j <= i+n; j++ {
				p.used[j] = true
			}
			p.topWordBack, p.thatWord = true, text.Any(p.words[i+1:i+1+n], thatWordPhrases)
			return
		} else if pronoun := p.mentionedPronoun(i); pronoun != "" {
			if k = p.topicWord(); k < 0 {
				p.unsure = fmt.Sprintf("I can't tell what “%s” refers to; name the word to look for", pronoun)
				return
			}
			p.used[k] = true // "onboarding: how many bring it up in their comments"
		}
		if said && vagueThings[p.word(k)] && p.word(k+1) == "about" {
			k += 2 // "comments say something about the reports"
		}
		for k < len(p.ts) && p.ts[k].stem == "" && !p.ts[k].isNum {
			k++
		}
		if wordNouns[p.word(k)] { // "the most mentioned words": the words themselves are asked
			p.used[i] = true
			continue
		}
		if (about || p.word(i+1) == "about") && (questionWords[p.word(k)] || k < len(p.ts) && p.aboutTheForm(k)) {
			continue // "answers about what they liked" name a question, not a word to search
		}
		q := p.freeTextQuestion(scores)
		if k >= len(p.ts) || q == nil {
			return
		}
		p.add(q, query.Filter{Op: query.Contains, Value: p.words[k]}, i)
		for j := i; j <= k; j++ {
			p.used[j] = true
		}
		p.cf.absorb(p.ts, p.used, q, 0, i, i)
		return
	}
}

// topWordBack after a mention verb points at the word a list of top words
// ranked first.
var topWordBack = append(phrases("the top one", "the first one", "the top word", "the first word", "the most common one",
	"the most common word", "the most frequent one", "the most frequent word", "the top 1"), thatWordPhrases...)

// thatWordPhrases point at the one word a list named; after a list of several
// they could be any.
var thatWordPhrases = phrases("that word", "this word")

// useVerbs say a written answer holds a word ("use that word").
var useVerbs = text.Set("use uses used using")

// phraseLenAt returns the length of the first of phs found at i in ws, or 0.
func phraseLenAt(phs []text.Phrase, ws []string, i int) int {
	for _, ph := range phs {
		if ph.At(ws, i) {
			return len(ph)
		}
	}
	return 0
}

// mentionedPronouns after a mention verb stand for the word searched.
var mentionedPronouns = text.Set("it this that")

// mentionedPronoun returns the pronoun standing for the word searched by the
// mention verb at i ("bring it up", "does it come up in"), or "".
func (p *parser) mentionedPronoun(i int) string {
	switch {
	case mentionedPronouns[p.word(i+1)]:
		return p.word(i + 1)
	case strings.HasSuffix(p.words[i], "ed") && mentionedPronouns[p.word(i-1)]:
		return p.word(i - 1)
	}
	return ""
}

// topicWord returns the position of the only content word of the message's
// topic ("onboarding: …"), or -1.
func (p *parser) topicWord() int {
	at := -1
	for i, t := range p.ts {
		if t.topic && t.stem != "" && !t.isNum {
			if at >= 0 {
				return -1
			}
			at = i
		}
	}
	return at
}

// passiveBe before a mention verb put the word searched before them.
var passiveBe = text.Set("is are was were")

// vagueThings stand for what is said: "say something about …".
var vagueThings = text.Set("something anything things stuff")

// aboutTheForm reports whether the word at k names a question of the form, an
// option or the form itself ("what did people say about the conference").
func (p *parser) aboutTheForm(k int) bool {
	return p.cf.namesAQuestion(p.ts[k].stem) || slices.Contains(p.cf.titleStems, p.ts[k].stem) || p.cf.optionStem(p.ts[k].stem)
}

// wordNouns ask for the words of answers.
var wordNouns = text.Set("words word keywords themes theme terms topics")

// ordinal writes a percentile as "90th".
func ordinal(v float64) string {
	n := query.Format(v)
	suffix := "th"
	if !strings.HasSuffix(n, "11") && !strings.HasSuffix(n, "12") && !strings.HasSuffix(n, "13") {
		switch {
		case strings.HasSuffix(n, "1"):
			suffix = "st"
		case strings.HasSuffix(n, "2"):
			suffix = "nd"
		case strings.HasSuffix(n, "3"):
			suffix = "rd"
		}
	}
	return n + suffix
}

// replyMode words the most common answers.
func (s *session) replyMode(in *request, p queryPlan, res *query.Result) string {
	q := in.target.q
	scope := s.scope(p.base, p, res.Matched)
	if len(res.Buckets) == 0 {
		return fmt.Sprintf("No responses%s answered %s, so there is no most common answer.", scope, text.Quote(q.Text))
	}
	var labels []string
	for _, b := range res.Buckets {
		labels = append(labels, answerLabel(q, b.Label))
	}
	each := ""
	if len(labels) > 1 {
		each = " each"
	}
	return fmt.Sprintf("The most common answer (mode) to %s%s is %s, given %d times%s (of %d answers).",
		text.Quote(q.Text), scope, andList(labels), res.Buckets[0].Count, each, res.N)
}

// replyWords lists the words found in most free-text answers.
func (s *session) replyWords(in *request, p queryPlan, res *query.Result) string {
	scope := s.scope(p.base, p, res.Matched)
	if len(res.Buckets) == 0 {
		return fmt.Sprintf("No responses%s answered %s, so there are no words to count.", scope, text.Quote(in.target.q.Text))
	}
	words := res.Buckets
	if in.limit == 1 {
		words = slices.DeleteFunc(slices.Clone(words), func(w query.Bucket) bool { return w.Count < words[0].Count }) // a tie for first shows all
	}
	var b strings.Builder
	fmt.Fprintf(&b, "The words found in most answers to %s%s (of %d answers):", text.Quote(in.target.q.Text), scope, res.N)
	for _, w := range words {
		fmt.Fprintf(&b, "\n- %s: in %d answers", w.Label, w.Count)
	}
	return b.String()
}
