package dashboard

import (
	"errors"
	"net/url"
	"strconv"

	"forma/internal/form"
	"forma/internal/store"
)

// filterView is the filter of the responses table: a text searched for, one
// condition on an answer or a hidden value (field, operator, value), and a date
// range, read from the page's query and sent again with its links (Query),
// through the same domain functions as the API's filter=, q=, from= and to=.
type filterView struct {
	Search, Value, From, To string
	Fields, Operators       []choice
	// Active is set when the filter selects something; Query is then its query
	// string, which the pager and the export links carry.
	Active bool
	Query  string
	Error  string
}

// filterOperators are the operators the table offers, as it names them.
var filterOperators = []choice{
	{Value: form.FilterEquals, Label: "is"}, {Value: form.FilterContains, Label: "contains"},
	{Value: form.FilterGreater, Label: "is more than"}, {Value: form.FilterLess, Label: "is less than"},
	{Value: form.FilterEmpty, Label: "is empty"}, {Value: form.FilterNotEmpty, Label: "is not empty"},
}

// responsesFilter reads the filter of the responses table from query for f
// and its questions (deleted ones included): the store's filter and what the
// page shows of it. A refused filter selects nothing and says why in Error.
func responsesFilter(query url.Values, f *form.Form, questions []form.Question) (store.ResponseFilter, filterView) {
	v := filterView{Search: query.Get("q"), Value: query.Get("value"), From: query.Get("from"), To: query.Get("to")}
	field, op := query.Get("field"), query.Get("op")
	v.Fields = fieldChoices(f, questions, field)
	v.Operators = selected(filterOperators, op)
	kept := url.Values{}
	for _, name := range []string{"q", "field", "op", "value", "from", "to"} {
		if query.Get(name) != "" {
			kept.Set(name, query.Get(name))
		}
	}
	var conditions []string
	if field != "" {
		conditions = append(conditions, form.FilterCondition(field, op, v.Value))
	}
	var rf store.ResponseFilter
	match, err := form.ParseAnswerFilter(conditions, v.Search, questions, f.Settings.HiddenFields)
	if err == nil {
		rf.Since, rf.Until, err = form.ParseRange(v.From, v.To)
	}
	if err != nil {
		v.Error = refusal(err)
		return store.ResponseFilter{}, v
	}
	if match != nil {
		rf.Match = match.Match
	}
	v.Active, v.Query = len(kept) > 0, kept.Encode()
	return rf, v
}

// refusal is what the table says of a filter the domain or the store refused.
func refusal(err error) string {
	var fe *form.Error
	if errors.As(err, &fe) {
		return "This filter cannot be used, so every response is shown. " + fe.Message
	}
	return err.Error()
}

// fieldChoices are what a condition may read: any answer (none chosen), each
// question (by its key in the responses) and each hidden field.
func fieldChoices(f *form.Form, questions []form.Question, chosen string) []choice {
	keys := form.DataKeys(questions)
	out := []choice{{Value: "", Label: "Choose a question"}}
	for _, q := range questions {
		out = append(out, choice{Value: "q" + strconv.FormatInt(q.ID, 10), Label: keys[q.ID]})
	}
	for _, name := range f.Settings.HiddenFields {
		out = append(out, choice{Value: name, Label: name + " (hidden field)"})
	}
	return selected(out, chosen)
}

// selected marks the choice whose value is chosen.
func selected(choices []choice, chosen string) []choice {
	out := make([]choice, len(choices))
	for i, c := range choices {
		c.Selected = c.Value == chosen
		out[i] = c
	}
	return out
}
