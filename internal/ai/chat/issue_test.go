package chat

import (
	"strings"
	"testing"

	"forma/internal/ai/aitest"
)

// TestIssueTable asks the five questions the chat used to answer with another
// figure (issue 14) about the 60-response coffee survey; the expected figures are
// computed by plain code over its records.
func TestIssueTable(t *testing.T) {
	sv := aitest.Coffee()
	ds := sv.Dataset()
	cases := []struct{ ask, spec, states string }{
		{"What is the median number of cups per day?", "median cups", "median"},
		{"What's the highest number of cups per day?", "max cups", "highest"},
		{"What is the standard deviation of cups per day?", "sd cups", "standard deviation"},
		{"Which country likes the cafe most?", "best country mean rating", "highest average"},
		{"How many people prefer tea or latte?", "count ; drink=Tea|Latte", "Tea or Latte"},
	}
	for _, c := range cases {
		sp, err := parseSpec(c.spec)
		if err != nil {
			t.Fatal(err)
		}
		wants, err := expect(sv, sp)
		if err != nil {
			t.Fatal(err)
		}
		reply := Answer(ds, nil, c.ask, sv.Now)
		if problems := fbCheck(reply, wants); len(problems) > 0 || !strings.Contains(reply, c.states) {
			t.Errorf("%q\n  reply: %s\n  problems: %v (must state %q)", c.ask, reply, problems, c.states)
		}
	}
}
