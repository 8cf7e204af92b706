package render

import (
	"testing"
	"time"

	"forma/internal/ai/query"
	"forma/internal/form"
	"forma/internal/store"
)

// TestDatasetsBudget: the least recently used datasets go first when the kept
// responses pass the budget, and a dataset larger than the budget is not kept.
func TestDatasetsBudget(t *testing.T) {
	c := newDatasets(5)
	forms := make([]*form.Form, 4)
	for i := range forms {
		forms[i] = &form.Form{ID: int64(i + 1)}
	}
	sized := func(n int) *query.Dataset { return &query.Dataset{Responses: make([]form.Submission, n)} }
	c.put(forms[0], sized(2))
	c.put(forms[1], sized(2))
	c.get(forms[0].ID) // form 2 is now the least recently used
	c.put(forms[2], sized(2))
	if c.get(forms[1].ID) != nil || c.get(forms[0].ID) == nil || c.get(forms[2].ID) == nil || c.size != 4 {
		t.Errorf("after a third dataset: want forms 1 and 3 kept (4 responses), got size %d", c.size)
	}
	c.put(forms[3], sized(6))
	if c.get(forms[3].ID) != nil || c.size != 4 {
		t.Errorf("a dataset over the budget was kept (size %d)", c.size)
	}
}

// TestGrown: responses read from the kept latest completion on are appended
// when, without the ones already kept, they make the new version exactly; any
// other change (a deletion) asks for a full load.
func TestGrown(t *testing.T) {
	at := func(id string, minute int) form.Submission {
		done := time.Date(2026, 11, 2, 9, minute, 0, 0, time.UTC)
		return form.Submission{ID: id, CompletedAt: &done}
	}
	version := func(rs ...form.Submission) store.ResponsesVersion { return store.VersionOf(0, rs) }
	a, b, c, d := at("a", 1), at("b", 2), at("c", 2), at("d", 3)
	k := &kept{version: version(a, b), ds: &query.Dataset{Responses: []form.Submission{a, b}}}
	got := k.grown([]form.Submission{b, c, d}, version(a, b, c, d))
	if len(got) != 4 || got[2].ID != "c" || got[3].ID != "d" {
		t.Errorf("grown = %v, want a b c d", got)
	}
	if len(k.ds.Responses) != 2 {
		t.Error("the kept dataset changed")
	}
	if got := k.grown([]form.Submission{b, d}, version(b, d)); got != nil {
		t.Errorf("after a deletion: %v, want nil (load all)", got)
	}
	if got := k.grown(nil, version(a, b)); len(got) != 2 {
		t.Errorf("nothing added: %v, want the kept responses", got)
	}
}

// TestKeptVersionIsTheDatasets: a response completed after the version was read
// but before the responses were loaded is in the dataset; the kept version counts
// it, so the next call, which reads a version counting it too, serves the kept
// dataset instead of appending that response a second time.
func TestKeptVersionIsTheDatasets(t *testing.T) {
	at := func(id string, minute int) form.Submission {
		done := time.Date(2026, 11, 2, 9, minute, 0, 0, time.UTC)
		return form.Submission{ID: id, CompletedAt: &done}
	}
	a, b, late := at("a", 1), at("b", 2), at("late", 3)
	f := &form.Form{ID: 1}
	c := newDatasets(100)
	// Loaded after a version counting a and b only was read.
	c.put(f, &query.Dataset{Form: f, Started: 4, Responses: []form.Submission{a, b, late}})
	k := c.get(f.ID)
	now := store.VersionOf(4, []form.Submission{a, b, late}) // what the next call reads
	if k.version != now {
		t.Fatalf("kept version %+v, want that of its responses %+v", k.version, now)
	}
	if got := k.grown([]form.Submission{late}, now); len(got) != 3 {
		t.Errorf("reading from the latest completion on gives %d responses, want 3 (late once)", len(got))
	}
}
