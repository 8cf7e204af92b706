package auth

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/crypto/argon2"
)

// Passwords are hashed with argon2id at OWASP's recommended minimum (19 MiB,
// two passes, one lane) and encoded in the PHC string format with their
// parameters and salt, so that stronger parameters can be chosen later without
// invalidating stored hashes.
const (
	argonMemoryKiB = 19 * 1024
	argonTime      = 2
	argonThreads   = 1
	argonKeyLen    = 32
	saltLen        = 16
	// MinPasswordLen and MaxPasswordLen bound a new password, in bytes; the upper
	// bound keeps hashing cheap to refuse.
	MinPasswordLen = 10
	MaxPasswordLen = 256
)

// hashing bounds the hashes computed at once: each takes 19 MiB and a core for
// tens of milliseconds, and a burst of sign-ins must not exhaust the server.
var hashing = make(chan struct{}, 4)

// PasswordProblem returns what makes password unfit to be set, as a sentence
// that says what to do, or "" when it is fit. The dashboard and the CLI share it.
func PasswordProblem(password string) string {
	switch {
	case utf8.RuneCountInString(password) < MinPasswordLen:
		return "Choose a password of at least " + strconv.Itoa(MinPasswordLen) + " characters."
	case len(password) > MaxPasswordLen:
		return "Choose a password of at most " + strconv.Itoa(MaxPasswordLen) + " bytes."
	}
	return ""
}

// HashPassword returns the encoded argon2id hash of password with a fresh salt.
func HashPassword(password string) (string, error) {
	salt := make([]byte, saltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", err
	}
	sum := argonKey(password, salt, argonTime, argonMemoryKiB, argonThreads, argonKeyLen)
	b64 := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, argonMemoryKiB, argonTime, argonThreads,
		b64.EncodeToString(salt), b64.EncodeToString(sum)), nil
}

// CheckPassword reports whether password matches the encoded hash (comparing in
// constant time). A malformed or empty encoded hash matches nothing, but costs
// the same time as a real check, so that an unknown account is not told apart
// from a wrong password by the answer's delay.
func CheckPassword(encoded, password string) bool {
	p, ok := parseHash(encoded)
	if !ok {
		argonKey(password, make([]byte, saltLen), argonTime, argonMemoryKiB, argonThreads, argonKeyLen)
		return false
	}
	sum := argonKey(password, p.salt, p.time, p.memory, p.threads, uint32(len(p.sum)))
	return subtle.ConstantTimeCompare(sum, p.sum) == 1
}

func argonKey(password string, salt []byte, time, memory uint32, threads uint8, keyLen uint32) []byte {
	hashing <- struct{}{}
	defer func() { <-hashing }()
	return argon2.IDKey([]byte(password), salt, time, memory, threads, keyLen)
}

// argonParams are the parts of an encoded hash.
type argonParams struct {
	memory, time uint32
	threads      uint8
	salt, sum    []byte
}

// parseHash reads "$argon2id$v=19$m=…,t=…,p=…$salt$sum", refusing parameters
// beyond sane bounds (a stored hash must not make a check take minutes).
func parseHash(encoded string) (argonParams, bool) {
	var p argonParams
	parts := strings.Split(encoded, "$")
	if len(parts) != 6 || parts[1] != "argon2id" || parts[2] != fmt.Sprintf("v=%d", argon2.Version) {
		return p, false
	}
	var threads uint32
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &p.memory, &p.time, &threads); err != nil {
		return p, false
	}
	if p.memory < 8 || p.memory > 256*1024 || p.time < 1 || p.time > 10 || threads < 1 || threads > 16 {
		return p, false
	}
	p.threads = uint8(threads)
	var err1, err2 error
	p.salt, err1 = base64.RawStdEncoding.DecodeString(parts[4])
	p.sum, err2 = base64.RawStdEncoding.DecodeString(parts[5])
	return p, err1 == nil && err2 == nil && len(p.salt) >= 8 && len(p.sum) >= 16 && len(p.sum) <= 64
}
