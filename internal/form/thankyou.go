package form

// ThankYou is what a respondent sees, or where they are sent, after a completed
// submission.
type ThankYou struct{}

// remapQuestions renames the question ids t refers to (Settings.RemapQuestions).
func (t *ThankYou) remapQuestions(ids map[int64]int64) {}
