package auth

import (
	"errors"
	"strings"
	"testing"

	"forma/internal/form"
)

func TestNewKeyIsWellFormedAndHashedOnly(t *testing.T) {
	seen := map[string]bool{}
	for range 200 {
		key, hash, prefix, err := NewKey()
		if err != nil {
			t.Fatal(err)
		}
		if !WellFormed(key) {
			t.Fatalf("new key %q is not well formed", key)
		}
		if strings.Contains(hash, key[len(LivePrefix):]) || hash != Hash(key) {
			t.Fatalf("hash %q reveals or does not match the key", hash)
		}
		if !strings.HasPrefix(key, prefix) || len(prefix) != DisplayLen {
			t.Fatalf("prefix %q of %q", prefix, key)
		}
		if seen[key] {
			t.Fatal("duplicate key")
		}
		seen[key] = true
	}
}

func TestWellFormedRejectsLookalikes(t *testing.T) {
	good, _, _, _ := NewKey()
	for _, bad := range []string{"", "forma_sk_live_", good + "x", good[:len(good)-1],
		"forma_sk_test_" + good[len(LivePrefix):], strings.Replace(good, good[20:21], "-", 1)} {
		if WellFormed(bad) {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestKeySettingsCheck(t *testing.T) {
	limit := func(n int) *int { return &n }
	for _, c := range []struct {
		settings KeySettings
		field    string // "" when valid
	}{
		{KeySettings{Name: "Zapier – prod"}, ""},
		{KeySettings{Name: "ci", DailyLimit: limit(500)}, ""},
		{KeySettings{Name: ""}, ""},
		{KeySettings{Name: "two\nlines"}, "name"},
		{KeySettings{Name: "nul\x00"}, "name"},
		{KeySettings{Name: strings.Repeat("é", 101)}, "name"},
		{KeySettings{Name: "ci", DailyLimit: limit(250)}, "dailyLimit"},
		{KeySettings{Name: "ci", DailyLimit: limit(0)}, "dailyLimit"},
	} {
		err := c.settings.Check()
		var fe *form.Error
		switch {
		case c.field == "" && err != nil:
			t.Errorf("%+v refused: %v", c.settings, err)
		case c.field != "" && (!errors.As(err, &fe) || fe.Fields[0].Field != c.field):
			t.Errorf("%+v: error %v, want one naming %s", c.settings, err, c.field)
		}
	}
}
