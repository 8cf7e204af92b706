package auth

import (
	"strings"
	"testing"
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
