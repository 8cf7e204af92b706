package dashboard_test

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"forma/internal/server/servertest"
)

// TestHiddenFieldsCard: the editor saves the hidden fields posted one per line
// (as the API does: the form shows them), refuses a bad name at its line with
// the names kept, shows links that fill them in, and an empty list removes them.
func TestHiddenFieldsCard(t *testing.T) {
	each(t, func(t *testing.T, env *servertest.Env) {
		b, key := signedInOwner(t, env, "ada@example.com")
		s := newSurvey(t, env, key, "Signup", text)
		editor := fmt.Sprintf("/forms/%d", s.ID)
		p := b.post(editor+"/hidden-fields", url.Values{"hiddenFields": {" utm_source \r\n\r\nuser_id\r\n"}})
		if p.Status != http.StatusSeeOther {
			t.Fatalf("save: %d\n%s", p.Status, p.Body)
		}
		apiForm := env.For(t).Do("GET", fmt.Sprintf("/api/v1/forms/%d", s.ID), key, nil).JSON(t)
		if fmt.Sprint(apiForm["hiddenFields"]) != "[utm_source user_id]" {
			t.Errorf("the API shows hidden fields %v", apiForm["hiddenFields"])
		}
		p = b.get(p.Location)
		share := env.URL + "/f/" + s.Share
		for _, want := range []string{"Hidden fields saved.", ">utm_source\nuser_id</textarea>",
			share + "?utm_source=…&amp;user_id=…", fmt.Sprintf("%s?q%d=…", share, s.Questions[0])} {
			if !strings.Contains(p.Body, want) {
				t.Errorf("the editor lacks %q", want)
			}
		}
		p = b.post(editor+"/hidden-fields", url.Values{"hiddenFields": {"ok\nnot ok"}})
		if p.Status != http.StatusBadRequest || !strings.Contains(p.Body, "Hidden field 2 must be made of letters") ||
			!strings.Contains(p.Body, ">ok\nnot ok</textarea>") || !strings.Contains(p.Body, `aria-invalid="true"`) {
			t.Errorf("a bad name: %d\n%s", p.Status, p.Body)
		}
		if p := b.post(editor+"/hidden-fields", url.Values{"hiddenFields": {""}}); p.Status != http.StatusSeeOther {
			t.Fatalf("clear: %d", p.Status)
		}
		if f := env.For(t).Do("GET", fmt.Sprintf("/api/v1/forms/%d", s.ID), key, nil).JSON(t); fmt.Sprint(f["hiddenFields"]) != "[]" {
			t.Errorf("after clearing: %v", f["hiddenFields"])
		}
	})
}

// TestResponsesShowAndFilterHiddenValues: the table has a column per hidden
// field and the detail lists a response's hidden values; the filter (search,
// one condition on an answer or a hidden field, a date range) selects the rows,
// the count, the pages and the exports; a filter that does not apply says why
// and shows every response.
func TestResponsesShowAndFilterHiddenValues(t *testing.T) {
	each(t, func(t *testing.T, env *servertest.Env) {
		b, key := signedInOwner(t, env, "ada@example.com")
		s := newSurvey(t, env, key, "Signup", text, map[string]any{"type": "number", "question": "Guests"})
		if r := env.For(t).Do("PATCH", fmt.Sprintf("/api/v1/forms/%d", s.ID), key, map[string]any{"hiddenFields": []string{"utm_source"}}); r.Status != 200 {
			t.Fatal(r.Status)
		}
		news := s.submitWith(t, env, map[int]any{0: "Loved it, thanks", 1: 2}, map[string]string{"utm_source": "newsletter"})
		s.submitWith(t, env, map[int]any{0: "Fine", 1: 7}, map[string]string{"utm_source": "ads"})
		s.submit(t, env, map[int]any{0: "Meh"})
		p := b.get(s.path(""))
		for _, want := range []string{`utm_source <span class="column-kind">hidden field</span></th>`, "<td>newsletter</td>", "<td>ads</td>",
			`<option value="utm_source">utm_source (hidden field)</option>`} {
			if !strings.Contains(p.Body, want) {
				t.Errorf("the table lacks %q", want)
			}
		}
		if d := b.get(s.path("/" + news)); !strings.Contains(d.Body, "<code>utm_source</code></dt><dd class=\"wrap\">newsletter</dd>") {
			t.Errorf("the detail does not show the hidden value:\n%s", d.Body)
		}
		rows := func(p string) int { return strings.Count(p, `<th scope="row">`) }
		today := time.Now().UTC().Format(time.DateOnly)
		for query, want := range map[string]int{
			"field=utm_source&op=eq&value=NEWSLETTER":              1,
			"field=utm_source&op=empty":                            1,
			"q=thanks":                                             1,
			fmt.Sprintf("field=q%d&op=gt&value=5", s.Questions[1]): 1,
			fmt.Sprintf("field=q%d&op=contains&value=%s", s.Questions[0], "it%2C"): 1,
			"from=" + today + "&to=" + today:                                       3,
			"to=2000-01-01":                                                        0,
		} {
			p := b.get(s.path("?" + query))
			if p.Status != http.StatusOK || rows(p.Body) != want {
				t.Errorf("%s: %d, %d rows, want %d", query, p.Status, rows(p.Body), want)
			}
			if want == 1 && (!strings.Contains(p.Body, "1 matching response,") || !strings.Contains(p.Body, "Export these")) {
				t.Errorf("%s: no count of the matching responses", query)
			}
			if want == 0 && !strings.Contains(p.Body, "No response matches this filter.") {
				t.Errorf("%s: no word of an empty match", query)
			}
		}
		p = b.get(s.path("?field=utm_source&op=eq&value=ads"))
		csvLink := s.path("/export.csv?field=utm_source&amp;op=eq&amp;value=ads")
		if !strings.Contains(p.Body, `href="`+csvLink+`"`) {
			t.Errorf("the export link does not keep the filter:\n%s", p.Body)
		}
		if csv := b.get(strings.ReplaceAll(csvLink, "&amp;", "&")); strings.Count(csv.Body, "\n") != 2 || !strings.Contains(csv.Body, ",ads\n") {
			t.Errorf("the filtered export:\n%s", csv.Body)
		}
		p = b.get(s.path(fmt.Sprintf("?field=q%d&op=gt&value=many", s.Questions[1])))
		if rows(p.Body) != 3 || !strings.Contains(p.Body, "This filter cannot be used") || !strings.Contains(p.Body, "needs a number") {
			t.Errorf("a filter that does not apply: %d rows\n%s", rows(p.Body), p.Body)
		}
	})
}

// TestRuleEditorReadsHiddenFields: a condition of the advanced rule may read a
// hidden field of the form, with every comparison; the editor saves it as the
// API's hiddenField, states it and draws it again, and a rule set through the
// API on a hidden field is drawn and saved again unchanged.
func TestRuleEditorReadsHiddenFields(t *testing.T) {
	each(t, func(t *testing.T, env *servertest.Env) {
		b, q := ruleForm(t, env)
		b.change("/hidden-fields", url.Values{"hiddenFields": {"utm_source"}})
		meal, notes := q[0], q[3]
		p := b.get(b.path)
		target := fmt.Sprintf("q%d-g0-c0-q", meal)
		if got := options(t, p.Body, target); !slices.Contains(got, "hidden:utm_source") {
			t.Fatalf("a condition may read %v, not the hidden field", got)
		}
		post := ruleOn(map[string]string{"groups": "1", "actions": "1", "g0.op": "AND", "g0.n": "1",
			"g0.c0.q": "hidden:utm_source", "g0.c0.op": "contains", "g0.c0.vt": "static", "g0.c0.v": "news",
			"a0.type": "show_question", "a0.q": fmt.Sprint(notes)})
		b.change(b.qpath(meal, "/rule"), post)
		f, _ := b.stored()
		want := fmt.Sprintf(`{"advanced":{"conditionGroups":[{"id":"g1","operator":"AND","conditions":[`+
			`{"id":"c1","questionId":0,"hiddenField":"utm_source","operator":"contains","value":"news","valueType":"static"}]}],`+
			`"actions":[{"type":"show_question","targetId":%d}]}}`, notes)
		if got := string(f.Questions[0].ConditionalLogic); got != want {
			t.Fatalf("stored\n%s\nwant\n%s", got, want)
		}
		p = b.get(b.path)
		if !strings.Contains(p.Body, "If the hidden field “utm_source” contains news: show “4. Diet notes”.") ||
			!strings.Contains(p.Body, `<option value="hidden:utm_source" selected>Hidden field utm_source</option>`) {
			t.Errorf("the editor does not state or draw the rule:\n%s", ruleBlock(t, p.Body, meal))
		}
		if got := options(t, p.Body, fmt.Sprintf("q%d-g0-c0-op", meal)); len(got) != 7 {
			t.Errorf("a hidden field offers %v, want every comparison", got)
		}
		b.change(b.qpath(meal, "/rule"), post)
		if f, _ = b.stored(); string(f.Questions[0].ConditionalLogic) != want {
			t.Errorf("saved again: %s", f.Questions[0].ConditionalLogic)
		}
	})
}
