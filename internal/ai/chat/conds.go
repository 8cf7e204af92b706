package chat

import (
	"fmt"
	"slices"
	"strings"

	"forma/internal/ai/query"
	"forma/internal/ai/text"
	"forma/internal/form"
)

// cond is one condition named in a message: a filter on a question's answers.
// q is nil for a bare "yes"/"no" that the conversation must bind to a question.
type cond struct {
	q    *question
	f    query.Filter
	pos  int
	base bool // narrows the population (percent: the denominator) rather than being the share asked about
	// bare marks a yes_no question named by its words with no answer given ("would
	// recommend"): a breakdown may take it as the question to break down by.
	bare bool
}

// parser holds one message being parsed.
type parser struct {
	cf    *formIndex
	ts    []token
	words []string
	used  []bool
	conds []cond
	// own marks the words that belong to a question's own text ("cups per day").
	own []bool
	// cueWords are words with the own words blanked, for reading cues.
	cueWords []string
	// clash is a period word that contradicts a question's own period, or "".
	clash string
	// rate is set by "<yes_no word> rate": the share of yes answers.
	rate bool
	// formAnswers is set by a word of the form's title that names its responses
	// ("feedback count", "how many feedback" on the “Conference feedback” form).
	formAnswers bool
	// unsure says why a part of the message has two readings, or "".
	unsure string
	// topWordBack is set by a mention verb before "the top one" or "that word";
	// thatWord by "that word".
	topWordBack, thatWord bool
	// oneAfterExtreme is set by "one" after a superlative ("the worst one").
	oneAfterExtreme bool
	// unknownAt are the positions of the words unknownWords found.
	unknownAt []int
	// others is the yes_no question of "… than the others", the breakdown.
	others *question
	// crossWith is the second question of "by department and office", or nil.
	crossWith *question
	// likely is set by "likely to <yes/no answer>": the share of yes.
	likely bool
	// bothAnswers is set by "yes vs no": both answers of a yes/no question.
	bothAnswers bool
	// measuredBy is the numeric question a ranking is measured by ("which ticket
	// type is the happiest, by overall rating?"), or nil.
	measuredBy *question
	// looseClass is a sentiment class the message names with no written answers
	// ("how many of those are negative?"), or "".
	looseClass string
}

// isNumeric reports whether q has numeric answers.
func isNumeric(q *form.Question) bool {
	switch q.Type {
	case form.Rating, form.Number, form.Currency, form.Slider:
		return true
	}
	return false
}

// isFreeText reports whether q takes written text.
func isFreeText(q *form.Question) bool { return q.Type == form.Text || q.Type == form.Textarea }

// isTextLike reports whether q's answers are strings that are not choices.
func isTextLike(q *form.Question) bool {
	switch q.Type {
	case form.Text, form.Textarea, form.Email, form.Phone, form.URL, form.FileUpload:
		return true
	}
	return false
}

// add records a condition.
func (p *parser) add(q *question, f query.Filter, pos int) {
	if q != nil {
		f.Question = q.q.ID
	}
	p.conds = append(p.conds, cond{q: q, f: f, pos: pos})
}

// word returns the word at i, "" outside the message.
func (p *parser) word(i int) string {
	if i < 0 || i >= len(p.words) {
		return ""
	}
	return p.words[i]
}

// cmpPhrase is a comparison written as words.
type cmpPhrase struct {
	phrase text.Phrase
	op     query.Op
}

// cmpBefore are comparisons written before a number, longest first.
var cmpBefore = []cmpPhrase{
	{phrase("no more than"), query.LTE}, {phrase("no less than"), query.GTE}, {phrase("not more than"), query.LTE},
	{phrase("more than"), query.GT}, {phrase("greater than"), query.GT}, {phrase("higher than"), query.GT}, {phrase("bigger than"), query.GT},
	{phrase("larger than"), query.GT}, {phrase("cheaper than"), query.LT}, {phrase("pricier than"), query.GT}, {phrase("over"), query.GT}, {phrase("above"), query.GT}, {phrase("exceeding"), query.GT},
	{phrase("at least"), query.GTE}, {phrase("minimum of"), query.GTE}, {phrase("> ="), query.GTE}, {phrase(">"), query.GT},
	{phrase("less than"), query.LT}, {phrase("fewer than"), query.LT}, {phrase("lower than"), query.LT}, {phrase("smaller than"), query.LT},
	{phrase("under"), query.LT}, {phrase("below"), query.LT}, {phrase("at most"), query.LTE}, {phrase("maximum of"), query.LTE},
	{phrase("up to"), query.LTE}, {phrase("< ="), query.LTE}, {phrase("<"), query.LT}, {phrase("exactly"), query.Equals}, {phrase("equal to"), query.Equals},
	{phrase("="), query.Equals},
}

// cmpAfter are comparisons written after a number.
var cmpAfter = []cmpPhrase{
	{phrase("or more"), query.GTE}, {phrase("or higher"), query.GTE}, {phrase("or above"), query.GTE}, {phrase("or better"), query.GTE},
	{phrase("or greater"), query.GTE}, {phrase("or over"), query.GTE}, {phrase("+"), query.GTE}, {phrase("and up"), query.GTE},
	{phrase("and above"), query.GTE}, {phrase("plus"), query.GTE}, {phrase("or less"), query.LTE}, {phrase("or lower"), query.LTE},
	{phrase("or below"), query.LTE}, {phrase("or fewer"), query.LTE}, {phrase("or worse"), query.LTE}, {phrase("or under"), query.LTE},
	{phrase("and below"), query.LTE}, {phrase("and under"), query.LTE},
}

// currencySigns stand before an amount and point at currency questions.
var currencySigns = text.Set("$ € £")

// units are words between a number and a comparison after it ("5 stars or more").
var units = text.Set("star stars time times dollar dollars usd eur gbp euro euros pound pounds € £ point points")

// endsAt reports whether the first occurrence of ph among the four words ending
// at position j ends there.
func (p *parser) endsAt(j int, ph text.Phrase) bool {
	from := max(0, j-3)
	i := ph.Index(p.words[from : j+1])
	return i >= 0 && from+i+len(ph)-1 == j
}

// comparison reads the comparison around the number at i, about q: its operator,
// bounds and token range. Units and up to three words of q may stand between the
// number and a comparison after it ("40 hours or less").
func (p *parser) comparison(i int, q *question) (op query.Op, lo, hi float64, start, end int) {
	lo, hi, start, end = p.ts[i].num, p.ts[i].num, i, i+1
	if r, ok := p.rangeAround(i); ok {
		return query.Between, r[0], r[1], int(r[2]), int(r[3])
	}
	j := i - 1
	if currencySigns[p.word(j)] {
		j--
	}
	for _, c := range cmpBefore {
		if j >= 0 && p.endsAt(j, c.phrase) {
			return c.op, lo, hi, j - len(c.phrase) + 1, end
		}
	}
	k := i + 1
	for units[p.word(k)] || (k < len(p.ts) && k <= i+3 && p.ts[k].stem != "" && slices.Contains(q.stems, p.ts[k].stem)) ||
		k <= i+3 && (p.word(k) == "a" || p.word(k) == "per") && k+1 < len(p.ts) && slices.Contains(q.stems, p.ts[k+1].stem) {
		k++ // "4 cups *a* day or more"
	}
	for _, c := range cmpAfter {
		if c.phrase.At(p.words, k) {
			return c.op, lo, hi, start, k + len(c.phrase)
		}
	}
	return query.Equals, lo, hi, start, end
}

// rangeAround reads "between N and M", "from N to M", "N to M" and "N or M" at the
// number i: lower, upper, start and end.
func (p *parser) rangeAround(i int) ([4]float64, bool) {
	j := i + 2
	if p.word(i+1) == "or" && (p.word(j) == "a" || p.word(j) == "an") {
		j++ // "a 9 or a 10"
	}
	if j >= len(p.ts) || !p.ts[j].isNum {
		return [4]float64{}, false
	}
	mid, prev := p.word(i+1), p.word(i-1)
	ok := (prev == "between" && mid == "and") || (prev == "from" && mid == "to") || mid == "to" || mid == "or"
	if !ok {
		return [4]float64{}, false
	}
	a, b := p.ts[i].num, p.ts[j].num
	if mid == "or" && (a-b > 1 || b-a > 1) {
		p.unsure = fmt.Sprintf("“%s or %s” names two numbers apart, and I filter on a number or a range; ask for each number", p.ts[i].low, p.ts[j].low)
		return [4]float64{}, false
	}
	start := i
	if prev == "between" || prev == "from" {
		start = i - 1
	}
	return [4]float64{min(a, b), max(a, b), float64(start), float64(j + 1)}, true
}

// numbers turns the comparisons of numbers with numeric questions into conditions.
func (p *parser) numbers() {
	var last *question // the question of the comparison before, and where it ended
	lastEnd := 0
	for i := 0; i < len(p.ts); i++ {
		t := p.ts[i]
		if !t.isNum || p.used[i] || yearOf(t.low) > 0 && !currencySigns[p.word(i-1)] {
			continue
		}
		if p.word(i-1) == "of" && p.word(i-2) == "out" && p.cf.scaleTop(t.num) {
			p.used[i-2], p.used[i-1], p.used[i] = true, true, true // "median satisfaction out of 5" names the scale
			continue
		}
		if g := p.groupableAt(i + 1); g != nil && strings.HasSuffix(p.word(i+1), "s") && (g.q.Type == form.Select || g.q.Type == form.MultiSelect) {
			continue // "the same two countries": a number of groups, not an answer ("5 stars" is one)
		}
		named := p.numberQuestion(i)
		q := named
		if q == nil && last != nil {
			q = last // "more than 2 cups but less than 5": the second bound is on cups too
		}
		if q == nil {
			continue
		}
		op, lo, hi, start, end := p.comparison(i, q)
		if named == nil && (op == query.Equals || !p.joinedBounds(lastEnd, start)) {
			continue
		}
		if inv, ok := inverse[op]; ok && p.negatedBefore(start, 2) {
			op = inv // "don't drink more than 2 cups"
		}
		if p.word(end) == "out" && p.word(end+1) == "of" && end+2 < len(p.ts) && p.ts[end+2].isNum {
			end += 3 // "10 out of 10"
			if n := phraseLenAt(orMorePhrases, p.words, end); op == query.Equals && n > 0 {
				op, end = query.GTE, end+n // "seven out of ten or more"
			} else if n := phraseLenAt(orLessPhrases, p.words, end); op == query.Equals && n > 0 {
				op, end = query.LTE, end+n
			}
		}
		f := query.Filter{Op: op, Value: lo}
		if op == query.Between {
			f.To = hi
		}
		for k := start; k < end; k++ {
			p.used[k] = true
			p.cueWords[k] = "" // "at least 4" asks for no least common answer
		}
		if wholeScale(q.q, op, lo, hi) {
			i = end - 1 // "each rating, from 1 to 5 stars" describes the scale, filters nothing
			continue
		}
		p.add(q, f, start)
		p.cf.absorb(p.ts, p.used, q, start, end, 4)
		p.markQuantityVerb(start, q)
		p.markRatingVerb(start)
		p.shareRate(end) // "5 star rate by country": the share of them
		i = end - 1
		last, lastEnd = q, end
	}
}

// markRatingVerb marks the verb of "rated their work-life balance 4": a rating
// verb before the words of the question the comparison is on.
func (p *parser) markRatingVerb(start int) {
	k := start - 1
	for k > 0 && (p.used[k] || possessives[p.words[k]]) {
		k--
	}
	if k >= 0 && k < start-1 && ratingVerbs[p.words[k]] {
		p.used[k] = true
	}
}

// possessives and ratingVerbs: "rated *their* balance", "*scored* the event".
var (
	possessives = text.Set("their the our its his her my")
	ratingVerbs = text.Set("rated rate rates rating scored score scores gave give gives")
)

// joinedBounds reports whether only "but" or "and", after words already read,
// stands between the end of one comparison and the start of the next.
func (p *parser) joinedBounds(from, to int) bool {
	k := from
	for k < to && p.used[k] {
		k++ // "cups"
	}
	return k == to-1 && (p.words[k] == "but" || p.words[k] == "and")
}

// mayBeVerb reports whether w (of stem) may be the verb of a quantity: a word the
// chat knows, a verb of doing, or a slip of a word of the form's ("drnk", "wrk").
func (cf *formIndex) mayBeVerb(w, stem string) bool {
	if cf.knows(w) || cf.knows(stem) || quantityVerbs[w] {
		return true
	}
	for v := range cf.formVocabulary {
		if len(v) >= 4 && oneSlip(w, v) {
			return true
		}
	}
	return false
}

// quantityVerbs say how a quantity was done ("people doing 45 hours").
var quantityVerbs = text.Set("doing do does did done putting put puts logging logged logs clocking clocked having getting")

// relativeWords open a clause about the respondents.
var relativeWords = text.Set("who that which")

// markQuantityVerb marks the verb of a clause that a comparison ends ("people who
// *drink* more than 3 cups", "people *drinking* 2 or 3 cups", "people *drink*
// more than 3"): it says how the quantity was counted, nothing more.
func (p *parser) markQuantityVerb(start int, q *question) {
	k := start - 1
	for k > 0 && verbTails[p.words[k]] {
		k-- // "worked *here* more than 5 years", "worked *for* more than 5 years", "drink *only* 1 cup"
	}
	if k < 1 || p.ts[k].stem == "" || p.used[k] || !p.cf.mayBeVerb(p.words[k], p.ts[k].stem) {
		return // a word the chat does not know is no verb it can pass over ("staff have uner 2 years")
	}
	j := k - 1
	for j > 0 && (perfectAux[p.words[j]] || negatedAux[p.words[j]]) {
		j-- // "people *have* worked …", "people *do not* drink …"
	}
	borrowed := !p.cf.optionStem(p.ts[k].stem) && !slices.Contains(q.stems, p.ts[k].stem) && p.cf.namesAQuestion(p.ts[k].stem)
	if relativeWords[p.words[j]] || strings.HasSuffix(p.words[k], "ing") || (peopleNouns[p.words[j]] || p.words[j] == "many") && !p.cf.optionStem(p.ts[k].stem) || borrowed {
		p.used[k] = true // borrowed: "Italians *drink* more than 2 cups" does not name “Favourite drink”
	}
}

// verbTails stand between a quantity's verb and its comparison; perfectAux
// between the respondents and the verb.
var (
	verbTails  = text.Set("here there for only just exactly")
	perfectAux = text.Set("have has had")
	negatedAux = text.Set("do does did not never")
)

// numberQuestion picks the numeric question a number at i is about: the one whose
// words are nearest in the same clause; a currency sign points at currency
// questions.
func (p *parser) numberQuestion(i int) *question {
	var best, off *question
	bestScore, offScore, tie := 0.0, 0.0, false
	for qi := range p.cf.qs {
		q := &p.cf.qs[qi]
		if !isNumeric(q.q) {
			continue
		}
		score := p.nearScore(i, q)
		if offScale(q.q, p.ts[i].num) {
			if score > offScore {
				off, offScore = q, score
			}
			continue
		}
		if q.q.Type == form.Currency && currencySigns[p.word(i-1)] {
			score += 2
		}
		if p.namedAfterOn(i, q) {
			score += 2 // "gave 9 or 10 on recommending": the question after "on" takes the number
		}
		if q.q.Type == form.Rating && p.ratedBefore(i) {
			score++ // "rated the event 3": a rating, whatever else "event" names
		}
		switch {
		case score > bestScore:
			best, bestScore, tie = q, score, false
		case score == bestScore && score > 0:
			tie = true
		}
	}
	if tie {
		return nil // two questions fit the number equally: left unread, so refused
	}
	if off != nil && offScore > bestScore {
		return nil // "gave work-life balance a 0": the question named has no such answer, so refused
	}
	if best == nil && p.scoreVerbBefore(i) {
		return p.onlyScaleFor(p.ts[i].num)
	}
	if scale := p.onlyScaleFor(p.ts[i].num); best != nil && !isScale(best.q) && !currencySigns[p.word(i-1)] && p.scoreVerbBefore(i) && scale != nil {
		return scale // "which ticket type has most ppl scoring 6 or below": a score, not the ticket price
	}
	if q := p.unitAfter(i); q != nil {
		return q // "10 or more years": the word after the number names its question
	}
	return best
}

// unitAfter returns the only numeric question named by the word right after the
// number at i, or after the comparison that follows it ("10 or more *years*").
func (p *parser) unitAfter(i int) *question {
	k := i + 1
	for _, c := range cmpAfter {
		if c.phrase.At(p.words, k) {
			k += len(c.phrase)
			break
		}
	}
	if k >= len(p.ts) || p.ts[k].stem == "" || p.used[k] {
		return nil
	}
	var out *question
	for qi := range p.cf.qs {
		q := &p.cf.qs[qi]
		if !isNumeric(q.q) || offScale(q.q, p.ts[i].num) || !slices.Contains(q.stems, p.ts[k].stem) {
			continue
		}
		if out != nil {
			return nil
		}
		out = q
	}
	return out
}

// scoreVerbBefore reports whether a verb of scoring stands among the four words
// before i ("gave the event a 9", "scored below 7"); "rated" is not one, as it
// names the rating question ("rated 9" on a 1–5 rating is refused).
func (p *parser) scoreVerbBefore(i int) bool {
	for k := i - 1; k >= max(0, i-4); k-- {
		if scoreVerbs[p.words[k]] {
			return true
		}
	}
	return false
}

// onlyScaleFor returns the only rating or slider question whose scale holds v,
// or nil when none or several do.
func (p *parser) onlyScaleFor(v float64) *question {
	var out *question
	for qi := range p.cf.qs {
		q := &p.cf.qs[qi]
		if !isScale(q.q) || offScale(q.q, v) {
			continue
		}
		if out != nil {
			return nil
		}
		out = q
	}
	return out
}

// offScale reports whether v lies outside the answers q allows (a rating of 9).
func offScale(q *form.Question, v float64) bool {
	switch {
	case q.Type == form.Rating:
		return v < form.MinRating || v > form.MaxRating
	case q.Type == form.Slider && q.Slider != nil:
		return v < q.Slider.Min || v > q.Slider.Max
	}
	return false
}

// scaleTop reports whether v is the top of a rating or slider scale of the form.
func (cf *formIndex) scaleTop(v float64) bool {
	for _, q := range cf.qs {
		switch {
		case q.q.Type == form.Rating && v == form.MaxRating, q.q.Type == form.Slider && q.q.Slider != nil && v == q.q.Slider.Max:
			return true
		}
	}
	return false
}

// wholeScale reports whether a range covers every answer q's scale allows.
func wholeScale(q *form.Question, op query.Op, lo, hi float64) bool {
	switch {
	case op != query.Between:
		return false
	case q.Type == form.Rating:
		return lo <= form.MinRating && hi >= form.MaxRating
	case q.Type == form.Slider && q.Slider != nil:
		return lo <= q.Slider.Min && hi >= q.Slider.Max
	}
	return false
}

// nearScore weighs the words of q found near position i, within its clause.
func (p *parser) nearScore(i int, q *question) float64 {
	score := 0.0
	for _, dir := range []int{-1, 1} {
		for k := i + dir; k >= 0 && k < len(p.ts) && abs(k-i) <= 6; k += dir {
			t := p.ts[k]
			if t.low == "," || t.low == "?" || (p.used[k] && dir < 0 && t.isNum) {
				break
			}
			if p.used[k] {
				continue
			}
			if (t.stem != "" && slices.Contains(q.stems, t.stem)) || typeCues[q.q.Type][t.low] {
				score += 1 / float64(abs(k-i))
			}
		}
	}
	return score
}

// ratedBefore reports whether "rated" or "rate" stands among the three words
// before i.
func (p *parser) ratedBefore(i int) bool {
	for k := max(0, i-3); k < i; k++ {
		if w := p.words[k]; w == "rated" || w == "rate" || w == "rating" {
			return true
		}
	}
	return false
}

// namedAfterOn reports whether "on", "for" or "to" follows the number at i within
// four words and is followed by a word of q ("9 or 10 on the recommend scale").
func (p *parser) namedAfterOn(i int, q *question) bool {
	for k := i + 1; k < len(p.ts) && k <= i+4; k++ {
		if w := p.words[k]; w == "on" || w == "for" || w == "to" {
			for j := k + 1; j < len(p.ts) && j <= k+2; j++ {
				if p.ts[j].stem != "" {
					return slices.Contains(q.stems, p.ts[j].stem)
				}
			}
			return false
		}
	}
	return false
}

// abs returns |n|.
func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// negators negate the condition that follows them.
var negators = text.Set("not never no without nor neither excluding exclude except outside non")

// negatedBefore reports whether a negation stands among the n words before i, in
// the same clause and not inside another condition; the words from the negation
// on are marked used.
func (p *parser) negatedBefore(i, n int) bool {
	return p.negatedFor(i, n, nil)
}

// blankAfter reports whether a word after i says the answer was left blank
// ("left “Any comments?” blank"), and marks it read.
func (p *parser) blankAfter(i int) bool {
	for k := i + 1; k < len(p.ts); k++ {
		if blankWords[p.words[k]] && !p.used[k] {
			p.used[k] = true
			return true
		}
	}
	return false
}

// blankWords say an answer was left out.
var blankWords = text.Set("blank empty unanswered")

// formWords name the form itself.
var formWords = text.Set("form forms survey surveys questionnaire questionnaires")

// onlyJoinsBetween reports whether the words from i to j only join a list
// ("and", "or", "nor", ",").
func (p *parser) onlyJoinsBetween(i, j int) bool {
	for k := i; k < j; k++ {
		if !listJoins[p.words[k]] {
			return false
		}
	}
	return true
}

// listJoins join the items of a list.
var listJoins = text.Set("and or nor ,")

// bothWays reports whether the negated word at i follows "<verb> and <verb>
// not" ("who would and would not recommend us"): both answers are named.
func (p *parser) bothWays(i int) bool {
	for k := i - 1; k >= max(3, i-3); k-- {
		if p.words[k] == "not" && listJoins[p.words[k-2]] && p.words[k-3] == p.words[k-1] {
			return true
		}
	}
	return false
}

// otherAnswer adds the opposite answer of yes/no question q when the message
// names q again, negated the other way, after i ("remote and not remote
// workers"): the two are then compared.
func (p *parser) otherAnswer(q *question, i int, stem string, negated bool) {
	j := i + 1
	for j < len(p.ts) && p.ts[j].stem != "" && (slices.Contains(q.stems, p.ts[j].stem) || fillerWords[p.words[j]]) {
		j++ // "returning next year vs not", "coming back vs not"
	}
	if !negated && (listJoins[p.word(j)] || crossWords[p.word(j)]) {
		if k := j + 1; p.word(k) == "not" || p.word(k) == "non" { // "remote vs not"
			p.add(q, query.Filter{Op: query.Equals, Value: false}, k)
			p.used[j], p.used[k] = true, true
			return
		}
	}
	for j := i + 1; j < len(p.ts); j++ {
		if p.used[j] || p.ts[j].stem != stem {
			continue
		}
		if p.negatedFor(j, 4, q) != negated {
			p.add(q, query.Filter{Op: query.Equals, Value: negated}, j)
			p.used[j] = true
		}
		return
	}
}

// excludedFor reports whether the option named at i is in a clause that
// excludes ("excluding people whose favourite drink is tea"): an exclusion word
// up to eight words before it, with no comma, no word read as something else and
// no other question between.
func (p *parser) excludedFor(i int, q *question) bool {
	return p.wordBefore(i, 8, q, exclusionWords, false)
}

// orMorePhrases and orLessPhrases open a number upwards or downwards after its
// scale ("7 out of 10 or more").
var (
	orMorePhrases = phrases("or more", "or higher", "or above", "and above", "and up")
	orLessPhrases = phrases("or less", "or lower", "or below", "and below", "and under")
)

// excludedAfter reports whether words right after an option leave it out ("uk
// not included", "germany excluded"), and marks them read.
func (p *parser) excludedAfter(end int) bool {
	return p.markPhraseAt(end, excludedAfterPhrases) > 0
}

// excludedAfterPhrases follow an answer they leave out.
var excludedAfterPhrases = phrases("not included", "not counted", "not counting", "excluded", "left out", "aside")

// exclusionWords leave out the respondents their clause names.
var exclusionWords = text.Set("excluding exclude except ignoring ignore without")

// negatedFor is negatedBefore for a condition on q: a word naming another
// question ends the search, as the negation is that question's ("who don't
// *recommend* us are French").
func (p *parser) negatedFor(i, n int, q *question) bool {
	return p.wordBefore(i, n, q, negators, true)
}

// wordBefore reports whether a word of set stands up to n words before i, with
// no comma, no word read as something else, no word of another question than q
// (when q is not nil) and, when inClause, no "who" or "that" between; it marks
// the words from it to i read.
func (p *parser) wordBefore(i, n int, q *question, set map[string]bool, inClause bool) bool {
	for k := i - 1; k >= max(0, i-n); k-- {
		w := p.words[k]
		if w == "," || inClause && (w == "who" || w == "that") || p.used[k] || q != nil && p.namesOtherQuestion(k, q) {
			return false
		}
		if set[w] && beWords[p.word(k+1)] && k+1 < i && !set[p.word(k+2)] {
			return false // "the ones who wouldn't are from germany": the negation's verb is left out, the copula starts anew
		}
		if set[w] {
			for j := k; j < i; j++ {
				if j == k || p.ts[j].stem == "" || fillerWords[p.words[j]] {
					p.used[j] = true // a word it does not know stays unknown: "non-vegan customers"
				}
			}
			return true
		}
	}
	return false
}

// namesOtherQuestion reports whether the word at k is a word of a question
// other than q and of no option of q.
func (p *parser) namesOtherQuestion(k int, q *question) bool {
	st := p.ts[k].stem
	if st == "" || slices.Contains(q.stems, st) {
		return false
	}
	for _, o := range q.options {
		if slices.Contains(o.stems, st) {
			return false
		}
	}
	for qi := range p.cf.qs {
		if other := &p.cf.qs[qi]; other != q && slices.Contains(other.stems, st) && p.cf.df[st] == 1 {
			return true
		}
	}
	return false
}

// inverse is the comparison a negation turns op into ("not more than 2").
var inverse = map[query.Op]query.Op{query.GT: query.LTE, query.GTE: query.LT, query.LT: query.GTE, query.LTE: query.GT,
	query.Equals: query.NotEquals}

// options turns the options named in the message into conditions.
func (p *parser) options() []mention {
	ms := slices.DeleteFunc(p.cf.mentions(p.ts, p.used), func(m mention) bool {
		prev := p.word(m.start - 1)
		return mentionVerbs[prev] || prev == "about" && listedThings[p.word(m.start-2)] // "comments that mention support", "answers about milk" search the text
	})
	var prevOp query.Op
	for mi, m := range ms {
		op := query.Equals
		if p.negatedFor(m.start, 4, m.q) || p.excludedFor(m.start, m.q) || p.excludedAfter(m.end) ||
			prevOp == query.NotEquals && ms[mi-1].q == m.q && p.onlyJoinsBetween(ms[mi-1].end, m.start) {
			op = query.NotEquals // "except Germany and France" leaves out both
		}
		prevOp = op
		p.add(m.q, query.Filter{Op: op, Value: m.label}, m.start)
		for k := m.start; k < m.end; k++ {
			p.used[k] = true
		}
		p.markPreference(m.start)
		p.cf.absorb(p.ts, p.used, m.q, m.start, m.end, 3)
		if usageWords[p.word(m.end)] && rateWords[p.word(m.end+1)] {
			p.used[m.end], p.used[m.end+1], p.rate = true, true, true // "childcare usage rate": the share who chose it
		}
	}
	return ms
}

// usageWords before "rate" after an option ask for the share who chose it.
var usageWords = text.Set("usage uptake adoption use")

// preferVerbs say which option someone chose ("liked the panel best").
var preferVerbs = text.Set("like liked likes love loved loves prefer prefers preferred enjoy enjoyed enjoys " +
	"chose choose picked pick selected select")

// markPreference marks a verb of preference just before an option named at start
// ("liked the panel"), which says the option was chosen and names no question.
func (p *parser) markPreference(start int) {
	k := start - 1
	if determiners[p.word(k)] {
		k--
	}
	if k >= 0 && preferVerbs[p.words[k]] && !p.used[k] {
		p.used[k] = true
	}
}

// yesNo finds yes_no questions named by their distinctive words ("would recommend
// us") and turns them into conditions, negated by "not", "no" or "said no to".
func (p *parser) yesNo() {
	for qi := range p.cf.qs {
		q := &p.cf.qs[qi]
		if q.q.Type != form.YesNo {
			continue
		}
		for i, t := range p.ts {
			if p.used[i] || t.stem == "" || !slices.Contains(q.stems, t.stem) || p.cf.df[t.stem] != 1 {
				continue
			}
			negated := p.negatedFor(i, 4, q)
			bare := !negated && !p.answerBefore(i)
			if negated && p.bothWays(i) {
				p.add(q, query.Filter{Op: query.Equals, Value: true}, i) // "who would and wouldn't recommend"
			}
			p.add(q, query.Filter{Op: query.Equals, Value: !negated}, i)
			p.conds[len(p.conds)-1].bare = bare
			p.markSaid(i)
			p.used[i] = true
			p.otherAnswer(q, i, t.stem, negated)
			p.cf.absorb(p.ts, p.used, q, i, i+1, 5)
			p.rateOf(i)
			break
		}
	}
}

// receivedVerbs after a subject noun say it was rated ("the score the event got").
var receivedVerbs = text.Set("got gets received receives earned earns scored")

// subjectNouns name what a survey is about; after a rating verb ("rated the event
// 5", "rate our cafe") they are the thing rated, not a word of another question.
var (
	subjectNouns = text.Set("event conference cafe café shop store restaurant company product service experience " +
		"course class hotel app website site place venue business brand")
	rateVerbs   = text.Set("rate rated rates rating gave give scored score")
	scoreVerbs  = text.Set("gave give scored score scoring")
	determiners = text.Set("the our this your their that its")
)

// ratedSubject marks the subject noun a rating verb governs as used, when the form
// has a rating question.
func (p *parser) ratedSubject() {
	if p.cf.firstOfType(form.Rating) == nil {
		return
	}
	for i, w := range p.words {
		if subjectNouns[w] && receivedVerbs[p.word(i+1)] && !p.used[i] {
			p.used[i] = true // "mean overall score event got": the thing rated
		}
		if !rateVerbs[w] {
			continue
		}
		k := i + 1
		for determiners[p.word(k)] {
			k++
		}
		if (k > i+1 || givenVerbs[w]) && subjectNouns[p.word(k)] && !p.used[k] { // "gave (the) event 1 star"
			p.used[k] = true
		}
	}
}

// answerBefore reports whether "yes" or "no" stands among the four words before i.
func (p *parser) answerBefore(i int) bool {
	for k := max(0, i-4); k < i; k++ {
		if yesOrNo[p.words[k]] {
			return true
		}
	}
	return false
}

// rateWords after a yes_no question's word ask for the share that said yes
// ("recommend rate", "return ratio").
var rateWords = text.Set("rate rates ratio")

// percentWords after a yes_no question's word ask for the share that said yes too.
var percentWords = text.Set("percent percentage pct % share")

// shareRate reads "rate" right after a comparison ("5 star rate", "4+ rate") as
// the share of the responses it keeps, even when the rating question took the
// word.
func (p *parser) shareRate(end int) {
	k := end
	if p.word(k) == "star" || p.word(k) == "stars" {
		k++
	}
	if rateWords[p.word(k)] {
		p.used[k], p.rate = true, true
	}
}

// rateOf reads "<yes_no word> rate" or "… percent" (within the next two words)
// as the share of yes answers, marking the rate word used so it does not name a
// rating question: "engineering remote work percent" is the share among Engineering.
func (p *parser) rateOf(i int) {
	for k := i + 1; k <= i+2 && k < len(p.ts); k++ {
		if rateWords[p.words[k]] && (objectPronouns[p.word(k+1)] || p.word(k+1) == "it" || determiners[p.word(k+1)]) {
			return // "people who'd recommend us rate us": the verb, the rating
		}
		if (rateWords[p.words[k]] || percentWords[p.words[k]]) && !p.used[k] {
			p.used[k], p.rate = true, true
			return
		}
	}
}

// skipVerbs say a question was left blank; fillVerbs do when negated ("did not
// answer").
var (
	skipVerbs = text.Set("skip skipped skipping skips omit omitted blank empty unanswered")
	fillVerbs = text.Set("answer answered respond responded reply replied fill filled complete completed give gave provide provided enter entered")
)

// blankAsked reads "skipped <question>", "left <question> blank" and "did not
// answer <question>" in a count about a question, marking those words used. It
// leaves them for the coverage check when the count names no question.
func (p *parser) blankAsked(in *request) bool {
	if in.target == nil || (in.metric != query.Count && in.metric != query.Percent && in.metric != "") {
		return false
	}
	for i, w := range p.words {
		if p.used[i] {
			continue
		}
		if skipVerbs[w] {
			p.used[i] = true
			return true
		}
		if fillVerbs[w] && p.negatedBefore(i, 2) {
			p.used[i] = true
			return true
		}
	}
	return false
}

// answerVerbs introduce a text-like question that was answered ("left a
// comment", "gave their email").
var answerVerbs = text.Set("left leave leaving gave give giving provided provide wrote write writing shared share said say says told " +
	"included include added add entered enter submitted commented filled with without")

// answeredText turns "left a comment" or "without an email" into is_not_empty or
// is_empty conditions on text-like questions.
func (p *parser) answeredText() {
	for i, w := range p.words {
		if !answerVerbs[w] || p.used[i] || p.optionAfter(i) || p.shareNoun(i) {
			continue // "said the Workshop was …" reports a choice
		}
		for k := i + 1; k < len(p.ts) && k <= i+4; k++ {
			q := p.textQuestionAt(k)
			if q == nil {
				continue
			}
			op := query.IsNotEmpty
			if w == "without" || p.negatedBefore(i, 3) || p.negatedBefore(k, k-i-1) || p.blankAfter(k) {
				op = query.IsEmpty
			}
			p.add(q, query.Filter{Op: op}, i)
			p.used[i], p.used[k] = true, true
			break
		}
	}
}

// shareNoun reports whether "share" at i is the noun of a percentage ("what
// share said latte", "the share of"), not the verb ("shared a comment").
func (p *parser) shareNoun(i int) bool {
	return p.words[i] == "share" && (i == 0 || shareDeterminers[p.word(i-1)] || p.word(i+1) == "of")
}

// shareDeterminers come before "share" the noun.
var shareDeterminers = text.Set("what whats which the a")

// titleWordAfter reports whether the word after i is a word of the form's title
// and not of q.
func (p *parser) titleWordAfter(i int, q *question) bool {
	t := p.ts[min(i+1, len(p.ts)-1)]
	return i+1 < len(p.ts) && t.stem != "" && slices.Contains(p.cf.titleStems, t.stem) && !slices.Contains(q.stems, t.stem)
}

// optionAfter reports whether an option is named right after i, or after "the".
func (p *parser) optionAfter(i int) bool {
	return slices.ContainsFunc(p.conds, func(c cond) bool {
		return isOptionCond(c) && (c.pos == i+1 || c.pos == i+2 && p.word(i+1) == "the")
	})
}

// textQuestionAt returns the text-like question the word at k names, if any.
func (p *parser) textQuestionAt(k int) *question {
	t := p.ts[k]
	if p.used[k] {
		return nil
	}
	for qi := range p.cf.qs {
		q := &p.cf.qs[qi]
		if !isTextLike(q.q) {
			continue
		}
		if typeCues[q.q.Type][t.low] || (t.stem != "" && slices.Contains(q.stems, t.stem) && p.cf.df[t.stem] == 1) {
			return q
		}
	}
	return nil
}

// sentimentClasses name sentiment classes.
var sentimentClasses = map[string]string{
	"positive": query.Positive, "negative": query.Negative, "neutral": query.Neutral,
	"happy": query.Positive, "unhappy": query.Negative, "angry": query.Negative, "complaints": query.Negative,
}

// sentimentWords returns the sentiment classes named in the message, marking them.
func (p *parser) sentimentWords() []string {
	var out []string
	for i, w := range p.words {
		if c, ok := sentimentClasses[w]; ok && !p.used[i] && !slices.Contains(out, c) {
			out = append(out, c)
			p.used[i] = true
		}
	}
	return out
}

// freeTextQuestion returns the free-text question the message names, or the form's
// first one.
func (p *parser) freeTextQuestion(scores []float64) *question {
	var best *question
	bestScore := 0.0
	for qi := range p.cf.qs {
		if q := &p.cf.qs[qi]; isFreeText(q.q) && (best == nil || scores[qi] > bestScore) {
			best, bestScore = q, scores[qi]
		}
	}
	return best
}

// sayVerbs introduce a yes or no answer.
var sayVerbs = text.Set("said say saying answered answer voted chose picked replied ticked")

// unboundYesNo finds "said no", "answered yes" and similar answers that name no
// question; it returns the answer.
func (p *parser) unboundYesNo() (value, ok bool) {
	for i, w := range p.words {
		if (w != "yes" && w != "no") || p.used[i] {
			continue
		}
		prev := p.word(i - 1)
		if sayVerbs[prev] || p.word(i+1) == "?" || p.word(i+1) == "" || p.word(i+1) == "to" {
			p.used[i] = true
			if sayVerbs[prev] {
				p.used[i-1] = true
			}
			return w == "yes", true
		}
	}
	return false, false
}

// markSaid marks "said yes to" / "answered no to" before position i as used, so
// that "said" does not point at a text question.
func (p *parser) markSaid(i int) {
	for k := i - 1; k >= max(0, i-4); k-- {
		if sayVerbs[p.words[k]] || p.words[k] == "yes" || p.words[k] == "no" || p.words[k] == "to" {
			p.used[k] = true
		}
	}
}

// pickVerbs answer a choice question ("did not pick any features").
var pickVerbs = text.Set("pick picked choose chose select selected use used answer answered tick ticked mention mentioned")

// anyWords and noneWords stand for an answer of a choice question in "did not
// pick any features", "don't add anything", "use no benefits".
var (
	anyWords  = text.Set("any anything some something")
	noneWords = text.Set("no none nothing")
)

// noneChosen turns "did not pick any <question>", "use no <question>" and "don't
// add anything" (a verb of the question's own text) into an is_empty condition on
// a choice question, and "picked any <question>" into is_not_empty.
func (p *parser) noneChosen() {
	for i, w := range p.words {
		if (!anyWords[w] && !noneWords[w]) || p.used[i] || i == 0 || p.used[i-1] || p.ts[i-1].stem == "" && !negators[p.words[i-1]] {
			continue
		}
		q, at := p.choiceNamedNear(i)
		if q == nil || p.titleWordAfter(i, q) {
			continue // "drink no coffee": the form's own word, not “Favourite drink” left blank
		}
		op := query.IsNotEmpty
		if noneWords[w] || p.words[i-1] == "without" || p.negatedBefore(i-1, 3) {
			op = query.IsEmpty // "did not pick any", "without any benefits"
		}
		p.add(q, query.Filter{Op: op}, i-1)
		p.used[i-1], p.used[i], p.used[at] = true, true, true
		p.cf.absorb(p.ts, p.used, q, i-1, i+1, 3)
		return
	}
}

// choiceNamedNear returns the choice question named by the verb before i ("add",
// "use") or by a word in the three after it ("features"), and where.
func (p *parser) choiceNamedNear(i int) (*question, int) {
	isChoice := func(q *question) bool {
		return q != nil && (q.q.Type == form.MultiSelect || q.q.Type == form.Select)
	}
	if q := p.namedAt(i - 1); isChoice(q) {
		return q, i - 1
	}
	if !pickVerbs[p.words[i-1]] && !noneWords[p.words[i]] && p.words[i-1] != "without" {
		return nil, 0
	}
	for k := i + 1; k < len(p.ts) && k <= i+3; k++ {
		if q := p.namedAt(k); isChoice(q) {
			return q, k
		}
	}
	return nil, 0
}

// namedAt returns the question whose distinctive word is at k.
func (p *parser) namedAt(k int) *question {
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

// isScale reports whether q is answered on a scale: a rating or a slider.
func isScale(q *form.Question) bool { return q.Type == form.Rating || q.Type == form.Slider }
