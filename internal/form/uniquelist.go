package form

import "fmt"

// uniqueList is a list field of a form whose entries are checked one by one and
// must not repeat: hidden field names, notification recipients, embedding origins.
type uniqueList struct {
	field string // the field's name, e.g. "hiddenFields"
	noun  string // what the entries are, in the plural, e.g. "names"
	limit int    // the most entries allowed
}

// check records the problems of entries under l.field: more than l.limit of
// them, and, for each entry, what item records (item returns the entry's key for
// the duplicate check, and whether the entry is valid), or, for a valid entry
// whose key an earlier one had, the message dup makes of the entry and its key.
func (l uniqueList) check(entries []string, p *Problems, item func(entry, field string) (key string, ok bool), dup func(entry, key string) string) {
	if len(entries) > l.limit {
		p.Add(l.field, "must have at most %d %s (got %d)", l.limit, l.noun, len(entries))
		return
	}
	seen := make(map[string]bool, len(entries))
	for i, entry := range entries {
		field := fmt.Sprintf("%s[%d]", l.field, i)
		key, ok := item(entry, field)
		if !ok {
			continue
		}
		if seen[key] {
			p.Add(field, "%s", dup(entry, key))
		}
		seen[key] = true
	}
}
