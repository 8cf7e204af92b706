package form

import "testing"

func TestCheckText(t *testing.T) {
	cases := []struct {
		s          string
		single     MessageCode // the problem as SingleLine text; "" when accepted
		multi      MessageCode // the problem as MultiLine text
		singleChar string      // the {char} of a control-character problem
	}{
		{"", "", "", ""},
		{"Plain text, with a\ttab", "", "", ""},
		{"   ", "", "", ""}, // blankness is the field's rule
		{"e\u0301t\u00e9 \U0001F469\u200d\U0001F4BB \u05d0\u200e1", "", "", ""},
		{"two\nlines", MsgLineBreak, "", ""},
		{"crlf\r\nlines", MsgLineBreak, "", ""},
		{"lone\rcr", MsgControl, MsgControl, "U+000D"},
		{"a\x00b", MsgNUL, MsgNUL, ""},
		{"bell\a", MsgControl, MsgControl, "U+0007"},
		{"esc\x1b[31m", MsgControl, MsgControl, "U+001B"},
		{"del\x7f", MsgControl, MsgControl, "U+007F"},
		{"nel\u0085", MsgControl, MsgControl, "U+0085"},
		{"c1\u009f", MsgControl, MsgControl, "U+009F"},
		{"\u200b\u200b", MsgInvisible, MsgInvisible, ""},
		{" \u200e\u200f\u2060\ufeff ", MsgInvisible, MsgInvisible, ""},
		{"\u00ad", MsgInvisible, MsgInvisible, ""},
	}
	for _, c := range cases {
		for kind, want := range map[TextKind]MessageCode{SingleLine: c.single, MultiLine: c.multi} {
			r, ok := CheckText(c.s, kind)
			if ok != (want == "") || r.Code != want {
				t.Errorf("CheckText(%q, %d) = %v, %v; want %q", c.s, kind, r, ok, want)
			}
			if want == MsgControl && r.Params["char"] != c.singleChar {
				t.Errorf("CheckText(%q): char %q, want %s", c.s, r.Params["char"], c.singleChar)
			}
		}
	}
}

func TestCheckField(t *testing.T) {
	if err := CheckField("name", "ci\x01", SingleLine); err == nil || err.Error() != "invalid: name: must not contain the control character U+0001" {
		t.Errorf("CheckField: %v", err)
	}
	if err := CheckField("name", "ci", SingleLine); err != nil {
		t.Errorf("CheckField: %v", err)
	}
}
