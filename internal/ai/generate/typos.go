package generate

import (
	"regexp"
	"strings"
	"unicode"

	"forma/internal/ai/text"
)

// typoTargets are the words that name fields and kinds of forms, which an English
// prompt's misspellings are corrected to ("emial" → "email").
var typoTargets = text.Set("email phone number address first message contact comment comments feedback " +
	"application registration experience salary resume description birthday birth quantity website company " +
	"payment delivery appointment reservation newsletter survey signature attachment upload rating " +
	"satisfaction satisfied recommend suggestion suggestions availability attendance allergies dietary " +
	"emergency preferred gender country postcode questionnaire customer restaurant request information " +
	"schedule interview booking order question questions category occupation department employer " +
	"organization organisation linkedin portfolio instructions additional details license licence name " +
	"cleanliness quality service")

// realWords are English words one letter away from a target that mean something
// else.
var realWords = text.Set("mail hone pone mane odder older massage county")

var letterRunRe = regexp.MustCompile(`\p{L}+`)

// fixTypos corrects the misspelled field words of an English prompt, keeping their
// capitals: "Emial adress" becomes "Email address". A word is corrected only to a
// single target one slip away (see slip).
func fixTypos(prompt string) string {
	return letterRunRe.ReplaceAllStringFunc(prompt, func(w string) string {
		lower := strings.ToLower(w)
		if len(lower) < 4 || typoTargets[lower] || realWords[lower] || typoTargets[strings.TrimSuffix(lower, "s")] {
			return w
		}
		fix := ""
		for t := range typoTargets {
			if slip(lower, t) {
				if fix != "" {
					return w
				}
				fix = t
			}
		}
		if fix == "" {
			return w
		}
		return sameCase(w, fix)
	})
}

// slip reports whether w is t typed with one slip: two neighbouring letters swapped
// (t of four letters or more), a letter left out (five or more), a vowel for another
// vowel or a letter doubled (six or more).
func slip(w, t string) bool {
	switch len(w) - len(t) {
	case 0:
		return len(t) >= 4 && swapped(w, t) || len(t) >= 6 && vowelSwapped(w, t)
	case -1:
		return len(t) >= 5 && dropped(w, t)
	case 1:
		return len(t) >= 6 && dropped(t, w) && doubled(w)
	}
	return false
}

// swapped reports whether w is t with two neighbouring letters exchanged.
func swapped(w, t string) bool {
	i := firstDifference(w, t)
	return i+1 < len(w) && w[i] == t[i+1] && w[i+1] == t[i] && w[i+2:] == t[i+2:]
}

// vowelSwapped reports whether w is t with one vowel replaced by another.
func vowelSwapped(w, t string) bool {
	i := firstDifference(w, t)
	return i < len(w) && isVowel(w[i]) && isVowel(t[i]) && w[i+1:] == t[i+1:]
}

// dropped reports whether short is long with one letter left out.
func dropped(short, long string) bool {
	i := firstDifference(short, long)
	return short[i:] == long[i+1:]
}

// doubled reports whether w has a letter twice in a row.
func doubled(w string) bool {
	for i := 1; i < len(w); i++ {
		if w[i] == w[i-1] {
			return true
		}
	}
	return false
}

// firstDifference returns the index of the first byte where a and b differ, or the
// length of the shorter.
func firstDifference(a, b string) int {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	return i
}

func isVowel(b byte) bool { return strings.IndexByte("aeiou", b) >= 0 }

// sameCase writes fix with the capitals of w: all capitals, a capital first, or
// none.
func sameCase(w, fix string) string {
	switch {
	case w == strings.ToUpper(w):
		return strings.ToUpper(fix)
	case unicode.IsUpper([]rune(w)[0]):
		return text.Capitalize(fix)
	}
	return fix
}
