package chat

import (
	"strings"
	"testing"

	"forma/internal/ai/aitest"
)

// TestChatRefusesTwoReadings checks that a question the chat could read two ways
// is refused with the reason, not answered with a guess.
func TestChatRefusesTwoReadings(t *testing.T) {
	surveys := map[string]*aitest.Survey{}
	for _, sv := range aitest.Surveys() {
		surveys[sv.Name] = sv
	}
	for _, c := range []struct{ survey, ask, why string }{
		{"coffee", "average rating and average cups per day", "more than one figure"},
		{"event", "which ticket is best", "name what to rank by"},
		{"employee", "how many people are happy", "“happy”"},
		{"employee", "how many have more than 5", "“5”"},
		{"event", "how many people rated 9", "“9”"}, // no rating question goes up to 9
		{"employee", "how many started in march", "add the year"},
		{"employee", "how many people work more hours than average", "“than average”"},
		{"coffee", "most common rating, and what's the median", "more than one figure"},
		{"employee", "how many people have been here for less than a year", "“less than a year”"},
		{"coffee", "who rates us highest", "it asks who"},
	} {
		sv := surveys[c.survey]
		reply := Answer(sv.Dataset(), nil, c.ask, sv.Now)
		if !strings.Contains(reply, "I can't answer that") || !strings.Contains(reply, c.why) {
			t.Errorf("%s %q: want a refusal naming %q, got: %s", c.survey, c.ask, c.why, reply)
		}
	}
}

// TestChatShareOfClause checks which part of a percentage question is the
// population: a leading clause and "of remote workers who" narrow it, and "of
// people who A and B" asks for the share doing both.
func TestChatShareOfClause(t *testing.T) {
	sv := aitest.Employee()
	for ask, want := range map[string]string{
		"In the Berlin office, what percentage of staff use childcare?": "Among the",
		"percentage of remote workers who use the gym":                  "Among the",
		"percentage of people who work remotely and use the gym":        "of all 150 responses",
	} {
		if reply := Answer(sv.Dataset(), nil, ask, sv.Now); !strings.Contains(reply, want) {
			t.Errorf("%q: want %q in: %s", ask, want, reply)
		}
	}
}

// TestChatQuantityVerb checks that the verb before a comparison ("how many drink
// more than 3 cups") is not read as a question of the form.
func TestChatQuantityVerb(t *testing.T) {
	sv := aitest.Coffee()
	reply := Answer(sv.Dataset(), nil, "how many drink more than 3 cups", sv.Now)
	if !strings.Contains(reply, "more than 3 to “Cups per day”") || strings.Contains(reply, "Favourite drink") {
		t.Errorf("reply: %s", reply)
	}
}
