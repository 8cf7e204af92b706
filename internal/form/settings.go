package form

import (
	"encoding/json"
	"time"
)

// Settings are a form's optional owner features beyond api.md: hidden fields,
// email notifications, closing rules, the thank-you screen, embedding and the
// language of the public page. The zero value changes nothing, so forms made
// before them behave as they did. The store keeps them as one JSON document
// (forms.settings); the API shows them as top-level fields of a form.
type Settings struct {
	// HiddenFields names the values a submission may carry besides answers,
	// taken from the page URL's query string or the JSON submission's hidden
	// object.
	HiddenFields []string `json:"hiddenFields,omitempty"`
	// Notifications are the emails sent on each completed submission.
	Notifications *Notifications `json:"notifications,omitempty"`
	// ClosesAt, when set, is the moment the form stops taking submissions.
	ClosesAt *time.Time `json:"closesAt,omitempty"`
	// MaxResponses, when set, is the number of completed submissions after which
	// the form stops taking submissions.
	MaxResponses *int `json:"maxResponses,omitempty"`
	// ClosedMessage is shown on the page of a closed form (a default when empty).
	ClosedMessage string `json:"closedMessage,omitempty"`
	// ThankYou is the screen, or the redirect, after a completed submission.
	ThankYou *ThankYou `json:"thankYou,omitempty"`
	// Language is the BCP 47 tag of the public page's own words ("" is English).
	Language string `json:"language,omitempty"`
	// FrameAncestors, when not empty, are the only origins that may frame the
	// public page; any origin may when it is empty.
	FrameAncestors []string `json:"frameAncestors,omitempty"`
}

// Clone returns a deep copy of s.
func (s Settings) Clone() Settings {
	b, err := json.Marshal(s)
	if err != nil {
		panic("form: settings do not marshal: " + err.Error())
	}
	var c Settings
	if err := json.Unmarshal(b, &c); err != nil {
		panic("form: settings do not unmarshal: " + err.Error())
	}
	return c
}

// RemapQuestions replaces every question id the settings refer to (piped
// answers, the confirmation's email question, redirect parameters) that is a key
// of ids by its value: the settings of a copied or imported form then name its
// own questions.
func (s *Settings) RemapQuestions(ids map[int64]int64) {
	if s.Notifications != nil {
		s.Notifications.remapQuestions(ids)
	}
	if s.ThankYou != nil {
		s.ThankYou.remapQuestions(ids)
	}
}
