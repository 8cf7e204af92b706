package builtin

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// words returns the lower-case words of s: runs of letters and digits with the
// apostrophes and hyphens inside them ("child's", "t-shirt"). A "%" is a word of its
// own; every other character separates words.
func words(s string) []string { return splitWords(strings.ToLower(s)) }

// splitWords returns the words of s as written.
func splitWords(s string) []string {
	var out []string
	var b strings.Builder
	flush := func() {
		if w := strings.Trim(b.String(), "'-"); w != "" {
			out = append(out, w)
		}
		b.Reset()
	}
	for _, r := range s {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		case r == '\'' || r == '’':
			b.WriteByte('\'')
		case r == '-' && b.Len() > 0:
			b.WriteByte('-')
		case r == '%':
			flush()
			out = append(out, "%")
		default:
			flush()
		}
	}
	flush()
	return out
}

// phrase is a sequence of words to look for in a fragment.
type phrase []string

// phrases splits a "|"-separated list into phrases.
func phrases(list string) []phrase {
	var out []phrase
	for _, p := range strings.Split(list, "|") {
		out = append(out, phrase(words(p)))
	}
	return out
}

// wordIs reports whether the word w is the word p, allowing a plural or possessive
// ending on w ("comments" is "comment", "child's" is "child").
func wordIs(w, p string) bool {
	if strings.HasPrefix(w, p) {
		switch w[len(p):] {
		case "", "s", "es", "'s":
			return true
		}
	}
	stem := strings.TrimSuffix(p, "y")
	return stem != p && len(w) == len(stem)+3 && strings.HasPrefix(w, stem) && strings.HasSuffix(w, "ies")
}

// find returns the first index at which ph occurs in ws, or -1.
func (ph phrase) find(ws []string) int {
	for i := 0; i+len(ph) <= len(ws); i++ {
		if ph.at(ws, i) {
			return i
		}
	}
	return -1
}

// at reports whether ph occurs in ws at index i.
func (ph phrase) at(ws []string, i int) bool {
	if len(ph) == 0 || i+len(ph) > len(ws) {
		return false
	}
	for j, p := range ph {
		if !wordIs(ws[i+j], p) {
			return false
		}
	}
	return true
}

// equals reports whether ws is exactly ph.
func (ph phrase) equals(ws []string) bool { return len(ws) == len(ph) && ph.at(ws, 0) }

// anyPhrase reports whether any of phs occurs in ws.
func anyPhrase(ws []string, phs []phrase) bool {
	for _, ph := range phs {
		if ph.find(ws) >= 0 {
			return true
		}
	}
	return false
}

// set builds a lookup table from space-separated words.
func set(list string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(list) {
		m[w] = true
	}
	return m
}

// keyboardRows are the letter rows of a QWERTY keyboard; runs along them are typing
// noise, not words.
var keyboardRows = []string{"qwertyuiop", "asdfghjkl", "zxcvbnm"}

// gibberish reports whether the word w looks like keyboard mashing rather than a
// word: a run along a keyboard row, five letters without a vowel (four are an
// acronym such as RSVP), a long consonant run or one letter repeated.
func gibberish(w string) bool {
	if utf8.RuneCountInString(w) < 4 || strings.IndexFunc(w, func(r rune) bool { return !unicode.IsLetter(r) }) >= 0 {
		return false
	}
	for _, row := range keyboardRows {
		if strings.Contains(row, w) || strings.Contains(reverse(row), w) {
			return true
		}
	}
	vowels, run, longest, repeat, maxRepeat := 0, 0, 0, 0, 0
	var prev rune
	for _, r := range w {
		if strings.ContainsRune("aeiouy", r) {
			vowels++
			run = 0
		} else {
			run++
			longest = max(longest, run)
		}
		if r == prev {
			repeat++
		} else {
			repeat = 1
		}
		maxRepeat = max(maxRepeat, repeat)
		prev = r
	}
	return vowels == 0 && utf8.RuneCountInString(w) >= 5 || longest >= 6 || maxRepeat >= 4
}

func reverse(s string) string {
	r := []rune(s)
	for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
		r[i], r[j] = r[j], r[i]
	}
	return string(r)
}

// capitalize upper-cases the first letter of s.
func capitalize(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}

// smallWords stay lower case inside a title.
var smallWords = set("a an and as at but by for from in of on or the to with")

// titleCase capitalises each word of s except small words after the first; words
// that already carry capitals (SaaS, B2B) are kept as written.
func titleCase(s string) string {
	fs := strings.Fields(s)
	for i, f := range fs {
		if i > 0 && smallWords[strings.ToLower(f)] {
			fs[i] = strings.ToLower(f)
			continue
		}
		parts := strings.Split(f, "-")
		for j, p := range parts {
			parts[j] = capitalize(p)
		}
		fs[i] = strings.Join(parts, "-")
	}
	return strings.Join(fs, " ")
}

// truncate shortens s to at most n runes, cutting at a word boundary when it can.
func truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)[:n]
	cut := string(r)
	if i := strings.LastIndexByte(cut, ' '); i > n/2 {
		cut = cut[:i]
	}
	return strings.TrimSpace(cut)
}
