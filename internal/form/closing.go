package form

import (
	"strings"
	"time"
)

// Closing a form (Settings.ClosesAt, MaxResponses, ClosedMessage): after either
// limit the public page shows the closed message and the respondent operations
// answer Closed (410 form_closed).

// DefaultClosedMessage is what respondents of a closed form read when its owner
// wrote no message of their own. It is the one English text of the rule, where a
// catalogue of the page's languages can pick it up.
const DefaultClosedMessage = "This form is closed and no longer accepts responses."

// Limits of the closing settings.
const (
	MaxClosedMessageLen = 2000
	// MaxResponsesLimit bounds maxResponses: far above any form's traffic, far
	// below the integers of either database.
	MaxResponsesLimit = 1_000_000_000
)

// Closed reports whether a form with settings s takes no more submissions at
// now, when responses completed submissions are stored: its closing time has
// come, or its responses reached their maximum.
func (s Settings) Closed(now time.Time, responses int) bool {
	return s.ClosesAt != nil && !now.Before(*s.ClosesAt) ||
		s.MaxResponses != nil && responses >= *s.MaxResponses
}

// setClosesAt parses an RFC 3339 time into s.ClosesAt (UTC, whole milliseconds
// as Forma's wire times); any past or future time is allowed, so that a time
// already passed closes the form at once.
func (s *Settings) setClosesAt(v string, p *Problems) {
	t, err := time.Parse(time.RFC3339Nano, v)
	if err != nil {
		p.Add("closesAt", "must be an RFC 3339 time such as 2026-12-24T18:00:00Z")
		return
	}
	t = t.UTC().Truncate(time.Millisecond)
	s.ClosesAt = &t
}

// setMaxResponses sets s.MaxResponses to n, a count from 1 to MaxResponsesLimit.
func (s *Settings) setMaxResponses(n int, p *Problems) {
	if n < 1 || n > MaxResponsesLimit {
		p.Add("maxResponses", "must be an integer from 1 to %d", MaxResponsesLimit)
		return
	}
	s.MaxResponses = &n
}

// setClosedMessage sets s.ClosedMessage to the owner's text m (MultiLine, at most
// MaxClosedMessageLen characters); "" restores the default.
func (s *Settings) setClosedMessage(m string, p *Problems) {
	checkOwnerText(m, MultiLine, 0, MaxClosedMessageLen, "closedMessage", p)
	if m != "" && strings.TrimSpace(m) == "" {
		p.Add("closedMessage", "must not be blank (leave it empty for the default message)")
	}
	s.ClosedMessage = m
}
