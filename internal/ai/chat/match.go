package chat

import (
	"slices"
	"strings"

	"forma/internal/ai/text"
	"forma/internal/form"
)

// formIndex is the chat parser's view of a form: the stems of every question and
// option, and how many questions share each stem.
type formIndex struct {
	form *form.Form
	qs   []question
	df   map[string]int
	// formVocabulary are the words of the form's questions and options, which a
	// typing slip may be read as besides the chat's own (spelling.go).
	formVocabulary map[string]bool
	// formKnown are the form's words and their stems, never corrected.
	formKnown map[string]bool
	// formDoubled maps the form's known words with doubled letters that the chat
	// does not know, their doubled letters written once, to the words.
	formDoubled map[string][]string
	// joined maps the options of several words written as one ("flatwhite") to
	// their words.
	joined map[string][]string
	// titleStems are the stems of the form's title, which a question may use
	// ("cups of coffee" on the "Coffee survey").
	titleStems []string
	// currencies lists the currencies of the form's currency questions ("EUR").
	currencies string
}

// question is one question with the words and stems of its text and options.
type question struct {
	q       *form.Question
	words   []string // the words of the text, as tokenize gives them
	tokens  []token  // the tokens of the text
	stems   []string
	bigrams map[[2]string]bool // consecutive words of the text
	options []option
}

// option is one option of a choice question.
type option struct {
	label       string
	stems       []string
	distinctive []string // stems no other option of the form has
}

// optionStem reports whether stem is a word of an option of the form.
func (cf *formIndex) optionStem(stem string) bool {
	for _, q := range cf.qs {
		for _, o := range q.options {
			if slices.Contains(o.stems, stem) {
				return true
			}
		}
	}
	return false
}

// genericOptionWords are option words too common to name an option alone.
var genericOptionWords = text.Set("other none yes no app plan use us")

// newFormIndex prepares the parser's view of f.
func newFormIndex(f *form.Form) *formIndex {
	cf := &formIndex{form: f, df: map[string]int{}, formVocabulary: map[string]bool{}, formKnown: map[string]bool{}}
	if f == nil {
		return cf
	}
	cf.titleStems = stemsOf(f.Title)
	var codes []string
	optionUse := map[string]int{}
	for i := range f.Questions {
		q := &f.Questions[i]
		if q.Type == form.Currency && q.Currency != nil && !slices.Contains(codes, q.Currency.Currency) {
			codes = append(codes, q.Currency.Currency)
		}
		ts := tokenize(q.Text)
		cf.addVocabulary(ts)
		cq := question{q: q, words: wordsOf(ts), tokens: ts, stems: unique(tokenStems(ts)), bigrams: bigramsOf(ts)}
		for _, s := range cq.stems {
			cf.df[s]++
		}
		for _, o := range q.Options {
			ots := tokenize(o)
			cf.addVocabulary(ots)
			co := option{label: o, stems: tokenStems(ots)}
			for _, s := range unique(co.stems) {
				optionUse[s]++
			}
			cq.options = append(cq.options, co)
		}
		cf.qs = append(cf.qs, cq)
	}
	cf.currencies = strings.Join(codes, ", ")
	cf.markDistinctive(optionUse)
	cf.formDoubled = doubledWords(cf.formKnown, chatKnown)
	cf.joined = cf.joinedOptions()
	return cf
}

// markDistinctive records the option stems that name one option only.
func (cf *formIndex) markDistinctive(optionUse map[string]int) {
	for qi := range cf.qs {
		for oi := range cf.qs[qi].options {
			o := &cf.qs[qi].options[oi]
			for _, s := range o.stems {
				if optionUse[s] == 1 && len(s) >= 4 && !genericOptionWords[s] {
					o.distinctive = append(o.distinctive, s)
				}
			}
		}
	}
}

// functionWords are too common for a pair of them to point at a question.
var functionWords = text.Set("the a an of to in on is it was were be you your our we us i my did do does how what " +
	"which who when and or for with that this ?")

// bigramsOf returns the pairs of consecutive words, except pairs of function words.
func bigramsOf(ts []token) map[[2]string]bool {
	out := map[[2]string]bool{}
	for i := 0; i+1 < len(ts); i++ {
		if !functionWords[ts[i].low] || !functionWords[ts[i+1].low] {
			out[[2]string{ts[i].low, ts[i+1].low}] = true
		}
	}
	return out
}

// unique returns the distinct strings of ss in order.
func unique(ss []string) []string {
	var out []string
	for _, s := range ss {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// firstOfType returns the first question of the first type that has one, or nil.
func (cf *formIndex) firstOfType(types ...form.QuestionType) *question {
	for _, t := range types {
		for i := range cf.qs {
			if cf.qs[i].q.Type == t {
				return &cf.qs[i]
			}
		}
	}
	return nil
}

// countOfType counts the questions of the given types.
func (cf *formIndex) countOfType(types ...form.QuestionType) int {
	n := 0
	for _, q := range cf.qs {
		if slices.Contains(types, q.q.Type) {
			n++
		}
	}
	return n
}

// typeCues are words that point at questions of a type.
var typeCues = map[form.QuestionType]map[string]bool{
	form.Rating:   text.Set("rating ratings rated rate rates stars star satisfaction satisfied"),
	form.Currency: text.Set("spend spent spending cost costs paid pay money $ € £ revenue earn earned earnings income takings charge charged charges dollars dollar usd eur gbp euro euros pound pounds"),
	form.Textarea: text.Set("comment comments commented feedback said saying say wrote written suggestions complaints reviews remarks opinions"),
	form.Text:     text.Set("comment comments feedback said saying wrote written remarks"),
	form.Email:    text.Set("email emails"),
	form.Date:     text.Set("date dates when"),
}

// scores rates how strongly the unused tokens refer to each question: the sum of
// 1/df over the distinct question stems present, plus 1 for a cue word of its type,
// plus 0.25 for each pair of consecutive words it shares with the question text.
func (cf *formIndex) scores(ts []token, used []bool) []float64 {
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
		for w := range typeCues[q.q.Type] {
			if lows[w] {
				out[i]++
				break
			}
		}
		out[i] += 0.25 * float64(sharedBigrams(ts, used, q.bigrams))
	}
	return out
}

// sharedBigrams counts the unused consecutive token pairs found in bigrams.
func sharedBigrams(ts []token, used []bool, bigrams map[[2]string]bool) int {
	n := 0
	for i := 0; i+1 < len(ts); i++ {
		if (used == nil || (!used[i] && !used[i+1])) && bigrams[[2]string{ts[i].low, ts[i+1].low}] {
			n++
		}
	}
	return n
}

// mention is an option named in a message.
type mention struct {
	q          *question
	label      string
	start, end int // token range, end exclusive
	full       bool
}

// chooseVerbs introduce an option named by a generic word ("chose Other").
var chooseVerbs = text.Set("chose choose chosen choosing selected select picked pick ticked answered said")

// mentions finds the options named in the message, longest first, each token in at
// most one mention.
func (cf *formIndex) mentions(ts []token, used []bool) []mention {
	var out []mention
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
	slices.SortFunc(out, func(a, b mention) int { return a.start - b.start })
	return out
}

// findOption looks for option o of q: its whole stem sequence (stop words between
// allowed) when full, else one of its distinctive stems.
func (cf *formIndex) findOption(ts []token, taken []bool, q *question, o option, full bool) (mention, bool) {
	if full {
		return cf.findFull(ts, taken, q, o)
	}
	for i, t := range ts {
		if taken[i] || t.stem == "" || !stemNames(t.stem, o.distinctive) {
			continue
		}
		if cf.belongsToOtherQuestion(ts, t.stem, q) {
			continue
		}
		return mention{q: q, label: o.label, start: i, end: i + 1}, true
	}
	return mention{}, false
}

// stemNames reports whether stem is one of the option stems, or shares a
// prefix of at least 6 letters with one ("advertising" / "advertisement").
func stemNames(stem string, optionStems []string) bool {
	for _, s := range optionStems {
		if s == stem || (len(s) >= 6 && len(stem) >= 6 && s[:6] == stem[:6]) {
			return true
		}
	}
	return false
}

// findFull finds the stems of o in order in the unused tokens.
func (cf *formIndex) findFull(ts []token, taken []bool, q *question, o option) (mention, bool) {
	if len(o.stems) == 0 {
		return mention{}, false
	}
	for i := range ts {
		end, ok := matchAt(ts, taken, i, o.stems)
		if !ok {
			continue
		}
		generic := len(o.stems) == 1 && genericOptionWords[o.stems[0]]
		if generic && !ts[i].quoted && !(i > 0 && chooseVerbs[ts[i-1].low]) {
			continue
		}
		return mention{q: q, label: o.label, start: i, end: end, full: true}, true
	}
	return mention{}, false
}

// matchAt matches stems in order from token i, skipping stop words between
// them; it returns the end of the match.
func matchAt(ts []token, taken []bool, i int, stems []string) (int, bool) {
	k := i
	for n, s := range stems {
		for n > 0 && k < len(ts) && ts[k].stem == "" && !ts[k].isNum && k-i < 4 {
			k++
		}
		if k >= len(ts) || taken[k] || !stemNames(ts[k].stem, []string{s}) {
			return 0, false
		}
		k++
	}
	return k, true
}

// belongsToOtherQuestion reports whether stem is part of another question's text
// that the message also names with another of its words ("recommend us to a
// friend" is the recommend question, not the option "Friend or colleague").
func (cf *formIndex) belongsToOtherQuestion(ts []token, stem string, q *question) bool {
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
func (cf *formIndex) absorb(ts []token, used []bool, q *question, start, end, reach int) {
	for k := max(0, start-reach); k < min(len(ts), end+reach); k++ {
		if ts[k].stem != "" && (slices.Contains(q.stems, ts[k].stem) || typeCues[q.q.Type][ts[k].low]) {
			used[k] = true
		}
	}
}

// namesAQuestion reports whether stem is a word of one of the form's questions.
func (cf *formIndex) namesAQuestion(stem string) bool {
	return stem != "" && cf.df[stem] > 0
}

// namesOnlyWithout reports whether stem names a question and only questions whose
// text lacks other ("add" of “What do you add to your coffee?” after "favourite").
func (cf *formIndex) namesOnlyWithout(stem, other string) bool {
	named := false
	for _, q := range cf.qs {
		if !slices.Contains(q.stems, stem) {
			continue
		}
		if slices.Contains(q.stems, other) {
			return false
		}
		named = true
	}
	return named
}
