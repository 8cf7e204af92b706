package api

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"forma/internal/auth"
	"forma/internal/form"
	"forma/internal/httpx"
	"forma/internal/quota"
	"forma/internal/store"
)

// principal is the caller of an authenticated request.
type principal struct {
	key     *store.APIKey
	account *store.Account
	plan    quota.Plan
	limit   int
	balance quota.Balance
}

type principalKey struct{}

func caller(r *http.Request) *principal {
	return r.Context().Value(principalKey{}).(*principal)
}

const unauthorizedMessage = "Missing or invalid API key: send a valid key in the X-API-Key header"

// authenticate checks the X-API-Key header, counts the request against the key's
// UTC day and sets the six limit and credit headers. It writes the error response
// itself and returns ok=false when the request must stop here.
func (a *API) authenticate(w http.ResponseWriter, r *http.Request) (*http.Request, bool) {
	ctx := r.Context()
	p, err := a.lookupKey(ctx, r.Header.Get("X-API-Key"))
	if err != nil {
		httpx.WriteError(w, r, err)
		return r, false
	}
	httpx.SetKeyID(ctx, p.key.ID)
	now := a.store.Now()
	count, ok, err := a.store.CountRequest(ctx, p.key.ID, quota.Day(now), p.limit)
	if form.ErrorCode(err) == form.NotFound { // revoked since lookupKey read it
		err = form.Errorf(form.Unauthorized, unauthorizedMessage)
	}
	if err != nil {
		httpx.WriteError(w, r, err)
		return r, false
	}
	if p.balance, err = a.store.Balance(ctx, p.account, p.plan); err != nil {
		httpx.WriteError(w, r, err)
		return r, false
	}
	reset := quota.NextMidnight(now)
	setLimitHeaders(w.Header(), p, p.limit-count, reset)
	if !ok {
		httpx.WriteError(w, r, rateLimited(p, reset))
		return r, false
	}
	return r.WithContext(context.WithValue(ctx, principalKey{}, p)), true
}

// lookupKey finds the live key; missing, malformed, unknown and revoked keys are
// the same 401.
func (a *API) lookupKey(ctx context.Context, key string) (*principal, error) {
	unauthorized := form.Errorf(form.Unauthorized, unauthorizedMessage)
	if !auth.WellFormed(key) {
		return nil, unauthorized
	}
	k, acct, err := a.store.KeyByHash(ctx, auth.Hash(key))
	if form.ErrorCode(err) == form.NotFound {
		return nil, unauthorized
	}
	if err != nil {
		return nil, err
	}
	plan, err := a.cfg.Plans.For(acct.Tier)
	if err != nil {
		return nil, fmt.Errorf("account %d: %w", acct.ID, err)
	}
	return &principal{key: k, account: acct, plan: plan, limit: quota.EffectiveLimit(plan, k.DailyLimit)}, nil
}

func setLimitHeaders(h http.Header, p *principal, remaining int, reset time.Time) {
	// Set directly (not with h.Set) to keep the documented spelling on the wire (README); header
	// names are case-insensitive, but people grep logs and captures.
	h["X-RateLimit-Limit"] = []string{strconv.Itoa(p.limit)}
	h["X-RateLimit-Remaining"] = []string{strconv.Itoa(max(remaining, 0))}
	h["X-RateLimit-Reset"] = []string{strconv.FormatInt(reset.Unix(), 10)}
	setCreditHeaders(h, p.balance, 0)
	h["X-Monthly-Allowance"] = []string{strconv.Itoa(p.balance.Allowance)}
}

// setCreditHeaders reports the balance after a request that spent used credits.
func setCreditHeaders(h http.Header, b quota.Balance, used int) {
	h["X-Credits-Remaining"] = []string{strconv.Itoa(b.Remaining())}
	h["X-Credits-Used"] = []string{strconv.Itoa(used)}
}

func rateLimited(p *principal, reset time.Time) error {
	return &form.Error{
		Code: form.RateLimited,
		Message: fmt.Sprintf("Daily request limit of %d reached for this API key; it resets at midnight UTC (%s).",
			p.limit, form.Timestamp(reset)),
		Extra: map[string]any{
			"resetAt":    form.Timestamp(reset),
			"tier":       p.plan.Tier,
			"upgradeUrl": "/settings/billing",
		},
	}
}

// authorizeForm enforces form scope: a form-scoped key may touch only its form
// (another form of its account: 403; a form that is not its account's: 404).
func (a *API) authorizeForm(r *http.Request, formID int64) error {
	p := caller(r)
	if p.key.FormID == nil || *p.key.FormID == formID {
		return nil
	}
	exists, err := a.store.FormExists(r.Context(), p.account.ID, formID)
	if err != nil {
		return err
	}
	if !exists {
		return form.Errorf(form.NotFound, "Form not found")
	}
	return form.Errorf(form.Forbidden, "This API key is limited to form %d", *p.key.FormID)
}

// requireUnscoped refuses operations that form-scoped keys may not perform.
func requireUnscoped(r *http.Request, what string) error {
	if caller(r).key.FormID != nil {
		return form.Errorf(form.Forbidden, "A form-scoped API key cannot %s", what)
	}
	return nil
}
