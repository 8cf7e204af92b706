package chat

import (
	"fmt"
	"slices"
	"strings"

	"forma/internal/ai/text"
)

// The chat answers only what it reads one way. A message with two plausible
// readings gets an honest refusal naming them, never a guess.

// statWords name one statistic each; a message naming two asks for two figures.
var statWords = text.Set("average avg mean median mode sd stdev stddev standard")

// ambiguity returns why the message has more than one plausible reading, or "".
func (p *parser) ambiguity(in *request) string {
	if n := p.statCount(); n > 1 {
		return "it asks for more than one figure; please ask for one at a time"
	}
	if (in.kind == highestGroup || in.kind == lowestGroup) && in.target != nil && in.groupBy != nil &&
		!p.namedApart(in.target, in.groupBy) {
		return fmt.Sprintf("“%s” could rank the answers to %s by how often they were chosen or by a figure such as %s; "+
			"please name what to rank by", p.rankWord(), text.Quote(in.groupBy.q.Text), text.Quote(in.target.q.Text))
	}
	return ""
}

// statCount counts the statistic words of the message ("average rating and
// average cups" names two).
func (p *parser) statCount() int {
	n := 0
	for i, w := range p.words {
		if statWords[w] && p.cueWords[i] != "" {
			n++
		}
	}
	return n
}

// namedApart reports whether some word of the message names target and not
// group: "which ticket is best" names only the ticket, so "best" has no figure.
func (p *parser) namedApart(target, group *question) bool {
	for _, t := range p.ts {
		if t.stem != "" && slices.Contains(target.stems, t.stem) && !slices.Contains(group.stems, t.stem) {
			return true
		}
	}
	return false
}

// rankWord returns the ranking word of the message.
func (p *parser) rankWord() string {
	for _, w := range p.words {
		if rankWords[w] || w == "most" || w == "least" {
			return w
		}
	}
	return "best"
}

// cannotChoose refuses a message with two readings, naming them.
func (s *session) cannotChoose(in *request) string {
	var b strings.Builder
	b.WriteString("I can't answer that exactly: " + in.ambiguous + ".")
	s.suggest(&b)
	return b.String()
}
