package store

import (
	"fmt"
	"testing"

	"forma/internal/form"
)

// TestFormCacheIsBounded: a full cache makes room for a new form by dropping
// another, by id and by share token alike, and a load that began before an
// eviction is not kept.
func TestFormCacheIsBounded(t *testing.T) {
	c := newFormCache()
	for id := int64(1); id <= maxCachedForms+10; id++ {
		_, epoch := c.lookup(id, "")
		c.put(&CachedForm{Form: &form.Form{ID: id, ShareToken: fmt.Sprint("t", id)}}, epoch)
	}
	if len(c.byID) != maxCachedForms || len(c.byToken) != maxCachedForms {
		t.Fatalf("%d forms by id and %d by token, want %d of each", len(c.byID), len(c.byToken), maxCachedForms)
	}
	for id, f := range c.byID {
		if c.byToken[f.Form.ShareToken] != f || f.Form.ID != id {
			t.Fatalf("form %d is cached by id but not by its token", id)
		}
	}
	_, epoch := c.lookup(0, "late")
	c.evict(1)
	c.put(&CachedForm{Form: &form.Form{ID: 99999, ShareToken: "late"}}, epoch)
	if f, _ := c.lookup(0, "late"); f != nil {
		t.Fatal("a load that began before an eviction was kept")
	}
}
