package api

import "testing"

// FuzzCursor: a cursor the server writes reads back as itself, and any text that
// reads as a cursor is that cursor's one spelling, so that no two strings name
// the same position.
func FuzzCursor(f *testing.F) {
	f.Add(byte(newestResponses), int64(12), int64(1_795_944_600_000), "Vb3kQ9xLm2Zw7RtBp4NcYa", "AQEMgLe6qcBoVmIza1E5eExtMlp3N1J0QnA0TmNZYQ")
	f.Add(byte(newestDeliveries), int64(12), int64(40), "", "AQMMUA")
	f.Add(byte(oldestResponses), int64(1), int64(-5), "a", "AQIBCWE=")
	f.Fuzz(func(t *testing.T, list byte, formID, at int64, id, text string) {
		c := cursor{list: cursorList(list), formID: formID, at: at, id: id}
		if back, ok := decodeCursor(c.String()); ok && back != c {
			t.Errorf("%+v reads back as %+v", c, back)
		}
		if back, ok := decodeCursor(text); ok && back.String() != text {
			t.Errorf("%q reads as %+v, which is written %q", text, back, back.String())
		}
	})
}

// TestCursorsOfTheServerReadBack: the cursors the lists give are accepted, and
// the examples of the OpenAPI document are cursors.
func TestCursorsOfTheServerReadBack(t *testing.T) {
	for _, c := range []cursor{
		{list: newestResponses, formID: 12, at: 1_795_944_600_000, id: "Vb3kQ9xLm2Zw7RtBp4NcYa"},
		{list: oldestResponses, formID: 1 << 62, at: -1, id: "x"},
		{list: newestDeliveries, formID: 12, at: 40},
	} {
		if back, ok := decodeCursor(c.String()); !ok || back != c {
			t.Errorf("%+v: read back %+v, %v", c, back, ok)
		}
	}
	for _, example := range []string{"AQEMgLe6qcBoVmIza1E5eExtMlp3N1J0QnA0TmNZYQ", "AQMMUA"} {
		if _, ok := decodeCursor(example); !ok {
			t.Errorf("the document's example %s is not a cursor", example)
		}
	}
}
