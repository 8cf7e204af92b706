package webhook_test

import (
	"encoding/base64"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"forma/internal/webhook"
)

func TestNewSecret(t *testing.T) {
	a, err := webhook.NewSecret()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := webhook.NewSecret()
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(a, "whsec_"))
	if !strings.HasPrefix(a, "whsec_") || err != nil || len(key) != 32 {
		t.Errorf("secret %q: want whsec_ and the base64 of 32 bytes", a)
	}
	if a == b {
		t.Error("two secrets are equal")
	}
}

// The vector of the Standard Webhooks reference tests.
func TestSignKnownVector(t *testing.T) {
	got, err := webhook.Sign("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "msg_p5jXN8AQM9LWM0D4loKWxJek",
		time.Unix(1614265330, 0), []byte(`{"test": 2432232314}`))
	if want := "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="; err != nil || got != want {
		t.Errorf("Sign = %q, %v; want %q", got, err, want)
	}
}

func TestReferenceLibraryVerifiesSignature(t *testing.T) {
	secret := newSecret(t)
	body := []byte(`{"form_id":7,"form_name":"Survey","submission_id":"s_1","data":{"Name":"Ada"}}`)
	now := time.Now()
	sig, err := webhook.Sign(secret, "msg_1", now, body)
	if err != nil {
		t.Fatal(err)
	}
	wh := referenceVerifier(t, secret)
	if err := wh.Verify(body, headers("msg_1", now, sig)); err != nil {
		t.Errorf("reference verification failed: %v", err)
	}
	tampered := append([]byte{}, body...)
	tampered[len(tampered)-3] = 'X'
	for name, err := range map[string]error{
		"tampered body": wh.Verify(tampered, headers("msg_1", now, sig)),
		"other id":      wh.Verify(body, headers("msg_2", now, sig)),
		"other time":    wh.VerifyIgnoringTimestamp(body, headers("msg_1", now.Add(time.Second), sig)),
		"other secret":  referenceVerifier(t, newSecret(t)).Verify(body, headers("msg_1", now, sig)),
	} {
		if !errors.Is(err, standardwebhooks.ErrNoMatchingSignature) {
			t.Errorf("%s: error = %v, want no matching signature", name, err)
		}
	}
}

func TestSignatureHeaderDuringRotation(t *testing.T) {
	oldSecret, newSecret := newSecret(t), newSecret(t)
	body, now := []byte(`{"a":1}`), time.Now()
	header, err := webhook.SignatureHeader([]string{newSecret, oldSecret}, "msg_r", now, body)
	if err != nil {
		t.Fatal(err)
	}
	parts := strings.Split(header, " ")
	if len(parts) != 2 || !strings.HasPrefix(parts[0], "v1,") || !strings.HasPrefix(parts[1], "v1,") || parts[0] == parts[1] {
		t.Fatalf("header = %q, want two different v1 signatures", header)
	}
	for _, secret := range []string{oldSecret, newSecret} {
		if err := referenceVerifier(t, secret).Verify(body, headers("msg_r", now, header)); err != nil {
			t.Errorf("a receiver holding one of the secrets rejects the header: %v", err)
		}
	}
	single, _ := webhook.SignatureHeader([]string{oldSecret}, "msg_r", now, body)
	if single != parts[1] {
		t.Errorf("one-secret header %q, want %q", single, parts[1])
	}
}

func TestSignRejectsBadSecrets(t *testing.T) {
	for _, secret := range []string{"", "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "whsec_", "whsec_not base64!", "WHSEC_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"} {
		if sig, err := webhook.Sign(secret, "m", time.Now(), nil); err == nil {
			t.Errorf("Sign with secret %q = %q, want an error", secret, sig)
		}
	}
	if _, err := webhook.SignatureHeader(nil, "m", time.Now(), nil); err == nil {
		t.Error("SignatureHeader without secrets succeeded")
	}
	if _, err := webhook.SignatureHeader([]string{newSecret(t), "bad"}, "m", time.Now(), nil); err == nil {
		t.Error("SignatureHeader with a bad secret succeeded")
	}
}

func newSecret(t *testing.T) string {
	t.Helper()
	s, err := webhook.NewSecret()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func referenceVerifier(t *testing.T, secret string) *standardwebhooks.Webhook {
	t.Helper()
	wh, err := standardwebhooks.NewWebhook(secret)
	if err != nil {
		t.Fatal(err)
	}
	return wh
}

func headers(msgID string, ts time.Time, signature string) http.Header {
	h := http.Header{}
	h.Set(standardwebhooks.HeaderWebhookID, msgID)
	h.Set(standardwebhooks.HeaderWebhookTimestamp, strconv.FormatInt(ts.Unix(), 10))
	h.Set(standardwebhooks.HeaderWebhookSignature, signature)
	return h
}
