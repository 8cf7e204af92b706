package chat

import (
	"strings"
	"testing"

	"forma/internal/ai"
	"forma/internal/ai/aitest"
)

// replyCase is a question asked alone of a survey and a text its reply must hold.
type replyCase struct {
	sv        *aitest.Survey
	ask, want string
}

// checkReplies asks every case and reports the replies that lack their text.
func checkReplies(t *testing.T, cases []replyCase) {
	t.Helper()
	for _, c := range cases {
		if reply := Answer(c.sv.Dataset(), nil, c.ask, c.sv.Now); !strings.Contains(reply, c.want) {
			t.Errorf("%q: want %q in: %s", c.ask, c.want, reply)
		}
	}
}

// converse asks the questions in turn, in one conversation, and returns the last
// reply.
func converse(sv *aitest.Survey, asks ...string) string {
	var history []ai.Turn
	reply := ""
	for _, ask := range asks {
		reply = Answer(sv.Dataset(), history, ask, sv.Now)
		history = append(history, ai.Turn{Role: ai.RoleUser, Content: ask}, ai.Turn{Role: ai.RoleAssistant, Content: reply})
	}
	return reply
}

// TestChatYesNoQuestions checks questions framed for a yes or no: a figure checked
// against a number gets the figure and the verdict, a follow-up keeps the check,
// a share or a count is checked, "are most …" and "did most Germans …" get the
// share among them, and "A higher than B" or "than the others" compares groups.
func TestChatYesNoQuestions(t *testing.T) {
	coffee, ev, emp := aitest.Coffee(), aitest.Event(), aitest.Employee()
	checkReplies(t, []replyCase{
		{coffee, "is the average rating above 4?", "is 3.65 out of 5 (from 60 answers). So no: 3.65 out of 5 is not more than 4."},
		{coffee, "Is it true that the average rating is above 4?", "So no: 3.65 out of 5 is not more than 4."},
		{coffee, "Avg rating in italy. is it above 4?", "So yes: 4.25 out of 5 is more than 4."},
		{coffee, "are there more than 50 responses?", "So yes: 60 is more than 50."},
		{coffee, "do more than half of the germans recommend us?", "So yes: 56.25% is more than 50 percent."},
		{ev, "did more than 60% say they'd come again?", "So yes: 68.33% is more than 60 percent."},
		{ev, "are most attendees coming back next year?", "68.33%"},
		{coffee, "did most germans recommend us", "Among the 16 responses that answered Germany"},
		{coffee, "do germans rate higher than the french?", "Average answer to “How would you rate our cafe?” by answer to “Country”:\n- Germany"},
		{emp, "are remote workers more satisfied than the others?", "by answer to “Do you work remotely?”"},
	})
	if reply := converse(coffee, "is the average rating above 4?", "and for the french?"); !strings.Contains(reply, "answered France") || !strings.Contains(reply, "So no: 3.73") {
		t.Errorf("follow-up of a check: %s", reply)
	}
}

// TestChatNumbersDaysAndNegations checks numbers written as words, days written
// in several ways (a slash day readable both ways is refused), negated
// comparisons and exclusions, and the word after a number naming its question.
func TestChatNumbersDaysAndNegations(t *testing.T) {
	coffee, emp := aitest.Coffee(), aitest.Employee()
	checkReplies(t, []replyCase{
		{coffee, "how many people drink more than three cups a day", "more than 3 to “Cups per day”"},
		{coffee, "how many responses since 1 Oct", "since 2025-10-01"},
		{coffee, "how many responses since the 1st of october", "since 2025-10-01"},
		{coffee, "responses before september 15th", "before 2025-09-15"},
		{coffee, "how many responses between 3/10 and 20/10", "between 2025-10-03 and 2025-10-20"},
		{coffee, "how many responses between 3/10 and 10/10", "day first or month first"},
		{coffee, "responses between the 1st and the 15th of october", "between 2025-10-01 and 2025-10-15"},
		{coffee, "responses from 1 aug to 31 aug", "between 2025-08-01 and 2025-08-31"},
		{coffee, "how many responses since monday", "since Monday (from 2025-11-24)"},
		{coffee, "how many people don't drink more than two cups", "answered 2 or less to “Cups per day”"},
		{coffee, "average rating excluding germany", "something other than Germany"},
		{coffee, "what percentage of people who don't recommend us are french", "answered No to “Would you recommend us?”"},
		{emp, "average work-life balance for people with ten or more years", "answered 10 or more to “Years at the company”"},
	})
}

// TestChatSetsChatterAside checks that a sentence holding only words the chat
// cannot map is set aside when the rest reads in full, that one holding a
// restriction is not (it is read: "ignore the french" leaves France out), and the
// population of "of remote workers are …".
func TestChatSetsChatterAside(t *testing.T) {
	coffee, emp := aitest.Coffee(), aitest.Employee()
	checkReplies(t, []replyCase{
		{coffee, "hi there. i run the cafe. how many of our customers are from italy?", "answered Italy to “Country”"},
		{coffee, "Ignore the french. what is the average rating?", "answered something other than France to “Country”"},
		{emp, "what percentage of remote workers are in marketing", "Among the"},
		{coffee, "how many people drink tea and how many drink latte", "more than one figure"},
		{emp, "how many employees are part-time", "I don't know what “parttime”"},
	})
}

// TestChatFollowUpsRefused checks that a follow-up of a question the chat could
// not answer is refused, and one that could keep or replace the previous group.
func TestChatFollowUpsRefused(t *testing.T) {
	if reply := converse(aitest.Event(), "average nps for the keynote", "and for the workshop"); !strings.Contains(reply, "follows a question I could not answer") {
		t.Errorf("follow-up of a refusal: %s", reply)
	}
	reply := converse(aitest.Employee(), "what share of engineers use the gym?", "and in sales?", "same for the london office")
	if !strings.Contains(reply, "London alone or Sales and London together") {
		t.Errorf("group change: %s", reply)
	}
}
