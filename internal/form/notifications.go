package form

// Notifications are the emails a form sends on each completed submission.
type Notifications struct{}

// remapQuestions renames the question ids n refers to (Settings.RemapQuestions).
func (n *Notifications) remapQuestions(ids map[int64]int64) {}
