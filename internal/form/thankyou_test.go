package form_test

import (
	"testing"
	"time"

	"forma/internal/form"
)

func TestPipe(t *testing.T) {
	texts := map[int64]string{3: "Ada", 4: "{{3}}", 5: `<script>alert(1)</script>`}
	for _, c := range []struct{ text, want string }{
		{"Thanks, {{3}}!", "Thanks, Ada!"},
		{"Thanks, {{ 3 }} and {{3}}", "Thanks, Ada and Ada"},
		{"{{99}} unknown, {{}} and {3} and {{x}} left", " unknown, {{}} and {3} and {{x}} left"},
		{"an answer is not read again: {{4}}", "an answer is not read again: {{3}}"},
		{"text, escaped where shown: {{5}}", "text, escaped where shown: <script>alert(1)</script>"},
		{"no placeholder", "no placeholder"},
	} {
		if got := form.Pipe(c.text, texts); got != c.want {
			t.Errorf("Pipe(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}

func TestRedirectTo(t *testing.T) {
	texts := map[int64]string{1: "Pro & more", 2: "a=b#c", 4: "Ünïcode"}
	params := []form.RedirectParam{{QuestionID: 1, Name: "plan"}, {QuestionID: 3, Name: "unanswered"},
		{QuestionID: 2, Name: "odd name&"}, {QuestionID: 4, Name: "u"}}
	for _, c := range []struct {
		url  string
		want string
	}{
		{"https://example.com/welcome", "https://example.com/welcome?plan=Pro+%26+more&odd+name%26=a%3Db%23c&u=%C3%9Cn%C3%AFcode"},
		{"https://example.com/w?ref=forma&x#top", "https://example.com/w?ref=forma&x&plan=Pro+%26+more&odd+name%26=a%3Db%23c&u=%C3%9Cn%C3%AFcode#top"},
		{"http://127.0.0.1:8080/a%20b", "http://127.0.0.1:8080/a%20b?plan=Pro+%26+more&odd+name%26=a%3Db%23c&u=%C3%9Cn%C3%AFcode"},
	} {
		ty := &form.ThankYou{RedirectURL: c.url, RedirectParams: params}
		if got := ty.RedirectTo(texts); got != c.want {
			t.Errorf("RedirectTo(%s) =\n %s, want\n %s", c.url, got, c.want)
		}
	}
	if got := (&form.ThankYou{Title: "Thanks"}).RedirectTo(texts); got != "" {
		t.Errorf("a screen redirects to %q", got)
	}
	if got := (&form.ThankYou{RedirectURL: "https://example.com:8443/x?y=1"}).RedirectOrigin(); got != "https://example.com:8443" {
		t.Errorf("RedirectOrigin = %q", got)
	}
}

func TestSettingsClosed(t *testing.T) {
	at := time.Date(2026, 12, 24, 18, 0, 0, 0, time.UTC)
	three := 3
	for _, c := range []struct {
		name      string
		s         form.Settings
		now       time.Time
		responses int
		want      bool
	}{
		{"no limits", form.Settings{}, at, 1 << 30, false},
		{"before closesAt", form.Settings{ClosesAt: &at}, at.Add(-time.Millisecond), 0, false},
		{"at closesAt", form.Settings{ClosesAt: &at}, at, 0, true},
		{"under maxResponses", form.Settings{MaxResponses: &three}, at, 2, false},
		{"at maxResponses", form.Settings{MaxResponses: &three}, at, 3, true},
		{"either limit", form.Settings{ClosesAt: &at, MaxResponses: &three}, at.Add(-time.Hour), 3, true},
	} {
		if got := c.s.Closed(c.now, c.responses); got != c.want {
			t.Errorf("%s: Closed = %v, want %v", c.name, got, c.want)
		}
	}
}

// TestRemapThankYou: a copy's thank-you screen pipes and passes on the answers
// of the copy's own questions.
func TestRemapThankYou(t *testing.T) {
	s := form.Settings{ThankYou: &form.ThankYou{Title: "Hi {{1}}", Message: "{{ 2 }}, {{1}} and {{9}}",
		RedirectParams: []form.RedirectParam{{QuestionID: 2, Name: "b"}, {QuestionID: 9, Name: "gone"}}}}
	s.RemapQuestions(map[int64]int64{1: 11, 2: 12})
	ty := s.ThankYou
	if ty.Title != "Hi {{11}}" || ty.Message != "{{12}}, {{11}} and {{9}}" ||
		ty.RedirectParams[0].QuestionID != 12 || ty.RedirectParams[1].QuestionID != 9 {
		t.Errorf("remapped thank-you = %+v", ty)
	}
}

func TestAnswerTexts(t *testing.T) {
	qs := []form.Question{{ID: 1, Type: form.MultiSelect}, {ID: 2, Type: form.YesNo}, {ID: 3, Type: form.Number},
		{ID: 4, Type: form.FileUpload}, {ID: 5, Type: form.Text}}
	answers := map[int64]any{1: []any{"A", "B"}, 2: false, 3: 2.5, 4: "upload-id", 9: "deleted question"}
	got := form.AnswerTexts(qs, answers, func(id string) string { return "name of " + id })
	want := map[int64]string{1: "A, B", 2: "No", 3: "2.5", 4: "name of upload-id"}
	if len(got) != len(want) {
		t.Fatalf("AnswerTexts = %v, want %v", got, want)
	}
	for id, w := range want {
		if got[id] != w {
			t.Errorf("AnswerTexts[%d] = %q, want %q", id, got[id], w)
		}
	}
}
