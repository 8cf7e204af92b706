// Package auth creates API keys and recognises them, hashes and checks dashboard
// passwords (argon2id), and makes the random tokens of dashboard sessions and
// setup links. Keys and tokens are shown once and stored only as a SHA-256 hash:
// they carry 190 bits of randomness or more, so a fast hash is enough to make a
// stolen database useless; passwords, chosen by people, get the slow argon2id.
package auth

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"math/big"
	"strings"
)

// LivePrefix starts every production key; TestPrefix is reserved.
const (
	LivePrefix = "forma_sk_live_"
	TestPrefix = "forma_sk_test_"
	keyBodyLen = 32
	// DisplayLen is how many leading characters of a key are kept to recognise it.
	DisplayLen = len(LivePrefix) + 4
)

const base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// NewKey returns a fresh live key, its hash for storage and its display prefix.
func NewKey() (key, hash, prefix string, err error) {
	body, err := RandomString(keyBodyLen)
	if err != nil {
		return "", "", "", err
	}
	key = LivePrefix + body
	return key, Hash(key), key[:DisplayLen], nil
}

// RandomString returns n base62 characters from crypto/rand.
func RandomString(n int) (string, error) {
	var sb strings.Builder
	limit := big.NewInt(int64(len(base62)))
	for range n {
		i, err := rand.Int(rand.Reader, limit)
		if err != nil {
			return "", err
		}
		sb.WriteByte(base62[i.Int64()])
	}
	return sb.String(), nil
}

// Hash is the stored form of a key.
func Hash(key string) string {
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:])
}

// WellFormed reports whether s looks like a live key, so that malformed input is
// refused without a database lookup.
func WellFormed(s string) bool {
	if !strings.HasPrefix(s, LivePrefix) || len(s) != len(LivePrefix)+keyBodyLen {
		return false
	}
	for _, c := range s[len(LivePrefix):] {
		if !strings.ContainsRune(base62, c) {
			return false
		}
	}
	return true
}
