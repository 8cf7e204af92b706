package form

import (
	"fmt"
	"strings"
	"unicode"
)

// TextKind says which white space a field of free text may hold besides spaces.
type TextKind int

const (
	// SingleLine text holds no line break (LF or CR); a tab is allowed. Titles,
	// question texts, options, API key names, URLs and the ids of logic are single
	// lines: each is shown, or used, on one line.
	SingleLine TextKind = iota
	// MultiLine text may also hold line feeds, alone or after a carriage return
	// (CRLF, as browsers send the lines of a textarea). Descriptions, chat messages,
	// AI prompts, answers, and the values and score map keys of logic (which are
	// compared with answers) are multi-line.
	MultiLine
)

// CheckText applies the rule all free text obeys, an owner's or a respondent's,
// and returns the problem of s, or ok. Refused: NUL (PostgreSQL cannot store it);
// every other C0 control but tab and, in MultiLine text, LF and the CR of a CRLF (a
// lone CR is refused; CRLF is kept as sent, never rewritten); DEL and the C1
// controls (U+007F to U+009F); line breaks in SingleLine text; and text that is
// not empty but made only of white space and invisible format characters (Unicode
// category Cf, such as U+200B, U+200E, U+2060 or U+FEFF) with at least one of the
// latter. Format characters inside visible text (a joiner in an emoji, a
// direction mark in mixed scripts) are kept. Whether a blank or empty text is
// allowed is the field's own rule.
func CheckText(s string, kind TextKind) (Reason, bool) {
	for i, r := range s {
		switch {
		case r == 0:
			return NewReason(MsgNUL), false
		case r == '\n' || r == '\r' && strings.HasPrefix(s[i+1:], "\n"):
			if kind == SingleLine {
				return NewReason(MsgLineBreak), false
			}
		case r == '\t':
		case r < 0x20 || r >= 0x7f && r <= 0x9f:
			return NewReason(MsgControl, fmt.Sprintf("U+%04X", r)), false
		}
	}
	if invisible(s) {
		return NewReason(MsgInvisible), false
	}
	return Reason{}, true
}

// invisible reports whether s is made only of white space and format characters,
// with at least one of the latter.
func invisible(s string) bool {
	format := false
	for _, r := range s {
		switch {
		case unicode.Is(unicode.Cf, r):
			format = true
		case !unicode.IsSpace(r):
			return false
		}
	}
	return format
}

// CheckField returns nil when s may be saved as field under CheckText's rule, or
// an Invalid *Error naming field.
func CheckField(field, s string, kind TextKind) error {
	if r, ok := CheckText(s, kind); !ok {
		return FieldInvalid(field, "%s", r.text())
	}
	return nil
}

// checkOwnerText records the problems of an owner's text field: its characters
// (CheckText), then its length in characters.
func checkOwnerText(s string, kind TextKind, min, max int, field string, p *Problems) {
	if r, ok := CheckText(s, kind); !ok {
		p.Add(field, "%s", r.text())
		return
	}
	checkLength(s, min, max, field, p)
}
