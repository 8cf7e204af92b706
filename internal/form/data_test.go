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
