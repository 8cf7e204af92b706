package auth

// tokenLen is the length of a session or setup token: 43 base62 characters carry
// about 256 bits of randomness.
const tokenLen = 43

// NewToken returns a fresh random token for a browser session or a one-time link,
// and its SHA-256 (Hash) for storage: the database never holds the token itself.
func NewToken() (token, hash string, err error) {
	token, err = RandomString(tokenLen)
	if err != nil {
		return "", "", err
	}
	return token, Hash(token), nil
}

// shareTokenLen gives share tokens about 95 bits of randomness.
const shareTokenLen = 16

// NewShareToken returns a fresh token for a form's public address (/f/<token>):
// random, URL-safe and unguessable.
func NewShareToken() (string, error) { return RandomString(shareTokenLen) }
