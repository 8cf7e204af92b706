package render_test

import (
	"testing"

	"forma/internal/form"
	"forma/internal/render"
)

func TestParseFormat(t *testing.T) {
	for in, want := range map[string]render.Format{"": render.CSV, "csv": render.CSV, "json": render.JSON} {
		if got, ok := render.ParseFormat(in); !ok || got != want {
			t.Errorf("ParseFormat(%q) = %q, %v", in, got, ok)
		}
	}
	for _, in := range []string{"CSV", "xml", "csv "} {
		if _, ok := render.ParseFormat(in); ok {
			t.Errorf("ParseFormat(%q) accepted", in)
		}
	}
}

func TestAnswerText(t *testing.T) {
	for _, c := range []struct {
		in   any
		want string
	}{
		{nil, ""}, {"a", "a"}, {4.5, "4.5"}, {true, "Yes"}, {false, "No"},
		{[]any{"x", "y"}, "x, y"}, {form.FileAnswer{Name: "f", URL: "http://h/files/1"}, "http://h/files/1"},
	} {
		if got := render.AnswerText(c.in); got != c.want {
			t.Errorf("AnswerText(%v) = %q, want %q", c.in, got, c.want)
		}
	}
}
