package form

import (
	"fmt"
	"maps"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"
)

// Hidden fields are values a submission carries besides its answers, named by
// the form (Settings.HiddenFields): where a respondent came from, who they are
// in the owner's own system. They come from the query string of the page's
// address (/f/<shareUrl>?utm_source=newsletter) or from the hidden object of a
// JSON submission, and they are kept with the submission as text.

// Limits of hidden fields.
const (
	// MaxHiddenFields is the most hidden fields a form declares.
	MaxHiddenFields = 20
	// MaxHiddenNameLen is the longest name of a hidden field, in characters.
	MaxHiddenNameLen = 64
	// MaxHiddenValueLen is the longest value of a hidden field, in characters:
	// room for a campaign name or an id, not for a document.
	MaxHiddenValueLen = 500
)

// hiddenName is the syntax of a hidden field's name: it is a query parameter of
// the page's address and a column of the CSV export, so it keeps to characters
// that need no escaping in either.
var hiddenName = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

// prefillName is the syntax of the query parameters that prefill questions
// (q<questionId>), which no hidden field may take.
var prefillName = regexp.MustCompile(`^q[0-9]+$`)

// HiddenValues are the hidden-field values of a submission by field name;
// empty values are never kept.
type HiddenValues map[string]string

// checkHiddenName records the problem of one hidden field's name under field.
func checkHiddenName(name, field string, p *Problems) {
	switch {
	case name == "":
		p.Add(field, "must not be empty")
	case utf8.RuneCountInString(name) > MaxHiddenNameLen:
		p.Add(field, "must be at most %d characters (got %d)", MaxHiddenNameLen, utf8.RuneCountInString(name))
	case !hiddenName.MatchString(name):
		p.Add(field, "must be made of letters A-Z and a-z, digits, _ and - only (got %q)", name)
	case prefillName.MatchString(name):
		p.Add(field, "%q is reserved: q followed by a question id prefills that question", name)
	}
}

// validateHiddenFields records the problems of a form's hidden field names
// under hiddenFields: at most MaxHiddenFields names, each well-formed
// (checkHiddenName) and not the same as another one, ignoring case (they would
// be confused in a spreadsheet).
func validateHiddenFields(names []string, p *Problems) {
	list := uniqueList{field: "hiddenFields", noun: "names", limit: MaxHiddenFields}
	list.check(names, p, func(name, field string) (string, bool) {
		checkHiddenName(name, field, p)
		return strings.ToLower(name), true
	}, func(name, _ string) string { return fmt.Sprintf("duplicates the hidden field %q", name) })
}

// HiddenProblem says what is wrong with value as the value of a hidden field,
// or ok: it must be valid UTF-8, a single line (CheckText) and at most
// MaxHiddenValueLen characters.
func HiddenProblem(value string) (Reason, bool) {
	if !utf8.ValidString(value) {
		return NewReason(MsgInvalid), false
	}
	if r, ok := CheckText(value, SingleLine); !ok {
		return r, false
	}
	if n := utf8.RuneCountInString(value); n > MaxHiddenValueLen {
		return NewReason(MsgTextTooLong, fmt.Sprint(MaxHiddenValueLen), fmt.Sprint(n)), false
	}
	return Reason{}, true
}

// CheckHidden validates the hidden object of a JSON submission against the
// form's hidden fields: every name must be one of them and every value pass
// HiddenProblem. It returns the non-empty values, or an Invalid *Error naming
// each problem as hidden.<name>, in sorted order.
func (s Settings) CheckHidden(sent map[string]string) (HiddenValues, error) {
	var p Problems
	out := HiddenValues{}
	for _, name := range slices.Sorted(maps.Keys(sent)) {
		field := "hidden." + shortName(name)
		switch r, ok := HiddenProblem(sent[name]); {
		case !slices.Contains(s.HiddenFields, name):
			p.Add(field, "is not a hidden field of this form (it has: %s)", s.hiddenList())
		case !ok:
			p.AddReason(field, r)
		case sent[name] != "":
			out[name] = sent[name]
		}
	}
	return out, p.Err()
}

// hiddenList names the form's hidden fields for a message.
func (s Settings) hiddenList() string {
	if len(s.HiddenFields) == 0 {
		return "none"
	}
	return strings.Join(s.HiddenFields, ", ")
}

// shortName cuts a client-sent name to 40 characters for a field path.
func shortName(s string) string {
	if utf8.RuneCountInString(s) <= 40 {
		return s
	}
	return string([]rune(s)[:40]) + "…"
}

// HiddenFrom takes the values of the form's hidden fields from values, each
// under its name after prefix: the query string of the page's address ("") or
// the fields of its form post. A value that HiddenProblem refuses is left out
// (a link is not the respondent's to fix), as are empty ones and repeated
// parameters after the first.
func (s Settings) HiddenFrom(values url.Values, prefix string) HiddenValues {
	out := HiddenValues{}
	for _, name := range s.HiddenFields {
		v := values.Get(prefix + name)
		if _, ok := HiddenProblem(v); ok && v != "" {
			out[name] = v
		}
	}
	return out
}

// Merge returns h with the values of sent added, replacing those of the same
// names: how a session's saved values take those a later request sends.
func (h HiddenValues) Merge(sent HiddenValues) HiddenValues {
	out := maps.Clone(h)
	if out == nil {
		out = HiddenValues{}
	}
	maps.Copy(out, sent)
	return out
}
