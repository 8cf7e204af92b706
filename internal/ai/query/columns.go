package query

import (
	"math"
	"strings"
	"sync"

	"forma/internal/form"
)

// column holds the answers to one question by response index, with what the
// metrics read from them worked out once per engine, so that a query is a pass
// over plain slices instead of decoding every answer again: whether each is
// answered, and, on first use, its number, its categories, its date or time and
// its sentiment score.
type column struct {
	q    *form.Question
	vals []any  // the answers, nil when unanswered
	ans  []bool // answered(vals[i])

	numOnce sync.Once
	num     []float64 // asNumber(vals[i]) when isNum[i]
	isNum   []bool

	catOnce sync.Once
	cat     *categoryColumn

	textOnce sync.Once
	text     []string // asDate or asClock (by the question's type) of vals[i]; "" when not valid

	sentOnce sync.Once
	sent     []float64 // sentiment score of asText(vals[i]) when ans[i]
}

// readColumns reads the answers to the questions qs from the responses rs, in one
// pass over their answers: a column by question id.
func readColumns(qs map[int64]*form.Question, rs []form.Submission) map[int64]*column {
	cols := make(map[int64]*column, len(qs))
	for id, q := range qs {
		cols[id] = &column{q: q, vals: make([]any, len(rs)), ans: make([]bool, len(rs))}
	}
	for i := range rs {
		for id, v := range rs[i].Answers {
			if c, ok := cols[id]; ok {
				c.vals[i], c.ans[i] = v, answered(v)
			}
		}
	}
	return cols
}

// numbers returns the numeric answers (asNumber) and which responses have one.
func (c *column) numbers() ([]float64, []bool) {
	c.numOnce.Do(func() {
		c.num, c.isNum = make([]float64, len(c.vals)), make([]bool, len(c.vals))
		for i, v := range c.vals {
			c.num[i], c.isNum[i] = asNumber(v)
		}
	})
	return c.num, c.isNum
}

// orderedText returns the answers that are valid dates (valid times for a time
// question), trimmed; "" for the others.
func (c *column) orderedText() []string {
	c.textOnce.Do(func() {
		parse := asDate
		if c.q.Type == form.Time {
			parse = asClock
		}
		c.text = make([]string, len(c.vals))
		parsed := map[string]string{} // the answers met so far, parsed
		for i, v := range c.vals {
			str, ok := v.(string) // other answers are not valid
			if !ok {
				continue
			}
			s, ok := parsed[str]
			if !ok {
				s, _ = parse(str) // "" when not valid
				parsed[str] = s
			}
			c.text[i] = s
		}
	})
	return c.text
}

// scores returns the sentiment score of every answered response's text.
func (c *column) scores(cache *sentimentCache) []float64 {
	c.sentOnce.Do(func() {
		c.sent = make([]float64, len(c.vals))
		for i, v := range c.vals {
			if c.ans[i] {
				c.sent[i] = cache.score(asText(v))
			}
		}
	})
	return c.sent
}

// categoryColumn is the category labels (eachKey) of every answer, interned: the
// labels of response i are ids[start[i]:start[i+1]], label ids that index labels
// and keyOf, the id of the label's count key (its lower-cased form) in keys.
type categoryColumn struct {
	start  []int32
	ids    []int32
	labels []string
	keyOf  []int32
	keys   []string
	keyID  map[string]int32 // keys[k] → k
}

// categories returns the category labels of the answers, worked out on first use.
func (c *column) categories(e *Engine) *categoryColumn {
	c.catOnce.Do(func() {
		cc := &categoryColumn{start: make([]int32, len(c.vals)+1), keyID: map[string]int32{}}
		labelID := map[string]int32{}
		seen := map[any][]int32{}     // label ids of the scalar answers met so far
		options := map[string]int32{} // label ids of the options of selections met so far
		for i, v := range c.vals {
			key := v
			if x, ok := v.(float64); ok {
				key = math.Float64bits(x) // -0 is not 0, and NaN is itself
			}
			switch v.(type) {
			case string, float64, bool: // the same answer has the same labels
				ids, ok := seen[key]
				if !ok {
					ids = cc.labelIDs(e, c.q, v, labelID)
					seen[key] = ids
				}
				cc.ids = append(cc.ids, ids...)
			default:
				cc.ids = cc.appendSelection(e, c.q, v, labelID, options)
			}
			cc.start[i+1] = int32(len(cc.ids))
		}
		c.cat = cc
	})
	return c.cat
}

// labelIDs returns the ids of the category labels of answer v to q, interning
// the new ones; labelID holds the ids of the labels interned so far.
func (cc *categoryColumn) labelIDs(e *Engine, q *form.Question, v any, labelID map[string]int32) []int32 {
	var ids []int32
	e.eachKey(q, v, func(label string) { ids = append(ids, cc.id(label, labelID)) })
	return ids
}

// appendSelection appends to cc.ids the label ids of the answer v to q, which is
// not a string, number or boolean: as eachKey would, but for the options of a
// multi_select selection, each worked out once (options holds their ids).
func (cc *categoryColumn) appendSelection(e *Engine, q *form.Question, v any, labelID map[string]int32, options map[string]int32) []int32 {
	if kindOf(q.Type) != kindMulti || !answered(v) {
		return append(cc.ids, cc.labelIDs(e, q, v, labelID)...)
	}
	for _, o := range asStrings(v) {
		id, ok := options[o]
		if !ok {
			id = cc.id(canonicalOption(q, o), labelID)
			options[o] = id
		}
		cc.ids = append(cc.ids, id)
	}
	return cc.ids
}

// id returns the id of label, interning it when new.
func (cc *categoryColumn) id(label string, labelID map[string]int32) int32 {
	id, ok := labelID[label]
	if !ok {
		id = cc.intern(label)
		labelID[label] = id
	}
	return id
}

// intern adds a new label and returns its id.
func (cc *categoryColumn) intern(label string) int32 {
	key := strings.ToLower(label)
	k, ok := cc.keyID[key]
	if !ok {
		k = int32(len(cc.keys))
		cc.keys = append(cc.keys, key)
		cc.keyID[key] = k
	}
	cc.labels = append(cc.labels, label)
	cc.keyOf = append(cc.keyOf, k)
	return int32(len(cc.labels) - 1)
}

// of returns the label ids of response i.
func (cc *categoryColumn) of(i int) []int32 { return cc.ids[cc.start[i]:cc.start[i+1]] }
