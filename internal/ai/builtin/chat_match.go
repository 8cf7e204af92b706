package builtin

import (
	"slices"
	"strings"

	"forma/internal/form"
)

// chatForm is the chat parser's view of a form: the stems of every question and
// option, and how many questions share each stem.
type chatForm struct {
	form *form.Form
	qs   []chatQuestion
	df   map[string]int
}

// chatQuestion is one question with the stems of its text and options.
type chatQuestion struct {
	q       *form.Question
	stems   []string
	bigrams map[[2]string]bool // consecutive words of the text
	options []chatOption
}

// chatOption is one option of a choice question.
type chatOption struct {
	label       string
	stems       []string
	distinctive []string // stems no other option of the form has
}

// chatGenericOptionWords are option words too common to name an option alone.
var chatGenericOptionWords = chatSet("other none yes no app plan use us")

// newChatForm prepares the parser's view of f.
func newChatForm(f *form.Form) *chatForm {
	cf := &chatForm{form: f, df: map[string]int{}}
	if f == nil {
		return cf
	}
	optionUse := map[string]int{}
	for i := range f.Questions {
		q := &f.Questions[i]
		cq := chatQuestion{q: q, stems: chatUnique(chatStems(q.Text)), bigrams: chatBigrams(chatTokens(q.Text))}
		for _, s := range cq.stems {
			cf.df[s]++
		}
		for _, o := range q.Options {
			co := chatOption{label: o, stems: chatStems(o)}
			for _, s := range chatUnique(co.stems) {
				optionUse[s]++
			}
			cq.options = append(cq.options, co)
		}
		cf.qs = append(cf.qs, cq)
	}
	cf.markDistinctive(optionUse)
	return cf
}

// markDistinctive records the option stems that name one option only.
func (cf *chatForm) markDistinctive(optionUse map[string]int) {
	for qi := range cf.qs {
		for oi := range cf.qs[qi].options {
			o := &cf.qs[qi].options[oi]
			for _, s := range o.stems {
				if optionUse[s] == 1 && len(s) >= 4 && !chatGenericOptionWords[s] {
					o.distinctive = append(o.distinctive, s)
				}
			}
		}
	}
}

// chatFunctionWords are too common for a pair of them to point at a question.
var chatFunctionWords = chatSet("the a an of to in on is it was were be you your our we us i my did do does how what " +
	"which who when and or for with that this ?")

// chatBigrams returns the pairs of consecutive words, except pairs of function words.
func chatBigrams(ts []chatToken) map[[2]string]bool {
	out := map[[2]string]bool{}
	for i := 0; i+1 < len(ts); i++ {
		if !chatFunctionWords[ts[i].low] || !chatFunctionWords[ts[i+1].low] {
			out[[2]string{ts[i].low, ts[i+1].low}] = true
		}
	}
	return out
}

// chatUnique returns the distinct strings of ss in order.
func chatUnique(ss []string) []string {
	var out []string
	for _, s := range ss {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// byID returns the question with the given id.
func (cf *chatForm) byID(id int64) *chatQuestion {
	for i := range cf.qs {
		if cf.qs[i].q.ID == id {
			return &cf.qs[i]
		}
	}
	return nil
}

// firstOfType returns the first question of the first type that has one, or nil.
func (cf *chatForm) firstOfType(types ...form.QuestionType) *chatQuestion {
	for _, t := range types {
		for i := range cf.qs {
			if cf.qs[i].q.Type == t {
				return &cf.qs[i]
			}
		}
	}
	return nil
}

// countOfType counts the questions of a type.
func (cf *chatForm) countOfType(t form.QuestionType) int {
	n := 0
	for _, q := range cf.qs {
		if q.q.Type == t {
			n++
		}
	}
	return n
}

// chatTypeCues are words that point at questions of a type.
var chatTypeCues = map[form.QuestionType]map[string]bool{
	form.Rating:   chatSet("rating ratings rated rate rates stars star satisfaction satisfied"),
	form.Currency: chatSet("spend spent spending cost costs paid pay money $ revenue dollars dollar usd eur gbp"),
	form.Textarea: chatSet("comment comments commented feedback said saying say wrote written suggestions complaints reviews remarks opinions"),
	form.Text:     chatSet("comment comments feedback said saying wrote written remarks"),
	form.Email:    chatSet("email emails"),
	form.Date:     chatSet("date dates when"),
}

// scores rates how strongly the unused tokens refer to each question: the sum of
// 1/df over the distinct question stems present, plus 1 for a cue word of its type,
// plus 0.25 for each pair of consecutive words it shares with the question text.
func (cf *chatForm) scores(ts []chatToken, used []bool) []float64 {
	present := map[string]bool{}
	lows := map[string]bool{}
	for i, t := range ts {
		if used != nil && used[i] {
			continue
		}
		if t.stem != "" {
			present[t.stem] = true
		}
		lows[t.low] = true
	}
	out := make([]float64, len(cf.qs))
	for i, q := range cf.qs {
		for _, s := range q.stems {
			if present[s] {
				out[i] += 1 / float64(cf.df[s])
			}
		}
		for w := range chatTypeCues[q.q.Type] {
			if lows[w] {
				out[i]++
				break
			}
		}
		out[i] += 0.25 * float64(chatSharedBigrams(ts, used, q.bigrams))
	}
	return out
}

// chatSharedBigrams counts the unused consecutive token pairs found in bigrams.
func chatSharedBigrams(ts []chatToken, used []bool, bigrams map[[2]string]bool) int {
	n := 0
	for i := 0; i+1 < len(ts); i++ {
		if (used == nil || (!used[i] && !used[i+1])) && bigrams[[2]string{ts[i].low, ts[i+1].low}] {
			n++
		}
	}
	return n
}

// chatMention is an option named in a message.
type chatMention struct {
	q          *chatQuestion
	label      string
	start, end int // token range, end exclusive
	full       bool
}

// chatChooseVerbs introduce an option named by a generic word ("chose Other").
var chatChooseVerbs = chatSet("chose choose chosen choosing selected select picked pick ticked answered said")

// mentions finds the options named in the message, longest first, each token in at
// most one mention.
func (cf *chatForm) mentions(ts []chatToken, used []bool) []chatMention {
	var out []chatMention
	taken := slices.Clone(used)
	for _, full := range []bool{true, false} {
		for qi := range cf.qs {
			q := &cf.qs[qi]
			for _, o := range q.options {
				if m, ok := cf.findOption(ts, taken, q, o, full); ok {
					for k := m.start; k < m.end; k++ {
						taken[k] = true
					}
					out = append(out, m)
				}
			}
		}
	}
	slices.SortFunc(out, func(a, b chatMention) int { return a.start - b.start })
	return out
}

// findOption looks for option o of q: its whole stem sequence (stop words between
// allowed) when full, else one of its distinctive stems.
func (cf *chatForm) findOption(ts []chatToken, taken []bool, q *chatQuestion, o chatOption, full bool) (chatMention, bool) {
	if full {
		return cf.findFull(ts, taken, q, o)
	}
	for i, t := range ts {
		if taken[i] || t.stem == "" || !chatStemNames(t.stem, o.distinctive) {
			continue
		}
		if cf.belongsToOtherQuestion(ts, t.stem, q) {
			continue
		}
		return chatMention{q: q, label: o.label, start: i, end: i + 1}, true
	}
	return chatMention{}, false
}

// chatStemNames reports whether stem is one of the option stems, or shares a
// prefix of at least 6 letters with one ("advertising" / "advertisement").
func chatStemNames(stem string, optionStems []string) bool {
	for _, s := range optionStems {
		if s == stem || (len(s) >= 6 && len(stem) >= 6 && s[:6] == stem[:6]) {
			return true
		}
	}
	return false
}

// findFull finds the stems of o in order in the unused tokens.
func (cf *chatForm) findFull(ts []chatToken, taken []bool, q *chatQuestion, o chatOption) (chatMention, bool) {
	if len(o.stems) == 0 {
		return chatMention{}, false
	}
	for i := range ts {
		end, ok := chatMatchAt(ts, taken, i, o.stems)
		if !ok {
			continue
		}
		generic := len(o.stems) == 1 && chatGenericOptionWords[o.stems[0]]
		if generic && !ts[i].quoted && !(i > 0 && chatChooseVerbs[ts[i-1].low]) {
			continue
		}
		return chatMention{q: q, label: o.label, start: i, end: end, full: true}, true
	}
	return chatMention{}, false
}

// chatMatchAt matches stems in order from token i, skipping stop words between
// them; it returns the end of the match.
func chatMatchAt(ts []chatToken, taken []bool, i int, stems []string) (int, bool) {
	k := i
	for n, s := range stems {
		for n > 0 && k < len(ts) && ts[k].stem == "" && !ts[k].isNum && k-i < 4 {
			k++
		}
		if k >= len(ts) || taken[k] || !chatStemNames(ts[k].stem, []string{s}) {
			return 0, false
		}
		k++
	}
	return k, true
}

// belongsToOtherQuestion reports whether stem is part of another question's text
// that the message also names with another of its words ("recommend us to a
// friend" is the recommend question, not the option "Friend or colleague").
func (cf *chatForm) belongsToOtherQuestion(ts []chatToken, stem string, q *chatQuestion) bool {
	for _, other := range cf.qs {
		if other.q.ID == q.q.ID || !slices.Contains(other.stems, stem) {
			continue
		}
		for _, t := range ts {
			if t.stem != stem && t.stem != "" && slices.Contains(other.stems, t.stem) && cf.df[t.stem] == 1 {
				return true
			}
		}
	}
	return false
}

// absorb marks as used the tokens near [start, end) that repeat words of question
// q ("Pro *plan*", "*contacted support* more than 3 *times*").
func (cf *chatForm) absorb(ts []chatToken, used []bool, q *chatQuestion, start, end, reach int) {
	for k := max(0, start-reach); k < min(len(ts), end+reach); k++ {
		if ts[k].stem != "" && (slices.Contains(q.stems, ts[k].stem) || chatTypeCues[q.q.Type][ts[k].low]) {
			used[k] = true
		}
	}
}

// chatQuote renders a question text for a reply.
func chatQuote(text string) string {
	return "“" + strings.TrimSpace(text) + "”"
}
