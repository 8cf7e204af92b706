package dashboard

import (
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"forma/internal/form"
)

// addQuestion serves POST /forms/{id}/questions: the question goes last.
func (h *Handler) addQuestion(w http.ResponseWriter, r *http.Request, s *Session) {
	id, ok := parseIDs(w, r, s)
	if !ok {
		return
	}
	v := r.PostForm
	text, typ := v.Get("question"), questionType(v)
	opts, slider, currency, err := postedSettings(v, typ)
	var q *form.Question
	if err == nil {
		in := form.QuestionInput{Type: typ, Question: &text, Required: v.Get("required") != "",
			Options: opts, SliderConfig: slider, CurrencyConfig: currency}
		q, err = h.store.AddQuestion(r.Context(), s.Account.ID, id, func(existing []form.Question) (form.Question, error) {
			return form.NewQuestion(in, existing)
		})
	}
	a := attempt{Form: "add", Done: "added"}
	if err == nil {
		a.Question = q.ID
	}
	h.afterChange(w, r, s, id, a, err)
}

// saveQuestion serves POST /forms/{id}/questions/{qid}: its text, type,
// required and the settings of its type. Its logic is left as it is.
func (h *Handler) saveQuestion(w http.ResponseWriter, r *http.Request, s *Session) {
	h.changeQuestion(w, r, s, "question", func(v url.Values) (form.QuestionPatch, error) {
		typ := questionType(v)
		p := form.QuestionPatch{
			Question: form.Optional[string]{Set: true, Value: v.Get("question")},
			Required: form.Optional[bool]{Set: true, Value: v.Get("required") != ""},
			Type:     form.Optional[form.QuestionType]{Set: true, Value: typ},
		}
		opts, slider, currency, err := postedSettings(v, typ)
		p.Options = form.Optional[[]string]{Set: typ.HasOptions(), Value: opts}
		p.SliderConfig = form.Optional[*form.SliderConfig]{Set: typ == form.Slider, Value: slider}
		p.CurrencyConfig = form.Optional[*form.CurrencyConfig]{Set: typ == form.Currency, Value: currency}
		return p, err
	})
}

// moveQuestion serves POST /forms/{id}/questions/{qid}/move: to a 1-based
// position, the others shifting.
func (h *Handler) moveQuestion(w http.ResponseWriter, r *http.Request, s *Session) {
	h.changeQuestion(w, r, s, "move", func(v url.Values) (form.QuestionPatch, error) {
		to, err := strconv.Atoi(v.Get("to"))
		if err != nil {
			return form.QuestionPatch{}, form.FieldInvalid("order", "must be a whole number")
		}
		return form.QuestionPatch{Order: form.Optional[int]{Set: true, Value: to}}, nil
	})
}

// saveLogic serves POST /forms/{id}/questions/{qid}/logic: the question's showIf
// rule, or none ("Always show"). Its advanced rule is kept.
func (h *Handler) saveLogic(w http.ResponseWriter, r *http.Request, s *Session) {
	id, qid, ok := parseQuestionIDs(w, r, s)
	if !ok {
		return
	}
	v := r.PostForm
	h.changeLogic(w, r, s, id, attempt{Form: "logic", Question: qid, Done: "logic"},
		func(q *form.Question, _ []form.Question) (*form.ConditionalLogic, error) {
			if v.Get("action") == "clear" {
				return logicWith(nil, advancedOf(q)), nil
			}
			target, ok := form.ParseID(v.Get("target"))
			if !ok {
				return nil, form.FieldInvalid("conditionalLogic.showIf.questionId", "must be one of the questions")
			}
			if v.Get("for") != v.Get("target") {
				return nil, errChooseValue
			}
			return logicWith(&form.ShowIf{QuestionID: target, Operator: v.Get("operator"), Value: v.Get("value")}, advancedOf(q)), nil
		})
}

// saveRule serves POST /forms/{id}/questions/{qid}/rule, the question's advanced
// rule (rule.go), by the button pressed (edit): save applies the rule and
// delete removes it (its showIf rule is kept either way); an Add or Remove
// button draws the editor again with a row more or less. A save whose
// conditions or score rules name another question than their controls were
// drawn for draws them again for it. Those redraws save nothing.
func (h *Handler) saveRule(w http.ResponseWriter, r *http.Request, s *Session) {
	id, qid, ok := parseQuestionIDs(w, r, s)
	if !ok {
		return
	}
	a := attempt{Form: "rule", Question: qid, Values: r.PostForm, Rule: parseRule(r.PostForm)}
	switch edit := r.PostForm.Get("edit"); edit {
	case "delete":
		h.changeLogic(w, r, s, id, attempt{Form: "rule", Question: qid, Done: "rule-removed"},
			func(q *form.Question, _ []form.Question) (*form.ConditionalLogic, error) {
				return logicWith(showIf(q), nil), nil
			})
	case "save":
		if a.Errors = a.Rule.stale(); len(a.Errors) > 0 {
			h.redrawRule(w, r, s, id, a, "")
			return
		}
		a.Done = "rule"
		h.changeLogic(w, r, s, id, a, func(q *form.Question, others []form.Question) (*form.ConditionalLogic, error) {
			rule, err := a.Rule.logic(byID(q, others))
			return logicWith(showIf(q), rule), err
		})
	default:
		h.redrawRule(w, r, s, id, a, edit)
	}
}

// redrawRule draws the editor again (200) with the rule of a changed by edit.
func (h *Handler) redrawRule(w http.ResponseWriter, r *http.Request, s *Session, id int64, a attempt, edit string) {
	f, err := h.store.GetForm(r.Context(), s.Account.ID, id)
	if err != nil {
		h.failed(w, r, s, "load a form", err)
		return
	}
	i := slices.IndexFunc(f.Questions, func(q form.Question) bool { return q.ID == a.Question })
	if i < 0 {
		notFound(w, r, s)
		return
	}
	a.Focus = a.Rule.edit(edit, f.Questions, i)
	h.showEditor(w, r, http.StatusOK, s, f, a)
}

// changeLogic sets the logic that build makes for the question of a (from it
// and the form's other questions) through form.ApplyQuestionPatch, as the API
// does, and ends as every change of the editor does (afterChange).
func (h *Handler) changeLogic(w http.ResponseWriter, r *http.Request, s *Session, id int64, a attempt,
	build func(q *form.Question, others []form.Question) (*form.ConditionalLogic, error)) {
	_, err := h.store.UpdateQuestion(r.Context(), s.Account.ID, id, a.Question, nil,
		func(q *form.Question, others []form.Question) error {
			l, err := build(q, others)
			if err != nil {
				return err
			}
			p := form.QuestionPatch{ConditionalLogic: form.Optional[*form.ConditionalLogic]{Set: true, Value: l, Null: l == nil}}
			return form.ApplyQuestionPatch(p, q, others)
		})
	h.afterChange(w, r, s, id, a, err)
}

// logicWith is the logic of a showIf rule and an advanced rule; nil when both
// are.
func logicWith(s *form.ShowIf, a *form.AdvancedLogic) *form.ConditionalLogic {
	if s == nil && a == nil {
		return nil
	}
	return &form.ConditionalLogic{ShowIf: s, Advanced: a}
}

// byID is q and others by id.
func byID(q *form.Question, others []form.Question) map[int64]*form.Question {
	out := map[int64]*form.Question{q.ID: q}
	for i := range others {
		out[others[i].ID] = &others[i]
	}
	return out
}

// errChooseValue stops a logic post whose question changed after its value
// control was drawn: the editor is shown again with the values of the question
// now chosen, and nothing is saved.
var errChooseValue = &form.Error{Code: form.Invalid, Message: "choose the value",
	Fields: []form.FieldError{{Field: "conditionalLogic.showIf.value", Message: chooseValue}}}

// chooseValue is the sentence errChooseValue shows at the value.
const chooseValue = "Now choose the value for this question, then save the rule."

// changeQuestion applies the patch that build makes of the posted fields to the
// question of the path, through form.ApplyQuestionPatch as the API does. which
// names the editor's form the post came from.
func (h *Handler) changeQuestion(w http.ResponseWriter, r *http.Request, s *Session, which string,
	build func(url.Values) (form.QuestionPatch, error)) {
	id, qid, ok := parseQuestionIDs(w, r, s)
	if !ok {
		return
	}
	patch, err := build(r.PostForm)
	if err == nil {
		_, err = h.store.UpdateQuestion(r.Context(), s.Account.ID, id, qid, patch.MoveTo(),
			func(q *form.Question, others []form.Question) error {
				return form.ApplyQuestionPatch(patch, q, others)
			})
	}
	h.afterChange(w, r, s, id, attempt{Form: which, Question: qid, Done: which}, err)
}

// questionType is the posted type; text when none is chosen, as in the API.
func questionType(v url.Values) form.QuestionType {
	if t := v.Get("type"); t != "" {
		return form.QuestionType(t)
	}
	return form.Text
}

// postedSettings reads the settings of type t from the posted fields: options
// one per line (blank lines ignored), the slider's range, the currency. A number
// that does not parse is an Invalid error at its field.
func postedSettings(v url.Values, t form.QuestionType) ([]string, *form.SliderConfig, *form.CurrencyConfig, error) {
	var p form.Problems
	var opts []string
	if t.HasOptions() {
		opts = lines(v.Get("options"))
	}
	var slider *form.SliderConfig
	if t == form.Slider && v.Has("sliderMin") {
		slider = &form.SliderConfig{Min: number(v, "sliderMin", "sliderConfig.min", &p),
			Max: number(v, "sliderMax", "sliderConfig.max", &p), Step: number(v, "sliderStep", "sliderConfig.step", &p)}
	}
	var currency *form.CurrencyConfig
	if t == form.Currency {
		currency = postedCurrency(v, &p)
	}
	return opts, slider, currency, p.Err()
}

// postedCurrency is the posted currency setting; nil when all its fields are
// empty.
func postedCurrency(v url.Values, p *form.Problems) *form.CurrencyConfig {
	code, lo, hi := v.Get("currency"), v.Get("currencyMin"), v.Get("currencyMax")
	if code == "" && lo == "" && hi == "" {
		return nil
	}
	c := &form.CurrencyConfig{Currency: code}
	if lo != "" {
		n := number(v, "currencyMin", "currencyConfig.min", p)
		c.Min = &n
	}
	if hi != "" {
		n := number(v, "currencyMax", "currencyConfig.max", p)
		c.Max = &n
	}
	return c
}

// number parses the posted field name as a number, recording a problem at field
// when it is not one.
func number(v url.Values, name, field string, p *form.Problems) float64 {
	n, err := strconv.ParseFloat(strings.TrimSpace(v.Get(name)), 64)
	if err != nil {
		p.Add(field, "must be a number, such as 10 or 0.5")
	}
	return n
}

// lines splits a textarea into its lines, trimmed, without blank ones.
func lines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// deleteData is the data of the page that confirms a question's deletion.
type deleteData struct {
	FormID, QuestionID int64
	FormTitle, Text    string
	Error              string
}

// confirmDelete serves GET /forms/{id}/questions/{qid}/delete: are you sure?
func (h *Handler) confirmDelete(w http.ResponseWriter, r *http.Request, s *Session) {
	h.showDelete(w, r, s, http.StatusOK, "")
}

// showDelete draws the confirmation of the path's question with a problem.
func (h *Handler) showDelete(w http.ResponseWriter, r *http.Request, s *Session, status int, problem string) {
	f := h.ownForm(w, r, s)
	if f == nil {
		return
	}
	qid, _ := form.ParseID(r.PathValue("qid"))
	for _, q := range f.Questions {
		if q.ID == qid {
			render(w, r, status, "deletequestion", "Delete a question", s, deleteData{
				FormID: f.ID, QuestionID: q.ID, FormTitle: f.Title, Text: q.Text, Error: problem})
			return
		}
	}
	notFound(w, r, s)
}

// deleteQuestion serves POST /forms/{id}/questions/{qid}/delete. A question that
// another question's logic reads is not deleted (the confirmation says why).
func (h *Handler) deleteQuestion(w http.ResponseWriter, r *http.Request, s *Session) {
	id, qid, ok := parseQuestionIDs(w, r, s)
	if !ok {
		return
	}
	err := h.store.DeleteQuestion(r.Context(), s.Account.ID, id, qid)
	switch form.ErrorCode(err) {
	case form.Conflict:
		h.showDelete(w, r, s, http.StatusConflict,
			"Another question's rule depends on this question. Change or remove that rule first, then delete this question.")
	case form.Internal:
		if err != nil {
			serverError(w, r, "delete a question", err)
			return
		}
		http.Redirect(w, r, editorURL(id, "deleted", 0), http.StatusSeeOther)
	default:
		h.failed(w, r, s, "delete a question", err)
	}
}

// parseQuestionIDs reads a posted form and the form and question ids of its path;
// on failure it has answered (a 404 page for an id that is not one).
func parseQuestionIDs(w http.ResponseWriter, r *http.Request, s *Session) (id, qid int64, ok bool) {
	if id, ok = parseIDs(w, r, s); !ok {
		return 0, 0, false
	}
	if qid, ok = form.ParseID(r.PathValue("qid")); !ok {
		notFound(w, r, s)
	}
	return id, qid, ok
}
