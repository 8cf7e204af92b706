package webhook

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"strconv"
	"strings"
	"time"
)

// secretPrefix starts every signing secret, as in the Standard Webhooks scheme.
const secretPrefix = "whsec_"

// NewSecret returns a new signing secret: "whsec_" and the standard base64 of 32
// random bytes. It fails only if the system's random source does.
func NewSecret() (string, error) {
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		return "", err
	}
	return secretPrefix + base64.StdEncoding.EncodeToString(key), nil
}

// Sign returns the Standard Webhooks signature "v1,<base64 HMAC-SHA256>" of
// "msgID.unixSeconds.body", keyed with the decoded secret; msgID and ts are the
// values sent as webhook-id and webhook-timestamp. It returns an error when the
// secret is not "whsec_" followed by non-empty base64.
func Sign(secret, msgID string, ts time.Time, body []byte) (string, error) {
	encoded, ok := strings.CutPrefix(secret, secretPrefix)
	if !ok {
		return "", errors.New("webhook: signing secret does not start with " + secretPrefix)
	}
	key, err := base64.StdEncoding.DecodeString(encoded)
	if err != nil || len(key) == 0 {
		return "", errors.New("webhook: signing secret is not valid base64 after " + secretPrefix)
	}
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(msgID + "." + strconv.FormatInt(ts.Unix(), 10) + "."))
	mac.Write(body)
	return "v1," + base64.StdEncoding.EncodeToString(mac.Sum(nil)), nil
}

// SignatureHeader returns the webhook-signature value: the signatures under each
// secret, separated by spaces, so receivers accept the message during a rotation
// whichever secret they hold. It fails when secrets is empty or one is invalid.
func SignatureHeader(secrets []string, msgID string, ts time.Time, body []byte) (string, error) {
	if len(secrets) == 0 {
		return "", errors.New("webhook: no signing secret")
	}
	sigs := make([]string, len(secrets))
	for i, secret := range secrets {
		sig, err := Sign(secret, msgID, ts, body)
		if err != nil {
			return "", err
		}
		sigs[i] = sig
	}
	return strings.Join(sigs, " "), nil
}
