package form

import (
	"testing"
	"time"
)

// filterForm is a form with one question of each kind a filter compares
// differently, and two hidden fields.
var filterForm = []Question{
	{ID: 1, Type: Text, Text: "Country"},
	{ID: 2, Type: Number, Text: "Guests"},
	{ID: 3, Type: MultiSelect, Text: "Days", Options: []string{"Friday", "Saturday"}},
	{ID: 4, Type: YesNo, Text: "Dinner"},
	{ID: 5, Type: Date, Text: "Arrival"},
	{ID: 6, Type: FileUpload, Text: "CV"},
	{ID: 7, Type: Textarea, Text: "Notes"},
}

var filterHidden = []string{"utm_source", "visits"}

func filterSubmissions() []*Submission {
	return []*Submission{
		{ID: "a", Answers: map[int64]any{1: "Germany", 2: 3.0, 3: []any{"Friday", "Saturday"}, 4: true, 5: "2026-05-01",
			7: "Arriving late, around 22:00"}, Hidden: HiddenValues{"utm_source": "newsletter", "visits": "12"}},
		{ID: "b", Answers: map[int64]any{1: "germany", 2: 10.0, 3: []string{"Friday"}, 4: false, 5: "2026-04-01", 6: "upload"},
			Hidden: HiddenValues{"utm_source": "ads"}},
		{ID: "c", Answers: map[int64]any{1: "France"}},
	}
}

func TestAnswerFilterMatches(t *testing.T) {
	for _, c := range []struct {
		filters []string
		search  string
		want    string
	}{
		{[]string{"q1:eq:GERMANY"}, "", "ab"},
		{[]string{"q1:contains:an"}, "", "abc"},
		{[]string{"q2:gt:3"}, "", "b"},
		{[]string{"q2:lt:10"}, "", "a"},
		{[]string{"q2:eq:3.0"}, "", "a"},
		{[]string{"q3:eq:saturday"}, "", "a"},
		{[]string{"q3:contains:day"}, "", "ab"},
		{[]string{"q4:eq:yes"}, "", "a"},
		{[]string{"q4:eq:no"}, "", "b"},
		{[]string{"q5:gt:2026-04-15"}, "", "a"},
		{[]string{"q5:lt:2026-04-15"}, "", "b"},
		{[]string{"q6:empty"}, "", "ac"},
		{[]string{"q6:notempty"}, "", "b"},
		{[]string{"q2:empty"}, "", "c"},
		{[]string{"utm_source:eq:Newsletter"}, "", "a"},
		{[]string{"utm_source:empty"}, "", "c"},
		{[]string{"visits:gt:9"}, "", "a"},
		{[]string{"q7:contains:late\\, around 22:00"}, "", "a"},
		{[]string{"q1:eq:germany,q2:gt:5"}, "", "b"},
		{[]string{"q1:eq:germany", "q2:gt:5"}, "", "b"},
		{nil, "LATE", "a"},
		{nil, "friday", "ab"},
		{nil, "ads", "b"},
		{[]string{"q1:eq:germany"}, "saturday", "a"},
	} {
		f, err := ParseAnswerFilter(c.filters, c.search, filterForm, filterHidden)
		if err != nil {
			t.Errorf("%q %q: %v", c.filters, c.search, err)
			continue
		}
		got := ""
		for _, sub := range filterSubmissions() {
			if f.Match(sub) {
				got += sub.ID
			}
		}
		if got != c.want {
			t.Errorf("%q %q matched %q, want %q", c.filters, c.search, got, c.want)
		}
	}
}

func TestAnswerFilterWithoutConditionsIsNil(t *testing.T) {
	f, err := ParseAnswerFilter(nil, "", filterForm, filterHidden)
	if f != nil || err != nil {
		t.Errorf("got %v, %v; want nil, nil (the unfiltered path)", f, err)
	}
}

func TestAnswerFilterRefuses(t *testing.T) {
	for _, c := range []struct {
		filter, search, field string
	}{
		{"q99:eq:x", "", "filter"},
		{"q1:like:x", "", "filter"},
		{"q1", "", "filter"},
		{"q1:eq", "", "filter"},
		{"q1:eq:", "", "filter"},
		{"q1:empty:x", "", "filter"},
		{"q1:gt:3", "", "filter"},
		{"q2:gt:many", "", "filter"},
		{"q2:contains:3", "", "filter"},
		{"q4:eq:maybe", "", "filter"},
		{"q5:gt:May", "", "filter"},
		{"q6:eq:cv.pdf", "", "filter"},
		{"visits:gt:ten", "", "filter"},
		{"campaign:eq:x", "", "filter"},
		{`q1:eq:a\b`, "", "filter"},
		{"q1:eq:\xff", "", "filter"},
		{"", "\xff", "q"},
	} {
		var params []string
		if c.filter != "" {
			params = []string{c.filter}
		}
		_, err := ParseAnswerFilter(params, c.search, filterForm, filterHidden)
		e, ok := err.(*Error)
		if !ok || e.Code != Invalid || e.Fields[0].Field != c.field {
			t.Errorf("%q %q: %v, want Invalid at %s", c.filter, c.search, err, c.field)
		}
	}
}

func TestParseRange(t *testing.T) {
	start, end, err := ParseRange("2026-11-02", "2026-11-03")
	if err != nil || start.Format(time.RFC3339) != "2026-11-02T00:00:00Z" || end.Format(time.RFC3339) != "2026-11-04T00:00:00Z" {
		t.Errorf("dates: %v %v %v, want the whole of both days", start, end, err)
	}
	start, end, err = ParseRange("2026-11-02T09:30:00+01:00", "2026-11-02T10:00:00Z")
	if err != nil || !start.Equal(time.Date(2026, 11, 2, 8, 30, 0, 0, time.UTC)) ||
		!end.Equal(time.Date(2026, 11, 2, 10, 0, 0, int(time.Millisecond), time.UTC)) {
		t.Errorf("date-times: %v %v %v, want to included to the millisecond", start, end, err)
	}
	if start, end, err := ParseRange("", ""); start != nil || end != nil || err != nil {
		t.Errorf("open range: %v %v %v", start, end, err)
	}
	for _, c := range [][3]string{{"yesterday", "", "from"}, {"", "2026-13-01", "to"}} {
		_, _, err := ParseRange(c[0], c[1])
		if e, ok := err.(*Error); !ok || e.Fields[0].Field != c[2] {
			t.Errorf("%q %q: %v, want Invalid at %s", c[0], c[1], err, c[2])
		}
	}
}

func TestFilterConditionReadsBack(t *testing.T) {
	cond := FilterCondition("q7", FilterContains, `late, \ very: late`)
	f, err := ParseAnswerFilter([]string{cond}, "", filterForm, filterHidden)
	if err != nil || len(f.conditions) != 1 || f.conditions[0].text != `late, \ very: late` {
		t.Fatalf("%q read back as %+v, %v", cond, f, err)
	}
	if got := FilterCondition("q2", FilterEmpty, "ignored"); got != "q2:empty" {
		t.Errorf("empty: %q", got)
	}
}
