package store

import (
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"
)

// decodeAnswers decodes stored answers, a JSON object of answers by question id,
// exactly as json.Unmarshal into a map[int64]any does. Loading a large form's
// responses (render.Submissions.Dataset) spends much of its time here, so the
// shapes answers are stored in (strings without escapes, numbers, booleans, null
// and arrays of those) are read by a plain scan, and anything else, or anything
// unexpected, by json.Unmarshal.
func decodeAnswers(s string) (map[int64]any, error) {
	if m, ok := scanAnswers(s); ok {
		return m, nil
	}
	var m map[int64]any
	err := json.Unmarshal([]byte(s), &m)
	return m, err
}

// answersScan reads a JSON object of answers; ok is false as soon as the text is
// not of the plain shapes it reads.
type answersScan struct {
	s  string
	at int
	ok bool
}

// scanAnswers reads s when it is an object of plain answers.
func scanAnswers(s string) (map[int64]any, bool) {
	p := &answersScan{s: s, ok: true}
	if !p.take('{') {
		return nil, false
	}
	m := make(map[int64]any, strings.Count(s, `":`))
	if p.take('}') {
		return m, p.end()
	}
	for p.ok {
		id, err := strconv.ParseInt(p.str(), 10, 64)
		if err != nil || !p.take(':') {
			return nil, false
		}
		m[id] = p.value(true)
		if !p.take(',') {
			break
		}
	}
	return m, p.ok && p.take('}') && p.end()
}

// space skips white space.
func (p *answersScan) space() {
	for p.at < len(p.s) && (p.s[p.at] == ' ' || p.s[p.at] == '\t' || p.s[p.at] == '\n' || p.s[p.at] == '\r') {
		p.at++
	}
}

// take skips white space and the byte c, if it comes next.
func (p *answersScan) take(c byte) bool {
	p.space()
	if p.at < len(p.s) && p.s[p.at] == c {
		p.at++
		return true
	}
	return false
}

// end reports whether only white space is left.
func (p *answersScan) end() bool {
	p.space()
	return p.at == len(p.s)
}

// fail marks the text as not plain.
func (p *answersScan) fail() any {
	p.ok = false
	return nil
}

// value reads a string, number, boolean or null, or (when array) an array of them.
func (p *answersScan) value(array bool) any {
	p.space()
	if p.at == len(p.s) {
		return p.fail()
	}
	switch c := p.s[p.at]; {
	case c == '"':
		return p.str()
	case c == '[' && array:
		return p.array()
	case c == '-' || c >= '0' && c <= '9':
		return p.number()
	}
	for _, lit := range []struct {
		text  string
		value any
	}{{"true", true}, {"false", false}, {"null", nil}} {
		if strings.HasPrefix(p.s[p.at:], lit.text) {
			p.at += len(lit.text)
			return lit.value
		}
	}
	return p.fail()
}

// array reads an array of strings, numbers, booleans and nulls.
func (p *answersScan) array() any {
	p.at++ // [
	out := []any{}
	if p.take(']') {
		return out
	}
	for p.ok {
		out = append(out, p.value(false))
		if !p.take(',') {
			break
		}
	}
	if !p.take(']') {
		return p.fail()
	}
	return out
}

// str reads a string with no escapes and no control characters, in valid UTF-8.
func (p *answersScan) str() string {
	if !p.take('"') {
		p.fail()
		return ""
	}
	start := p.at
	for p.at < len(p.s) {
		switch c := p.s[p.at]; {
		case c == '"':
			p.at++
			s := p.s[start : p.at-1]
			if !utf8.ValidString(s) {
				p.fail()
			}
			return s
		case c == '\\' || c < 0x20:
			p.fail()
			return ""
		}
		p.at++
	}
	p.fail()
	return ""
}

// number reads a JSON number as a float64.
func (p *answersScan) number() any {
	start := p.at
	p.skip("-")
	if p.skip("0") == 0 && p.digits() == 0 {
		return p.fail()
	}
	if p.skip(".") == 1 && p.digits() == 0 {
		return p.fail()
	}
	if p.skip("eE") == 1 {
		p.skip("+-")
		if p.digits() == 0 {
			return p.fail()
		}
	}
	f, err := strconv.ParseFloat(p.s[start:p.at], 64)
	if err != nil {
		return p.fail()
	}
	if n := int(f); float64(n) == f && n > 0 && n < len(smallNumbers) {
		return smallNumbers[n] // no allocation for the ratings and counts most answers are
	}
	return f
}

// smallNumbers holds the numbers 0 to 1023 as values of type any, boxed once.
var smallNumbers = func() (out [1024]any) {
	for i := range out {
		out[i] = float64(i)
	}
	return out
}()

// skip skips one byte among set, if it comes next, and returns how many it skipped.
func (p *answersScan) skip(set string) int {
	if p.at < len(p.s) && strings.IndexByte(set, p.s[p.at]) >= 0 {
		p.at++
		return 1
	}
	return 0
}

// digits skips digits and returns how many it skipped.
func (p *answersScan) digits() int {
	start := p.at
	for p.at < len(p.s) && p.s[p.at] >= '0' && p.s[p.at] <= '9' {
		p.at++
	}
	return p.at - start
}
