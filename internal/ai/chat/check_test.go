package chat

import (
	"strings"
	"testing"

	"forma/internal/ai"
	"forma/internal/ai/aitest"
)

// TestChatYesNoQuestions checks questions framed for a yes or no: a figure checked
// against a number gets the figure and the verdict, a follow-up keeps the check,
// "are most …" gets the share, and "A higher than B" compares the two groups.
func TestChatYesNoQuestions(t *testing.T) {
	sv := aitest.Coffee()
	ds := sv.Dataset()
	first := "is the average rating above 4?"
	reply := Answer(ds, nil, first, sv.Now)
	if !strings.Contains(reply, "is 3.65 out of 5") || !strings.Contains(reply, "So no: 3.65 out of 5 is not more than 4.") {
		t.Errorf("%q: %s", first, reply)
	}
	history := []ai.Turn{{Role: ai.RoleUser, Content: first}, {Role: ai.RoleAssistant, Content: reply}}
	if reply := Answer(ds, history, "and for the french?", sv.Now); !strings.Contains(reply, "answered France") || !strings.Contains(reply, "So no: 3.73") {
		t.Errorf("follow-up: %s", reply)
	}
	if reply := Answer(ds, nil, "do germans rate higher than the french?", sv.Now); !strings.Contains(reply, "Average answer to “How would you rate our cafe?” by answer to “Country”") ||
		!strings.Contains(reply, "Germany") || !strings.Contains(reply, "France") || strings.Contains(reply, "Spain") {
		t.Errorf("comparison: %s", reply)
	}
	ev := aitest.Event()
	if reply := Answer(ev.Dataset(), nil, "are most attendees coming back next year?", ev.Now); !strings.Contains(reply, "68.33%") {
		t.Errorf("majority: %s", reply)
	}
}

// TestChatSpelledNumbersAndDays checks numbers written as words and days written
// in several ways, and that a slash day readable both ways is refused.
func TestChatSpelledNumbersAndDays(t *testing.T) {
	sv := aitest.Coffee()
	for ask, want := range map[string]string{
		"how many people drink more than three cups a day":  "more than 3 to “Cups per day”",
		"how many responses since 1 Oct":                    "since 2025-10-01",
		"how many responses since the 1st of october":       "since 2025-10-01",
		"responses before september 15th":                   "before 2025-09-15",
		"how many responses between 3/10 and 20/10":         "between 2025-10-03 and 2025-10-20",
		"how many responses between 3/10 and 10/10":         "day first or month first",
		"responses between the 1st and the 15th of october": "between 2025-10-01 and 2025-10-15",
	} {
		if reply := Answer(sv.Dataset(), nil, ask, sv.Now); !strings.Contains(reply, want) {
			t.Errorf("%q: want %q in: %s", ask, want, reply)
		}
	}
}

// TestChatFollowUpOfRefusal checks that a follow-up of a question the chat could
// not answer is refused, not answered on its own.
func TestChatFollowUpOfRefusal(t *testing.T) {
	sv := aitest.Event()
	first := "average nps for the keynote"
	history := []ai.Turn{{Role: ai.RoleUser, Content: first}, {Role: ai.RoleAssistant, Content: Answer(sv.Dataset(), nil, first, sv.Now)}}
	if reply := Answer(sv.Dataset(), history, "and for the workshop", sv.Now); !strings.Contains(reply, "follows a question I could not answer") {
		t.Errorf("reply: %s", reply)
	}
}

// TestChatSetsChatterAside checks that a sentence holding only words the chat
// cannot map is set aside when the rest reads in full, and that one holding a
// restriction or an option is not.
func TestChatSetsChatterAside(t *testing.T) {
	sv := aitest.Coffee()
	for ask, want := range map[string]string{
		"hi there. i run the cafe. how many of our customers are from italy?": "answered Italy to “Country”",
		"Ignore the french. what is the average rating?":                      "I don't know what “ignore”",
	} {
		if reply := Answer(sv.Dataset(), nil, ask, sv.Now); !strings.Contains(reply, want) {
			t.Errorf("%q: want %q in: %s", ask, want, reply)
		}
	}
	emp := aitest.Employee()
	if reply := Answer(emp.Dataset(), nil, "what percentage of remote workers are in marketing", emp.Now); !strings.Contains(reply, "Among the") {
		t.Errorf("share of a kind of respondents: %s", reply)
	}
}

// TestChatRoundEightReadings checks "than the others", a share asked as "did
// most Germans …", "…, and is it below 3?", abbreviated months, and the refusal
// of a follow-up that could keep or replace the previous group.
func TestChatRoundEightReadings(t *testing.T) {
	emp, coffee := aitest.Employee(), aitest.Coffee()
	cases := []struct {
		sv        *aitest.Survey
		ask, want string
	}{
		{emp, "are remote workers more satisfied than the others?", "by answer to “Do you work remotely?”"},
		{coffee, "did most germans recommend us", "Among the 16 responses that answered Germany"},
		{coffee, "Avg rating in italy. is it above 4?", "So yes: 4.25 out of 5 is more than 4."},
		{coffee, "responses from 1 aug to 31 aug", "between 2025-08-01 and 2025-08-31"},
	}
	for _, c := range cases {
		if reply := Answer(c.sv.Dataset(), nil, c.ask, c.sv.Now); !strings.Contains(reply, c.want) {
			t.Errorf("%q: want %q in: %s", c.ask, c.want, reply)
		}
	}
	var history []ai.Turn
	for _, ask := range []string{"what share of engineers use the gym?", "and in sales?"} {
		history = append(history, ai.Turn{Role: ai.RoleUser, Content: ask}, ai.Turn{Role: ai.RoleAssistant, Content: Answer(emp.Dataset(), history, ask, emp.Now)})
	}
	if reply := Answer(emp.Dataset(), history, "same for the london office", emp.Now); !strings.Contains(reply, "London alone or Sales and London together") {
		t.Errorf("group change: %s", reply)
	}
}

// TestChatRoundNineReadings checks negated comparisons and exclusions, a count
// framed as yes/no, "since Monday", the unit after a number naming its question,
// and the refusal of two "how many" in one message and of an unknown compound.
func TestChatRoundNineReadings(t *testing.T) {
	emp, coffee := aitest.Employee(), aitest.Coffee()
	cases := []struct {
		sv        *aitest.Survey
		ask, want string
	}{
		{coffee, "how many people don't drink more than two cups", "answered 2 or less to “Cups per day”"},
		{coffee, "average rating excluding germany", "something other than Germany"},
		{coffee, "what percentage of people who don't recommend us are french", "answered No to “Would you recommend us?”"},
		{coffee, "are there more than 50 responses?", "So yes: 60 is more than 50."},
		{coffee, "how many responses since monday", "since Monday (from 2025-11-24)"},
		{emp, "average work-life balance for people with ten or more years", "answered 10 or more to “Years at the company”"},
		{coffee, "how many people drink tea and how many drink latte", "more than one figure"},
		{emp, "how many employees are part-time", "I don't know what “parttime”"},
	}
	for _, c := range cases {
		if reply := Answer(c.sv.Dataset(), nil, c.ask, c.sv.Now); !strings.Contains(reply, c.want) {
			t.Errorf("%q: want %q in: %s", c.ask, c.want, reply)
		}
	}
}

// TestChatShareChecks checks "do more than half of …" and "did more than 60% …":
// the share among the respondents named, checked against the percentage.
func TestChatShareChecks(t *testing.T) {
	coffee, ev := aitest.Coffee(), aitest.Event()
	cases := []struct {
		sv        *aitest.Survey
		ask, want string
	}{
		{coffee, "do more than half of the germans recommend us?", "So yes: 56.25% is more than 50 percent."},
		{ev, "did more than 60% say they'd come again?", "So yes: 68.33% is more than 60 percent."},
		{coffee, "Is it true that the average rating is above 4?", "So no: 3.65 out of 5 is not more than 4."},
	}
	for _, c := range cases {
		if reply := Answer(c.sv.Dataset(), nil, c.ask, c.sv.Now); !strings.Contains(reply, c.want) {
			t.Errorf("%q: want %q in: %s", c.ask, c.want, reply)
		}
	}
}
