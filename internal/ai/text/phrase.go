package text

import "strings"

// Phrase is a sequence of lower-case words to look for among the words of a text.
type Phrase []string

// Phrases splits a "|"-separated list into phrases, each split with Words:
// Phrases("net promoter|nps").
func Phrases(list string) []Phrase {
	var out []Phrase
	for _, p := range strings.Split(list, "|") {
		out = append(out, Phrase(Words(p)))
	}
	return out
}

// sameWord reports whether w is p as written.
func sameWord(w, p string) bool { return w == p }

// wordForm reports whether w is the word p, allowing a plural or possessive ending
// on w ("comments" is "comment", "child's" is "child", "parties" is "party").
func wordForm(w, p string) bool {
	if strings.HasPrefix(w, p) {
		switch w[len(p):] {
		case "", "s", "es", "'s":
			return true
		}
	}
	stem := strings.TrimSuffix(p, "y")
	return stem != p && len(w) == len(stem)+3 && strings.HasPrefix(w, stem) && strings.HasSuffix(w, "ies")
}

// at reports whether ph occurs in ws at index i, each word compared with same.
func (ph Phrase) at(ws []string, i int, same func(w, p string) bool) bool {
	if len(ph) == 0 || i < 0 || i+len(ph) > len(ws) {
		return false
	}
	for j, p := range ph {
		if !same(ws[i+j], p) {
			return false
		}
	}
	return true
}

// index returns the first index at which ph occurs in ws, or -1.
func (ph Phrase) index(ws []string, same func(w, p string) bool) int {
	for i := 0; i+len(ph) <= len(ws); i++ {
		if ph.at(ws, i, same) {
			return i
		}
	}
	return -1
}

// At reports whether ph occurs word for word in ws at index i.
func (ph Phrase) At(ws []string, i int) bool { return ph.at(ws, i, sameWord) }

// Index returns the first index at which ph occurs word for word in ws, or -1.
func (ph Phrase) Index(ws []string) int { return ph.index(ws, sameWord) }

// AtForms reports whether ph occurs in ws at index i, a word of ws matching with a
// plural or possessive ending.
func (ph Phrase) AtForms(ws []string, i int) bool { return ph.at(ws, i, wordForm) }

// IndexForms returns the first index at which ph occurs in ws, allowing plural and
// possessive endings, or -1.
func (ph Phrase) IndexForms(ws []string) int { return ph.index(ws, wordForm) }

// EqualsForms reports whether ws is exactly ph, allowing plural and possessive
// endings.
func (ph Phrase) EqualsForms(ws []string) bool { return len(ws) == len(ph) && ph.AtForms(ws, 0) }

// AnyForms reports whether any of phs occurs in ws, allowing plural and possessive
// endings.
func AnyForms(ws []string, phs []Phrase) bool {
	for _, ph := range phs {
		if ph.IndexForms(ws) >= 0 {
			return true
		}
	}
	return false
}

// Any reports whether any of phs occurs word for word in ws.
func Any(ws []string, phs []Phrase) bool {
	for _, ph := range phs {
		if ph.Index(ws) >= 0 {
			return true
		}
	}
	return false
}
