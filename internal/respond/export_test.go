package respond

import "time"

// StartTokenAt is the HTML form's start token for a form shown at the given time,
// signed with secret (the server's "links" secret), for tests of its age.
func StartTokenAt(secret, shareToken string, at time.Time) string {
	return fillTimer{secret: []byte(secret)}.startToken(shareToken, at)
}
