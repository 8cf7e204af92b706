package builtin

import (
	"time"
	"unicode/utf8"

	"forma/internal/ai/query"
	"forma/internal/form"
)

// Turn is one message of a chat conversation about a form's responses.
type Turn struct {
	Role    string // "user" or "assistant"
	Content string
}

// Chat roles.
const (
	RoleUser      = "user"
	RoleAssistant = "assistant"
)

// Limits of the chat.
const (
	// MaxChatMessageLen is the longest message Answer reads, in characters.
	MaxChatMessageLen = 5000
	// maxHistoryTurns caps the earlier user messages replayed for context.
	maxHistoryTurns = 20
)

// chatSession answers one message over one dataset.
type chatSession struct {
	ds  *query.Dataset
	eng *query.Engine
	cf  *chatForm
	now time.Time
}

// Answer replies in plain English to a question about the responses of the
// dataset's form: counts, percentages, averages, medians, extremes and totals,
// most common answers, breakdowns, filters ("among those who rated 4 or more"),
// date ranges ("last week", "in March"), comparisons and breakdowns by a question,
// trends, recent comments and their sentiment. Earlier user turns of history give
// the context of follow-ups ("and for those who said no?"). Every number in the
// reply comes from the query engine, or is a value the question itself gave; when
// the question cannot be mapped to the data, the reply says so and suggests
// questions about this form. Answers are data, never instructions. now resolves
// relative dates. The same inputs always give the same reply.
func Answer(ds *query.Dataset, history []Turn, question string, now time.Time) string {
	if ds == nil || ds.Form == nil {
		ds = &query.Dataset{Form: &form.Form{}}
	}
	s := &chatSession{ds: ds, eng: query.New(ds), cf: newChatForm(ds.Form), now: now.UTC()}
	if len(ds.Responses) == 0 {
		return s.noResponses()
	}
	in := s.parse(chatClip(question))
	if prev := s.context(history); prev != nil && in.followUp {
		in = chatMerge(prev, in)
	}
	s.bind(in)
	return s.reply(in)
}

// chatClip cuts a message to MaxChatMessageLen characters.
func chatClip(s string) string {
	if utf8.RuneCountInString(s) <= MaxChatMessageLen {
		return s
	}
	return string([]rune(s)[:MaxChatMessageLen])
}

// context replays the user turns of history and returns the intent of the last
// one that could be answered.
func (s *chatSession) context(history []Turn) *chatIntent {
	var users []string
	for _, t := range history {
		if t.Role == RoleUser {
			users = append(users, t.Content)
		}
	}
	if len(users) > maxHistoryTurns {
		users = users[len(users)-maxHistoryTurns:]
	}
	var prev *chatIntent
	for _, u := range users {
		in := s.parse(chatClip(u))
		if prev != nil && in.followUp {
			in = chatMerge(prev, in)
		}
		s.bind(in)
		if s.answerable(in) {
			prev = in
		}
	}
	return prev
}

// chatMerge applies a follow-up to the previous intent: what the follow-up names
// replaces what the previous question had, the rest carries over.
func chatMerge(prev, cur *chatIntent) *chatIntent {
	out := *prev
	out.conds = append([]chatCond(nil), prev.conds...)
	if cur.metric != "" || cur.special != "" {
		out.metric, out.special, out.least, out.interval = cur.metric, cur.special, cur.least, cur.interval
		out.extreme, out.total = cur.extreme, cur.total
	}
	if cur.target != nil {
		out.target = cur.target
	} else if out.target != nil && out.metric != "" && !chatFits(out.metric, out.target.q) {
		out.target = nil
	}
	if cur.span != nil {
		out.span = cur.span
	}
	if cur.groupBy != nil {
		out.groupBy, out.compare = cur.groupBy, cur.compare
	}
	if cur.limit > 0 {
		out.limit = cur.limit
	}
	for _, c := range cur.conds {
		out.conds = chatReplaceCond(out.conds, c, cur.addOnly)
	}
	out.followUp, out.addOnly, out.about = false, false, true
	return &out
}

// chatReplaceCond puts c in place of the condition on the same question (a bare
// yes/no replaces the condition on a yes_no question), or adds it as narrowing the
// population.
func chatReplaceCond(conds []chatCond, c chatCond, addOnly bool) []chatCond {
	for i, old := range conds {
		same := (c.q != nil && old.q == c.q) || (c.q == nil && old.q != nil && old.q.q.Type == form.YesNo)
		if same && !addOnly {
			c.base = old.base || c.base
			if c.q == nil {
				c.q = old.q
				c.f.Question = old.f.Question
			}
			conds[i] = c
			return conds
		}
	}
	c.base = true
	return append(conds, c)
}

// bind gives bare yes/no answers their question: the yes_no question the intent is
// about, or the form's only one. Conditions that cannot be bound are dropped.
func (s *chatSession) bind(in *chatIntent) {
	var yn *chatQuestion
	if in.target != nil && in.target.q.Type == form.YesNo {
		yn = in.target
	} else if s.cf.countOfType(form.YesNo) == 1 {
		yn = s.cf.firstOfType(form.YesNo)
	}
	out := in.conds[:0]
	for _, c := range in.conds {
		if c.q == nil {
			if yn == nil {
				continue
			}
			c.q, c.f.Question = yn, yn.q.ID
		}
		out = append(out, c)
	}
	in.conds = out
}

// answerable reports whether the intent names something to compute.
func (s *chatSession) answerable(in *chatIntent) bool {
	switch {
	case in.special != "" || len(in.compare) > 0:
		return true
	case in.target != nil:
		return true
	case len(in.conds) > 0:
		return in.metric != query.Mean && in.metric != query.Median && in.metric != query.Sum
	case in.span != nil || in.groupBy != nil:
		return in.metric != "" || in.about
	case in.metric == query.Count || in.metric == query.Trend:
		return in.about
	case in.metric == query.Sentiment:
		return true
	case in.metric == query.List:
		return s.cf.firstOfType(form.Textarea, form.Text) != nil
	}
	return false
}
