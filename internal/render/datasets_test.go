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
	v := store.ResponsesVersion{Completed: 2}
	forms := make([]*form.Form, 4)
	for i := range forms {
		forms[i] = &form.Form{ID: int64(i + 1)}
	}
	sized := func(n int) *query.Dataset { return &query.Dataset{Responses: make([]form.Submission, n)} }
	c.put(forms[0], v, sized(2))
	c.put(forms[1], v, sized(2))
	c.get(forms[0].ID) // form 2 is now the least recently used
	c.put(forms[2], v, sized(2))
	if c.get(forms[1].ID) != nil || c.get(forms[0].ID) == nil || c.get(forms[2].ID) == nil || c.size != 4 {
		t.Errorf("after a third dataset: want forms 1 and 3 kept (4 responses), got size %d", c.size)
	}
	c.put(forms[3], v, sized(6))
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
	version := func(rs ...form.Submission) store.ResponsesVersion {
		v := store.ResponsesVersion{Completed: len(rs)}
		for _, r := range rs {
			ms := r.SubmittedAt().UnixMilli()
			v.LastCompleted, v.TimeSum = max(v.LastCompleted, ms), v.TimeSum+ms%86_400_000
		}
		return v
	}
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
