// Package logic evaluates the conditional logic of a form against a set of answers:
// which questions are visible and what the score is. It is pure (no I/O) and has a
// twin in logic.js, which the public form page runs; both pass the shared test
// vectors in testdata/vectors.json.
//
// # Evaluation order
//
// Questions are sorted by Order (stable, so ties keep their given order) and
// visited once, first to last. At its turn a question is first decided:
//
//   - it is hidden if an earlier rule skipped over it, ended the form before it or
//     hid it (hide_question);
//   - it is hidden if it is the target of some show_question action and no rule
//     showing it has held (show targets start hidden);
//   - it is hidden if its showIf does not hold;
//   - otherwise it is visible.
//
// Only a visible question's answer exists for logic: a hidden question, and a
// question not reached yet, count as unanswered in every later condition. A visible
// question then, in this order:
//
//  1. lets the score rules whose turn it is add their points (see below);
//  2. evaluates the advanced rule it owns, if any, and when the rule holds applies
//     its actions in array order.
//
// A hidden question's rules never apply.
//
// # Rules and conditions
//
// A rule holds when every condition group holds; a group with operator OR holds when
// one of its conditions does, any other group when all of them do. A condition
// compares its left side (the answer to questionId, the running score for
// valueType score, or the value of hiddenField, a text that is unanswered when
// the submission has none) with its right side (value for static and score, the answer to
// the question whose id is value for dynamic). is_empty and is_not_empty look at
// the left side only. Otherwise, when either side is unanswered the condition is
// false, except not_equals, which is true.
//
// An answer is unanswered when it is absent, null, "" or an empty array. Scalars
// compare as text: numbers as JavaScript prints them (4, 0.5, 1e+21), booleans as
// "true" and "false", a file object by its name, a list by its items joined with
// ", ". A side is numeric when it is a JSON number or a string in decimal notation
// (such as "42", "-1.5" or "2e3").
//
//   - equals / not_equals: numeric equality when both sides are numeric, else text
//     equality; on a list (multi_select) equals means some item equals the value.
//   - contains: case-insensitive substring; on a list, some item equals the value
//     case-insensitively. Case is folded character by character with the simple
//     Unicode mapping (İ becomes i, Σ always σ).
//   - greater_than / less_than: numeric when both sides are numeric; dates
//     (YYYY-MM-DD) and times (HH:MM) chronologically when both sides are of the same
//     kind; false otherwise and always false on a list.
//
// showIf compares as text only (never numerically): equals holds when the answer (or
// one of the chosen items) is exactly the value, not_equals is its negation, and an
// unanswered question equals nothing.
//
// # Actions
//
// show_question, hide_question, skip_to_question and skip_to_section act only on a
// target after the owning question; a target that is the owner itself, an earlier
// question or not in the form is ignored (and a show_question that is ignored does
// not make its target start hidden). A skip hides the questions strictly between the
// owner and the target; the target itself is decided as usual, and several skips
// hide the union of their ranges. end_form hides every question after the owner.
// Hiding wins over showing. set_score takes a JSON number and is ignored otherwise.
//
// # Score
//
// A score rule owned by question O and naming question N applies at the turn of
// whichever of O and N comes later, when both are visible: it adds scoreMap[answer]
// (for a list, the sum over its items; keys are the text of the answer, so 4 is "4"
// and true is "true"; a missing key is 0). Once a set_score action has applied, the
// score is its value and score rules add nothing more; a later set_score replaces it.
// A condition with valueType score sees the score as it stands at that point.
package logic

import (
	_ "embed"
	"encoding/json"

	"forma/internal/form"
)

// Script is logic.js, the browser twin of Evaluate. It defines the global
// FormaLogic.evaluate(questions, answers).
//
//go:embed logic.js
var Script []byte

// Answers are a respondent's answers keyed by question id, each value as
// encoding/json decodes it into an any.
type Answers map[int64]any

// Result is the outcome of Evaluate.
type Result struct {
	// Visible holds every question id: true when the question is shown.
	Visible map[int64]bool
	// Score is the form's score; meaningful only when HasScore is true.
	Score float64
	// HasScore is true when the form has scoring: some question owns score rules
	// or some rule has a set_score action.
	HasScore bool
}

// Evaluate runs the form's logic over answers and the submission's hidden-field
// values, following the order documented on the package. questions may be in
// any order; they are visited by Order.
func Evaluate(questions []form.Question, answers Answers, hidden form.HiddenValues) Result {
	p := newPass(questions, answers, hidden)
	for i := range p.questions {
		p.visit(i)
	}
	return Result{Visible: p.visible, Score: p.score, HasScore: hasScoring(questions)}
}

// pass is the state of one evaluation.
type pass struct {
	questions  []form.Question      // in form order
	answers    Answers              // as given
	values     form.HiddenValues    // the hidden fields' values, as given
	position   map[int64]int        // question id -> index in questions
	visible    map[int64]bool       // decided questions
	showable   map[int64]bool       // targets of some show_question action
	shown      map[int64]bool       // targets of a show_question that applied
	hidden     map[int64]bool       // hidden by hide_question, a skip or end_form
	scoreTurns map[int][]scoreEntry // index of the applying turn -> score rules
	score      float64
	scoreSet   bool // a set_score action has applied
}

// scoreEntry is a score rule with the question that owns it.
type scoreEntry struct {
	owner int64
	rule  form.ScoreRule
}

func newPass(questions []form.Question, answers Answers, hidden form.HiddenValues) *pass {
	qs := form.InOrder(questions)
	p := &pass{
		questions: qs, answers: answers, values: hidden,
		position: make(map[int64]int, len(qs)), visible: make(map[int64]bool, len(qs)),
		showable: map[int64]bool{}, shown: map[int64]bool{}, hidden: map[int64]bool{},
		scoreTurns: map[int][]scoreEntry{},
	}
	for i, q := range qs {
		p.position[q.ID] = i
	}
	for i, q := range qs {
		p.index(i, advanced(q))
	}
	return p
}

// index records which questions rule (owned by the i-th question) may show and at
// which turn each of its score rules applies.
func (p *pass) index(i int, rule *form.AdvancedLogic) {
	if rule == nil {
		return
	}
	for _, a := range rule.Actions {
		if a.Type != form.ActionShow {
			continue
		}
		if t, ok := p.forwardTarget(i, a); ok {
			p.showable[t] = true
		}
	}
	for _, r := range rule.ScoreRules {
		if n, ok := p.position[r.QuestionID]; ok {
			turn := max(i, n)
			p.scoreTurns[turn] = append(p.scoreTurns[turn], scoreEntry{p.questions[i].ID, r})
		}
	}
}

// visit decides the i-th question and, when it is visible, applies what it owns.
func (p *pass) visit(i int) {
	q := p.questions[i]
	p.visible[q.ID] = p.decide(q)
	if !p.visible[q.ID] {
		return
	}
	for _, e := range p.scoreTurns[i] {
		if p.visible[e.owner] && p.visible[e.rule.QuestionID] {
			p.addPoints(points(e.rule.ScoreMap, p.answer(e.rule.QuestionID)))
		}
	}
	if rule := advanced(q); rule != nil && p.ruleHolds(rule) {
		for _, a := range rule.Actions {
			p.apply(i, a)
		}
	}
}

// decide reports whether q is visible, given the rules applied so far.
func (p *pass) decide(q form.Question) bool {
	if p.hidden[q.ID] || (p.showable[q.ID] && !p.shown[q.ID]) {
		return false
	}
	return q.Logic == nil || q.Logic.ShowIf == nil || p.showIfHolds(*q.Logic.ShowIf)
}

// answer is the answer to question id as logic sees it: nil unless the question
// has been reached and is visible.
func (p *pass) answer(id int64) any {
	if !p.visible[id] {
		return nil
	}
	return p.answers[id]
}

func (p *pass) addPoints(n float64) {
	if !p.scoreSet {
		p.score += n
	}
}

// apply carries out action a of the rule owned by the i-th question.
func (p *pass) apply(i int, a form.Action) {
	if a.Type == form.ActionSetScore {
		if v, ok := decodeValue(a.Value).(float64); ok {
			p.score, p.scoreSet = v, true
		}
		return
	}
	if a.Type == form.ActionEndForm {
		p.hideRange(i+1, len(p.questions))
		return
	}
	t, ok := p.forwardTarget(i, a)
	if !ok {
		return
	}
	switch a.Type {
	case form.ActionShow:
		p.shown[t] = true
	case form.ActionHide:
		p.hidden[t] = true
	case form.ActionSkipToQuestion, form.ActionSkipToSection:
		p.hideRange(i+1, p.position[t])
	}
}

// hideRange hides the questions at indexes from up to (not including) to.
func (p *pass) hideRange(from, to int) {
	for j := from; j < to; j++ {
		p.hidden[p.questions[j].ID] = true
	}
}

// forwardTarget returns the target of a, owned by the i-th question, when it is a
// question of the form placed after the owner.
func (p *pass) forwardTarget(i int, a form.Action) (int64, bool) {
	id, ok := a.TargetQuestionID()
	if !ok {
		return 0, false
	}
	j, ok := p.position[id]
	return id, ok && j > i
}

func advanced(q form.Question) *form.AdvancedLogic {
	if q.Logic == nil {
		return nil
	}
	return q.Logic.Advanced
}

// hasScoring reports whether some question owns score rules or a set_score action.
func hasScoring(questions []form.Question) bool {
	for _, q := range questions {
		rule := advanced(q)
		if rule == nil {
			continue
		}
		if len(rule.ScoreRules) > 0 {
			return true
		}
		for _, a := range rule.Actions {
			if a.Type == form.ActionSetScore {
				return true
			}
		}
	}
	return false
}

// points is what answer is worth under scoreMap.
func points(scoreMap map[string]float64, answer any) float64 {
	if items, ok := answer.([]any); ok {
		sum := 0.0
		for _, item := range items {
			sum += scoreMap[text(item)]
		}
		return sum
	}
	if unanswered(answer) {
		return 0
	}
	return scoreMap[text(answer)]
}

// decodeValue decodes a JSON value of the logic (nil when absent or invalid).
func decodeValue(raw json.RawMessage) any {
	var v any
	if len(raw) == 0 || json.Unmarshal(raw, &v) != nil {
		return nil
	}
	return v
}
