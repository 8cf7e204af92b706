package form

// ThankYou is what a respondent sees, or where they are sent, after a completed
// submission.
type ThankYou struct{}
