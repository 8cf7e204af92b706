package chat

import (
	"fmt"
	"maps"
	"strings"

	"forma/internal/ai/text"
)

// fillerWords are content words a question about responses may hold without
// changing what it asks.
var fillerWords = text.Set("ppl people person persons folks guys everyone everybody anyone anybody someone " +
	"respondent respondents customer customers user users participant participants attendee attendees " +
	"employee employees staff worker workers member members team teams individuals ones " +
	"response responses responded respond submission submissions submitted entry entries reply replies " +
	"answer answers answered result results data survey form question questions overall " +
	"give gave given get got put said say says tell think thought feel felt like likes liked love loves prefer prefers preferred " +
	"pick picked chose choose chosen select selected want wanted fill filled take took took " +
	"number numbers value values figure figures score scores scored score amount total count " +
	"many much often typical typically usually generally actually really exactly roughly approximately " +
	"stat stats statistic statistics calculate compute find work whats hows thats " +
	"current currently far so now ever right there please thanks thank ok okay hi hello hey " +
	"group groups category categories option options choice choices type kind " +
	"rate rated rating ratings star stars " +
	"highest lowest best worst top bottom most least more less fewer max min maximum minimum " +
	"average avg mean median mode sum percentage percent pct share proportion " +
	"among amongst through via both either way ways came come coming comes brought bring using within across " +
	"between during based also still getting going went go goes again back " +
	"drinker drinkers holder holders guest guests attendance usage longest shortest part " +
	"mostly mainly largely buyer buyers purchaser purchasers " +
	"peoples pls plz need needs needed report arithmetic receive received scale " +
	"rank ranked ranking sort sorted order ordered up table same instead fan fans lover lovers counting considering " +
	"gives giving counts reported report reports reporting bought buy buys sold sell sells selling quick " +
	"one general plan plans planning intend intends kindly yo analyze analyse make together " +
	"anyone anybody someone somebody gets vary varies variation variability " +
	"appear appears appeared appearing occur occurs occurred occurring " +
	"lol haha sorry bother btw box boxes field fields section crowd single others course rater raters points location locations forms full")

// departureWords say someone leaves; unless they introduce an answer ("left a
// comment"), which marks them used, the chat reads nothing in them.
var departureWords = text.Set("leave leaving left")

// cueVocabulary holds every word of the cue phrases, the words the parser reads
// as what is asked.
var cueVocabulary = func() map[string]bool {
	m := maps.Clone(statCueWords)
	for _, set := range []map[string]bool{listVerbs, listedThings, aboutWords, peopleNouns, pronouns, groupWords,
		mentionVerbs, answerVerbs, pickVerbs, sayVerbs, negators} {
		for w := range set {
			m[w] = true
		}
	}
	return m
}()

// unknownWords returns the content words of the message that nothing of the
// request accounts for: not a stop word, not read as a condition, date, limit or
// cue, and not a word of a question the request is about.
func (p *parser) unknownWords(in *request) []string {
	named := map[string]bool{}
	for _, q := range in.questions() {
		for _, s := range q.stems {
			named[s] = true
		}
		for _, o := range q.options {
			for _, s := range o.stems {
				named[s] = true
			}
		}
		for w := range typeCues[q.q.Type] {
			named[w] = true
		}
	}
	for _, s := range p.cf.titleStems {
		named[s] = true // "cups of coffee" on the "Coffee survey"
	}
	var out []string
	p.unknownAt = nil
	for i, t := range p.ts {
		switch {
		case p.used[i] || p.own[i]:
		case t.isNum:
			out = append(out, t.low)
			p.unknownAt = append(p.unknownAt, i)
		case t.low == "middle" && p.word(i+1) == "of": // "the middle of March" is no period the chat reads
			out = append(out, t.low)
			p.unknownAt = append(p.unknownAt, i)
		case departureWords[t.low] && !named[t.stem] && !p.leftSince(): // "how many are planning to leave": not "left a comment"
			out = append(out, t.low)
			p.unknownAt = append(p.unknownAt, i)
		case t.stem == "" || fillerWords[t.low] || cueVocabulary[t.low] || named[t.stem] || named[t.low]:
		case ordinalSuffixes[t.low] || months[t.low] != 0:
		default:
			out = append(out, t.low)
			p.unknownAt = append(p.unknownAt, i)
		}
	}
	return out
}

// withoutChatter returns the tokens of the message without the sentences that
// hold unknown words and nothing the question is made of: no word read as a
// condition, date or number, no option, no statistic, no restricting word
// ("only", "except"), no word of a question before a colon ("onboarding: …" is
// a topic), and no word a slip away from one of the form's ("remoe folks: …"
// names the remote workers, misspelled). Nil when there is no such sentence, or
// nothing else.
func (p *parser) withoutChatter() []token {
	drop := map[int]bool{}
	for _, i := range p.unknownAt {
		drop[p.ts[i].sentence] = true
	}
	for i, t := range p.ts {
		if drop[t.sentence] && (p.used[i] || t.isNum || t.quoted || t.topic && t.stem != "" && p.cf.namesAQuestion(t.stem) || p.cf.nearFormWord(t.low) || restrictWords[t.low] || statCueWords[t.low] && (t.stem != "" || percentWords[t.low] || statWords[t.low]) ||
			months[t.low] != 0 || t.stem != "" && p.cf.optionStem(t.stem) || questionWords[t.low] && t.sentence > 0) {
			delete(drop, t.sentence)
		}
	}
	if len(drop) == 0 {
		return nil
	}
	var kept []token
	for _, t := range p.ts {
		if !drop[t.sentence] {
			kept = append(kept, t)
		}
	}
	if len(kept) == 0 {
		return nil
	}
	return kept
}

// nearFormWord reports whether w, unknown, is one slip from a word or stem of the
// form's questions and options ("remoe", "sgar"): a misspelled word of the form.
func (cf *formIndex) nearFormWord(w string) bool {
	if cf.knows(w) || len(w) < 4 {
		return false
	}
	for v := range cf.formVocabulary {
		if len(v) >= 4 && (oneSlip(w, v) || oneSlip(w, stemOf(v))) {
			return true
		}
	}
	return false
}

// restrictWords narrow or exclude: a sentence holding one is never set aside.
var restrictWords = text.Set("only just except excluding exclude excluded ignore ignoring without not no never but apart besides other")

// statCueWords are the words of the cue phrases: a sentence holding one asks
// something and is never set aside.
var statCueWords = func() map[string]bool {
	m := map[string]bool{}
	for _, phs := range cuePhrases {
		for _, ph := range phs {
			for _, w := range ph {
				m[w] = true
			}
		}
	}
	return m
}()

// questions returns the questions the request is about: its target, breakdown
// and the questions of its conditions.
func (in *request) questions() []*question {
	var out []*question
	if in.target != nil {
		out = append(out, in.target)
	}
	if in.groupBy != nil {
		out = append(out, in.groupBy)
	}
	for _, c := range in.conds {
		if c.q != nil {
			out = append(out, c.q)
		}
	}
	return out
}

// cannotPart says which words of the question the chat could not map to the
// form, and what it did understand, without answering.
func (s *session) cannotPart(in *request) string {
	var b strings.Builder
	if in.clash != "" {
		fmt.Fprintf(&b, "I can't answer that: the form asks %s, not per %s, and I don't convert between periods.",
			s.periodQuestions(), singular(in.clash))
	} else {
		quoted := make([]string, len(in.unknown))
		for i, w := range in.unknown {
			quoted[i] = "“" + w + "”"
		}
		fmt.Fprintf(&b, "I can't answer that exactly: I don't know what %s refers to in this form's responses", andList(quoted))
		if u := s.understood(in); u != "" {
			b.WriteString(", so I won't just give " + u + ".")
		} else {
			b.WriteString(".")
		}
	}
	s.suggest(&b)
	return b.String()
}

// periodQuestions names the questions whose text states a period.
func (s *session) periodQuestions() string {
	var out []string
	for _, q := range s.cf.qs {
		for _, w := range q.words {
			if periodWords[w] {
				out = append(out, text.Quote(q.q.Text))
				break
			}
		}
	}
	return andList(out)
}

// understood words the part of the question the chat did read, or "".
func (s *session) understood(in *request) string {
	if in.target == nil {
		return ""
	}
	name := figureNames[s.metricOf(in)]
	if name == "" {
		name = "a figure"
	} else {
		name = "the " + name
	}
	return name + " of " + text.Quote(in.target.q.Text)
}
