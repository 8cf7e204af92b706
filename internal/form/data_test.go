package form

import (
	"encoding/json"
	"testing"
)

func TestDataKeysSuffixDuplicates(t *testing.T) {
	qs := []Question{{ID: 1, Text: "Name"}, {ID: 2, Text: "Age"}, {ID: 3, Text: "Name"}, {ID: 4, Text: "Name (2)"}, {ID: 5, Text: "Name"}}
	keys := DataKeys(qs)
	want := map[int64]string{1: "Name", 2: "Age", 3: "Name (2)", 4: "Name (2) (2)", 5: "Name (3)"}
	for id, k := range want {
		if keys[id] != k {
			t.Errorf("question %d: key %q, want %q", id, keys[id], k)
		}
	}
}

func TestBuildDataKeepsQuestionOrder(t *testing.T) {
	qs := []Question{{ID: 9, Text: "Zeta"}, {ID: 2, Text: "Alpha"}, {ID: 5, Text: "Zeta"}}
	data := BuildData(qs, map[int64]any{2: "a", 9: 1.5, 5: true, 77: "orphan"}, nil)
	b, err := json.Marshal(data)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != `{"Zeta":1.5,"Alpha":"a","Zeta (2)":true}` {
		t.Errorf("got %s", b)
	}
	if b, _ := json.Marshal(Data{}); string(b) != "{}" {
		t.Errorf("empty data: %s", b)
	}
}

// TestDataEncodesAsJSONMarshal: keys and values come out exactly as
// json.Marshal writes them, HTML characters and line separators escaped, and an
// unencodable value is an error.
func TestDataEncodesAsJSONMarshal(t *testing.T) {
	data := Data{
		{Key: `<b>"Name"</b> & co`, Value: "a\u2028b <script>"},
		{Key: "Größe", Value: 1e21},
		{Key: "Tags", Value: []any{"x", nil, 2.5, map[string]any{"k": true}}},
		{Key: "File", Value: FileAnswer{Name: "cv.pdf", Size: 3, ContentType: "application/pdf", URL: "https://x/?a=1&b=2"}},
		{Key: "None", Value: nil},
	}
	got, err := json.Marshal(data)
	if err != nil {
		t.Fatal(err)
	}
	want := "{"
	for i, e := range data {
		k, _ := json.Marshal(e.Key)
		v, _ := json.Marshal(e.Value)
		if i > 0 {
			want += ","
		}
		want += string(k) + ":" + string(v)
	}
	if want += "}"; string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if _, err := json.Marshal(Data{{Key: "Bad", Value: func() {}}}); err == nil {
		t.Error("a function value encoded without an error")
	}
}

// BenchmarkDataMarshal encodes the data of a five-question response, as a page
// of the API's responses does a hundred times.
func BenchmarkDataMarshal(b *testing.B) {
	data := Data{{Key: "Name", Value: "Respondent 12345"}, {Key: "Mood", Value: 4.0}, {Key: "Again?", Value: true},
		{Key: "Plan", Value: "Pro"}, {Key: "Why", Value: "Because it does what it says, quickly."}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := data.MarshalJSON(); err != nil {
			b.Fatal(err)
		}
	}
}
