package dashboard

import (
	"net/url"
	"strconv"
	"strings"

	"forma/internal/form"
)

// attempt is what the editor shows besides the stored form: a post it refused
// (which of its forms, the values sent, the problems), or the notice after a
// change that worked.
type attempt struct {
	// Form names the editor's form the post came from: details, publish, add,
	// question, move, logic (showIf) or rule (the advanced rule).
	Form string
	// Question is the question the post concerned (0: none).
	Question int64
	Values   url.Values
	Errors   fieldErrors
	// Done names the change that worked, for its notice.
	Done string
	// Rule is the advanced rule a post of its editor (Form "rule") carries, and
	// Focus the control to focus when it is drawn again.
	Rule  ruleInput
	Focus string
}

// applies reports whether the refused post came from the editor's form which
// (of question q).
func (a attempt) applies(which string, q int64) bool {
	return a.Values != nil && a.Form == which && a.Question == q
}

// field is one input of a page: its id (and name), value and problem.
type field struct {
	ID, Name, Value, Error string
}

// fieldErrors maps the key of an input (question, options, slider, …) to the
// sentence of its problems.
type fieldErrors map[string]string

// other is the sentence of the problems at no key in keys.
func (e fieldErrors) other(keys ...string) string {
	var out []string
	for k, msg := range e {
		if !contains(keys, k) {
			out = append(out, msg)
		}
	}
	return strings.Join(out, " ")
}

func contains(list []string, v string) bool {
	for _, s := range list {
		if s == v {
			return true
		}
	}
	return false
}

// problemsOf turns the fields of a domain error into sentences by input.
func problemsOf(err error) fieldErrors {
	errs := fieldErrors{}
	fe, ok := err.(*form.Error)
	if !ok {
		return errs
	}
	if len(fe.Fields) == 0 {
		errs[""] = fe.Message
	}
	for _, f := range fe.Fields {
		key, sentence := inputOf(f.Field), f.Message
		if f.Message != chooseValue {
			sentence = fieldLabel(f.Field) + " " + f.Message + "."
		}
		if errs[key] != "" {
			sentence = errs[key] + " " + sentence
		}
		errs[key] = sentence
	}
	return errs
}

// inputOf is the input that shows a problem of field (a path such as
// options[1], conditionalLogic.showIf.value or
// conditionalLogic.advanced.actions[0].type).
func inputOf(field string) string {
	switch {
	case strings.HasPrefix(field, "options"):
		return "options"
	case strings.HasPrefix(field, "sliderConfig"):
		return "slider"
	case strings.HasPrefix(field, "currencyConfig"):
		return "currency"
	case strings.HasPrefix(field, "conditionalLogic.showIf."), strings.HasPrefix(field, "conditionalLogic.advanced"):
		return strings.TrimPrefix(field, "conditionalLogic.")
	case strings.HasPrefix(field, "conditionalLogic"):
		return "logic"
	case strings.HasPrefix(field, "hiddenFields"):
		return "hiddenFields"
	}
	return field
}

// fieldLabels name the fields of the domain's errors as a person reads them.
var fieldLabels = map[string]string{
	"title": "The title", "description": "The description", "displayMode": "The display mode",
	"question": "The question", "type": "The type", "options": "The list of choices",
	"sliderConfig": "The slider's range", "sliderConfig.min": "The minimum", "sliderConfig.max": "The maximum",
	"sliderConfig.step": "The step", "currencyConfig.currency": "The currency",
	"currencyConfig.min": "The minimum", "currencyConfig.max": "The maximum", "order": "The position",
	"conditionalLogic": "The rule", "conditionalLogic.showIf.questionId": "The question the rule reads",
	"conditionalLogic.showIf.operator": "The comparison", "conditionalLogic.showIf.value": "The value",
	"name": "The name", "dailyLimit": "The daily limit", "formId": "The form", "message": "Your message",
	"webhookUrl": "The webhook URL", "webhookEnabled": "Delivery", "url": "The test URL", "prompt": "Your description",
	"closesAt": "The closing time", "maxResponses": "The number of responses", "closedMessage": "The message",
	"thankYou.title": "The title", "thankYou.message": "The message", "thankYou.redirectUrl": "The address",
	"hiddenFields": "The list of hidden fields", "language": "The language", "frameAncestors": "The list of sites",
}

// fieldLabel names field: options[2] is "Choice 3".
func fieldLabel(field string) string {
	if l, ok := fieldLabels[field]; ok {
		return l
	}
	if rule, ok := strings.CutPrefix(field, "conditionalLogic.advanced"); ok {
		return ruleLabel(rule)
	}
	if strings.HasPrefix(field, "thankYou.redirectParams") {
		return "The parameter name"
	}
	for prefix, name := range map[string]string{"options[": "Choice ", "hiddenFields[": "Hidden field "} {
		if i, ok := strings.CutPrefix(field, prefix); ok {
			if n, err := strconv.Atoi(strings.TrimSuffix(i, "]")); err == nil {
				return name + strconv.Itoa(n+1)
			}
		}
	}
	return field
}

// ruleLabels name the last part of the path of a field of an advanced rule.
var ruleLabels = map[string]string{
	"questionId": "The question", "operator": "The comparison", "valueType": "What it is compared with",
	"value": "The value", "type": "The action", "targetId": "The question it acts on", "id": "The id",
	"hiddenField": "The hidden field",
	"conditions":  "The group", "conditionGroups": "The rule", "actions": "The actions", "scoreRules": "The scoring",
}

// ruleLabel names the field of an advanced rule at path (such as
// .conditionGroups[0].conditions[1].operator).
func ruleLabel(path string) string {
	if strings.Contains(path, ".scoreMap") { // whose keys may hold dots
		return "The points"
	}
	parts := strings.Split(path, ".")
	last, parent := parts[len(parts)-1], ""
	if len(parts) > 1 {
		parent = parts[len(parts)-2]
	}
	last, _, _ = strings.Cut(last, "[")
	switch {
	case last == "operator" && strings.HasPrefix(parent, "conditionGroups["):
		return "How the conditions combine"
	case last == "value" && strings.HasPrefix(parent, "actions["):
		return "The score"
	}
	if l, ok := ruleLabels[last]; ok {
		return l
	}
	return "The rule"
}

// typeNames are the question types as the builder names them, in the API's order.
var typeNames = map[form.QuestionType]string{
	form.Text: "Short text", form.Textarea: "Long text", form.Email: "Email", form.Number: "Number",
	form.Phone: "Phone", form.URL: "Website address", form.Date: "Date", form.Time: "Time",
	form.Select: "Dropdown (one choice)", form.MultiSelect: "Checkboxes (several choices)",
	form.Rating: "Rating (1 to 5)", form.Slider: "Slider", form.YesNo: "Yes / No",
	form.FileUpload: "File upload", form.Currency: "Currency amount",
}

// choice is an option of a select input.
type choice struct {
	Value, Label string
	Selected     bool
}

// typeChoices are the 15 types, selected the one.
func typeChoices(selected form.QuestionType) []choice {
	out := make([]choice, len(form.QuestionTypes))
	for i, t := range form.QuestionTypes {
		out[i] = choice{Value: string(t), Label: typeNames[t], Selected: t == selected}
	}
	return out
}

// editorData is the data of the editor page.
type editorData struct {
	ID                 int64
	Title, Description field
	DisplayMode        string
	DetailsError       string
	Published          bool
	ShareURL, Embed    string
	// EmbedPopup is the embed code of a button opening the form in an overlay.
	EmbedPopup string
	Hidden     hiddenView
	Questions  []questionView
	Add        questionView
	Notice     string
	AddNotice  string
}

// editorNotices are the sentences of a change that worked, at the top of the
// page; those of a question are at the question.
var editorNotices = map[string]string{
	"created": "Your form is ready. Add its questions below.", "saved": "Saved.",
	"published": "Published: anyone with the link can fill it in.", "unpublished": "Unpublished: the link no longer works.",
	"deleted":    "The question was deleted.",
	"generated":  "Your form is ready: check its questions, then publish it.",
	"duplicated": "This is the copy, as a draft. Rename it and change what you need, then publish it.",
	"imported":   "Your form is imported, as a draft: check it, then publish it.",
	"hidden":     "Hidden fields saved.",
}

// questionNotices are the sentences shown at a question after a change.
var questionNotices = map[string]string{
	"added": "Question added.", "question": "Saved.", "move": "Moved.", "logic": "Rule saved.",
	"rule": "Advanced rule saved.", "rule-removed": "Advanced rule removed.",
}

// editorView is the editor of f with the attempt a.
func (h *Handler) editorView(f *form.Form, a attempt) editorData {
	d := editorData{ID: f.ID, Published: f.IsPublished(), Notice: editorNotices[a.Done],
		Title: field{ID: "title", Value: f.Title}, Description: field{ID: "description", Value: f.Description},
		DisplayMode: string(f.DisplayMode)}
	if a.applies("details", 0) {
		d.Title.Value, d.Description.Value, d.DisplayMode = a.Values.Get("title"), a.Values.Get("description"), a.Values.Get("displayMode")
		d.Title.Error, d.Description.Error = a.Errors["title"], a.Errors["description"]
		d.DetailsError = a.Errors.other("title", "description")
	}
	if d.Published {
		d.ShareURL = f.ShareURL(h.cfg.PublicURL)
		code := f.Embed(h.cfg.PublicURL)
		d.Embed, d.EmbedPopup = code.HTML, code.PopupHTML
	}
	d.Hidden = h.hiddenOf(f, a)
	for i := range f.Questions {
		d.Questions = append(d.Questions, questionOf(f, i, a))
	}
	d.Add = addView(a)
	return d
}

// questionView is one question in the editor, with its edit forms.
type questionView struct {
	ID, FormID  int64
	Order       int
	Up, Down    int // the positions Move up and Move down go to
	First, Last bool
	Prefix      string // of its inputs' ids
	Type        form.QuestionType
	TypeName    string
	Types       []choice
	Required    bool
	Text        field
	Options     field
	ShowOptions bool
	Slider      sliderView
	Currency    currencyView
	Error       string // a problem at no input of its form
	Notice      string
	Logic       logicView
	Rule        ruleView
}

// sliderView is the slider's settings in the editor; Error is about any of them.
type sliderView struct {
	Show           bool
	Min, Max, Step field
	Error          string
}

// currencyView is the currency's settings in the editor; Error is about any of
// them.
type currencyView struct {
	Show           bool
	Code, Min, Max field
	Error          string
}

// questionOf is question i of f in the editor.
func questionOf(f *form.Form, i int, a attempt) questionView {
	formID, qs := f.ID, f.Questions
	q := qs[i]
	v := settingsView(questionValues(&q), "q"+strconv.FormatInt(q.ID, 10)+"-", nil)
	if a.applies("question", q.ID) {
		v = settingsView(a.Values, v.Prefix, a.Errors)
	}
	v.ID, v.FormID, v.Order, v.Up, v.Down = q.ID, formID, q.Order, q.Order-1, q.Order+1
	v.First, v.Last = i == 0, i == len(qs)-1
	if a.Question == q.ID {
		v.Notice = questionNotices[a.Done]
		if a.applies("move", q.ID) {
			v.Error = a.Errors.other()
		}
	}
	v.Logic = logicOf(qs, i, a)
	v.Rule = ruleOf(f, i, a)
	return v
}

// addView is the form that adds a question.
func addView(a attempt) questionView {
	vals, errs := url.Values{"required": {""}}, fieldErrors(nil)
	if a.applies("add", 0) {
		vals, errs = a.Values, a.Errors
	}
	v := settingsView(vals, "new-", errs)
	v.ShowOptions = true // so that a choice question is added in one go
	return v
}

// questionValues are q's settings as its form posts them.
func questionValues(q *form.Question) url.Values {
	v := url.Values{"question": {q.Text}, "type": {string(q.Type)}, "options": {strings.Join(q.Options, "\n")}}
	if q.Required {
		v.Set("required", "on")
	}
	if s := q.Slider; s != nil {
		v.Set("sliderMin", num(s.Min))
		v.Set("sliderMax", num(s.Max))
		v.Set("sliderStep", num(s.Step))
	}
	if c := q.Currency; c != nil {
		v.Set("currency", c.Currency)
		if c.Min != nil {
			v.Set("currencyMin", num(*c.Min))
		}
		if c.Max != nil {
			v.Set("currencyMax", num(*c.Max))
		}
	}
	return v
}

func num(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// settingsView is a question's form from posted (or stored) values v, with the
// problems errs; prefix starts its inputs' ids.
func settingsView(v url.Values, prefix string, errs fieldErrors) questionView {
	t := questionType(v)
	in := func(name, key string) field {
		return field{ID: prefix + name, Name: name, Value: v.Get(name), Error: errs[key]}
	}
	q := questionView{Prefix: prefix, Type: t, TypeName: typeNames[t], Types: typeChoices(t),
		Required: v.Get("required") != "", Text: in("question", "question"), Options: in("options", "options"),
		ShowOptions: t.HasOptions(),
		Slider: sliderView{Show: t == form.Slider, Min: in("sliderMin", ""), Max: in("sliderMax", ""),
			Step: in("sliderStep", ""), Error: errs["slider"]},
		Currency: currencyView{Show: t == form.Currency, Code: in("currency", ""),
			Min: in("currencyMin", ""), Max: in("currencyMax", ""), Error: errs["currency"]},
		Error: errs.other("question", "options", "slider", "currency"),
	}
	return q
}
