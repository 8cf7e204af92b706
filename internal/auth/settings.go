package auth

import (
	"unicode/utf8"

	"forma/internal/form"
	"forma/internal/quota"
)

// MaxKeyNameLen bounds a key's name (in characters).
const MaxKeyNameLen = 100

// KeySettings is what an owner chooses when creating a key, wherever they do it
// (the dashboard, the CLI): its name, its own daily limit (nil: the plan's) and the
// one form it is limited to (nil: every form of the account).
type KeySettings struct {
	Name       string
	DailyLimit *int
	FormID     *int64
}

// Check validates the settings; an error names the field (name, dailyLimit). That
// the form belongs to the account is the store's to check (store.CreateKey).
func (k KeySettings) Check() error {
	if err := form.CheckField("name", k.Name, form.SingleLine); err != nil {
		return err
	}
	if utf8.RuneCountInString(k.Name) > MaxKeyNameLen {
		return form.FieldInvalid("name", "must be at most %d characters", MaxKeyNameLen)
	}
	if k.DailyLimit != nil && !quota.ValidKeyLimit(*k.DailyLimit) {
		return form.FieldInvalid("dailyLimit", "must be one of %s (got %d)", quota.KeyLimitsText(), *k.DailyLimit)
	}
	return nil
}
