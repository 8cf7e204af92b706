package form

import (
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The rule of duplicating a form, shared by every caller (store.DuplicateForm):
// a copy is a new draft of the same owner with the same details and questions;
// it has none of the original's responses, publication or webhook, and its share
// token is new.

// copyPrefix starts the title of a copy.
const copyPrefix = "Copy of "

// Copy returns a new draft of f for f's owner: "Copy of" and f's title (cut to
// MaxTitleLen characters), its description, display mode and questions with all
// their settings and logic. It has no id, share token, publication or webhook;
// its questions have no ids, and their logic still names f's questions until
// RemapCopy renames them after the copy is stored.
func (f *Form) Copy() *Form {
	c := &Form{AccountID: f.AccountID, Title: copyTitle(f.Title), Description: f.Description, DisplayMode: f.DisplayMode,
		Settings: f.Settings.Clone(), Questions: make([]Question, len(f.Questions))}
	for i, q := range f.Questions {
		c.Questions[i] = Question{Type: q.Type, Text: q.Text, Required: q.Required, Options: slices.Clone(q.Options),
			Logic: q.Logic, Slider: clonePtr(q.Slider), Currency: q.Currency.clone()}
	}
	return c
}

// copyTitle is the title of a copy of a form titled title, at most MaxTitleLen
// characters long.
func copyTitle(title string) string {
	t := copyPrefix + title
	if utf8.RuneCountInString(t) <= MaxTitleLen {
		return t
	}
	return strings.TrimRightFunc(string([]rune(t)[:MaxTitleLen-1]), isSpace) + "…"
}

func isSpace(r rune) bool { return r == ' ' || r == '\t' }

func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	c := *p
	return &c
}

func (c *CurrencyConfig) clone() *CurrencyConfig {
	if c == nil {
		return nil
	}
	return &CurrencyConfig{Currency: c.Currency, Min: clonePtr(c.Min), Max: clonePtr(c.Max)}
}

// RemapCopy renames, in c — a stored copy of a form whose questions are copies
// of originals in the same order (Copy, Definition.Form) — every question id of
// originals to the id of its copy: in each copy's logic, which it takes from the
// original, and in c's settings (Settings.RemapQuestions). It returns the
// indexes of the copies that have logic, which are the ones to save again, or an
// Invalid *Error naming questions when their logic, renamed, is larger than
// MaxFormLogicBytes in all (longer ids take more bytes).
func RemapCopy(c *Form, originals []Question) ([]int, error) {
	ids := make(map[int64]int64, len(originals))
	for i := range originals {
		ids[originals[i].ID] = c.Questions[i].ID
	}
	var changed []int
	total := 0
	for i := range c.Questions {
		if l := originals[i].Logic; l != nil {
			c.Questions[i].Logic = l.Remap(ids)
			changed = append(changed, i)
			total += logicSize(c.Questions[i].Logic)
		}
	}
	if total > MaxFormLogicBytes {
		return nil, FieldInvalid("questions", "their conditional logic would be %d bytes in all; at most %d bytes are allowed for all the questions of a form together",
			total, MaxFormLogicBytes)
	}
	c.Settings.RemapQuestions(ids)
	return changed, nil
}

// Remap returns a copy of l in which every question id it refers to (those
// References lists) that is a key of ids is replaced by its value. An id written
// as a JSON string stays a string. The copy is encoded from its fields, not
// from the JSON l was decoded from.
func (l *ConditionalLogic) Remap(ids map[int64]int64) *ConditionalLogic {
	out := &ConditionalLogic{}
	if s := l.ShowIf; s != nil {
		out.ShowIf = &ShowIf{QuestionID: remapID(s.QuestionID, ids), Operator: s.Operator, Value: s.Value}
	}
	if a := l.Advanced; a != nil {
		out.Advanced = a.remap(ids)
	}
	return out
}

func (a *AdvancedLogic) remap(ids map[int64]int64) *AdvancedLogic {
	out := &AdvancedLogic{ConditionGroups: slices.Clone(a.ConditionGroups), Actions: slices.Clone(a.Actions),
		ScoreRules: slices.Clone(a.ScoreRules)}
	for i := range out.ConditionGroups {
		g := &out.ConditionGroups[i]
		g.Conditions = slices.Clone(g.Conditions)
		for j := range g.Conditions {
			g.Conditions[j] = g.Conditions[j].remap(ids)
		}
	}
	for i := range out.Actions {
		out.Actions[i].TargetID = remapRaw(out.Actions[i].TargetID, ids)
	}
	for i := range out.ScoreRules {
		r := &out.ScoreRules[i]
		r.QuestionID, r.ScoreMap = remapID(r.QuestionID, ids), maps.Clone(r.ScoreMap)
	}
	return out
}

func (c Condition) remap(ids map[int64]int64) Condition {
	if c.ValueType != ValueScore && c.HiddenField == "" {
		c.QuestionID = remapID(c.QuestionID, ids)
	}
	if c.ValueType == ValueDynamic {
		c.Value = remapRaw(c.Value, ids)
	}
	return c
}

func remapID(id int64, ids map[int64]int64) int64 {
	if n, ok := ids[id]; ok {
		return n
	}
	return id
}

// remapRaw remaps the question id a JSON value holds (a number or a string of
// one), keeping its kind; any other value is returned as it is.
func remapRaw(raw json.RawMessage, ids map[int64]int64) json.RawMessage {
	id, ok := rawID(raw)
	n, found := ids[id]
	if !ok || !found {
		return raw
	}
	s := strconv.FormatInt(n, 10)
	if jsonKind(raw) == "string" {
		s = strconv.Quote(s)
	}
	return json.RawMessage(s)
}
