package form

// Notifications are the emails a form sends on each completed submission.
type Notifications struct{}
