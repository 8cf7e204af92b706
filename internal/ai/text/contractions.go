package text

import "strings"

// clitics are the contracted endings of English and the words they stand for.
var clitics = map[string]string{"n't": "not", "'re": "are", "'ve": "have", "'d": "would", "'ll": "will", "'s": "is"}

// wholeContractions are contractions that are not a word and a clitic.
var wholeContractions = map[string]string{"won't": "will not", "can't": "can not"}

// Expansions returns old, new pairs for strings.NewReplacer that write out the
// contractions given: a whole contraction ("won't" → "will not"), a word with a
// clitic ("you're" → "you are"), or a clitic alone, to expand wherever it ends a
// word ("n't" → " not"). It panics on a form that is none of these: that is a
// mistake in the caller's table, found when the program starts.
func Expansions(forms ...string) []string {
	var out []string
	for _, f := range forms {
		if full, ok := wholeContractions[f]; ok {
			out = append(out, f, full)
			continue
		}
		expanded := ""
		for c, word := range clitics {
			if strings.HasSuffix(f, c) {
				expanded = strings.TrimSuffix(f, c) + " " + word
			}
		}
		if expanded == "" {
			panic("text: no contraction " + f)
		}
		out = append(out, f, expanded)
	}
	return out
}
