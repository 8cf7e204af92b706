package generate

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"forma/internal/ai/text"
)

// keyboardRows are the letter rows of a QWERTY keyboard; runs along them are typing
// noise, not words.
var keyboardRows = []string{"qwertyuiop", "asdfghjkl", "zxcvbnm"}

// gibberish reports whether the word w looks like keyboard mashing rather than a
// word: a run along a keyboard row, five letters without a vowel (four are an
// acronym such as RSVP), a long consonant run or one letter repeated.
func gibberish(w string) bool {
	w = accentFolder.Replace(w)
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

// smallWords stay lower case inside a title.
var smallWords = text.Set("a an and as at but by for from in of on or the to with")

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
			parts[j] = text.Capitalize(p)
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
