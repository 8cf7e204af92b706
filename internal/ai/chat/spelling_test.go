package chat

import (
	"maps"
	"strings"
	"testing"

	"forma/internal/ai/aitest"
)

func TestChatReadsTypingSlips(t *testing.T) {
	sv := aitest.Employee()
	ds := sv.Dataset()
	want := Answer(ds, nil, "average job satisfaction in berlin", sv.Now)
	for _, typed := range []string{"avrage job satisfation in berlin", "avg job satisfaction in berlni"} {
		if got := Answer(ds, nil, typed, sv.Now); got != want {
			t.Errorf("%q:\n got %s\nwant %s", typed, got, want)
		}
	}
	// A word one slip from filler stays unknown: the chat refuses rather than guesses.
	if reply := Answer(ds, nil, "how many people wanted a raise", sv.Now); !strings.Contains(reply, "can't answer") {
		t.Errorf("unknown word corrected: %s", reply)
	}
}

// A slip inside a phrase the chat reads whole ("5 star reviews" is a rating) is
// read as the phrase, not as a word of another question.
func TestChatReadsSlipsInsidePhrases(t *testing.T) {
	sv := aitest.Coffee()
	ds := sv.Dataset()
	want := Answer(ds, nil, "number of 5 star reviews for the cafe", sv.Now)
	if !strings.Contains(want, "16 of the 60") {
		t.Fatalf("five-star count: %s", want)
	}
	for _, typed := range []string{"number of 5 star reviiews for the cafe", "number of 5 star revews for the cafe"} {
		if got := Answer(ds, nil, typed, sv.Now); got != want {
			t.Errorf("%q:\n got %s\nwant %s", typed, got, want)
		}
	}
}

func TestOneSlip(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"numbr", "number", true}, {"nubmer", "number", true}, {"numbet", "number", true}, {"number", "number", false},
		{"numbers", "nmber", false}, {"office", "offset", false},
	} {
		if got := oneSlip(c.a, c.b); got != c.want {
			t.Errorf("oneSlip(%q, %q) = %v", c.a, c.b, got)
		}
	}
}

func TestSameSqueezed(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"reccomend", "recommend", true}, {"recomend", "recommend", true}, {"commited", "committed", true},
		{"recommend", "recommend", false}, {"latter", "later", true}, {"office", "offset", false},
	} {
		if got := sameSqueezed(c.a, c.b); got != c.want {
			t.Errorf("sameSqueezed(%q, %q) = %v", c.a, c.b, got)
		}
	}
}

// TestVocabularyIsTheSameEachTime builds the chat's vocabulary and each survey's
// many times: the words it knows were once grown while ranged over, so a typing
// slip ("respones") was corrected in some runs and refused in others.
func TestVocabularyIsTheSameEachTime(t *testing.T) {
	for range 30 {
		if _, known := chatVocabulary(); !maps.Equal(known, chatKnown) {
			t.Fatalf("the chat's known words differ between two builds (%d and %d words)", len(chatKnown), len(known))
		}
	}
	for _, sv := range aitest.Surveys() {
		first := newFormIndex(sv.Form).formKnown
		for range 30 {
			if known := newFormIndex(sv.Form).formKnown; !maps.Equal(known, first) {
				t.Fatalf("%s: the form's known words differ between two builds (%d and %d words)", sv.Name, len(first), len(known))
			}
		}
		ts := tokenize(newFormIndex(sv.Form).respell("respones"))
		if ts[0].low != "response" {
			t.Errorf("%s: “respones” read as %q, want response", sv.Name, ts[0].low)
		}
	}
}

// TestChatSlipsKeepTheWordTyped checks that a slip is read as the word typed,
// not as another form with the same stem ("montthly" is monthly, not month; a
// doubled letter of a filler word is that word), that the other side of the
// Atlantic's spelling of a form's word is the form's word, and that a word as
// close to a filler word as to a word the chat reads is left alone.
func TestChatSlipsKeepTheWordTyped(t *testing.T) {
	cf := newFormIndex(aitest.Coffee().Form)
	for typed, want := range map[string]string{
		"montthly": "monthly", "commeents": "comments", "counnts": "counts", "persson": "person",
		"drinnks": "drinks", "counttries": "countries", "favorite": "favourite", "quarttile": "quartile", "ratrs": "ratrs",
		"emplooyee": "employee", "caffe": "cafe", "monay": "monay", // "monay": monday or money
	} {
		if got := cf.respell(typed); got != want {
			t.Errorf("%q read as %q, want %q", typed, got, want)
		}
	}
}
