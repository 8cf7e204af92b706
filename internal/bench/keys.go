package bench

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"forma/internal/auth"
	"forma/internal/quota"
	"forma/internal/store"
)

// keyring hands out the API keys of the bench account so that no request goes
// past a key's daily limit: every request is counted, exactly as any client's,
// and key i serves requests i·perKey to (i+1)·perKey−1 of the run.
type keyring struct {
	keys   []string
	perKey int64
	next   atomic.Int64
}

// apiCeiling is the request rate (per second) the key budget assumes for a
// loaded API row: above what net/http serves on a small machine, so that the
// keys do not run out.
const apiCeiling = 100_000

// benchPlan is the plan with the highest daily request limit (its key limit is
// the highest a key may have): the bench account's plan. Its AI credits carry
// over into overage, so the analytics and chat rows are never refused.
func benchPlan() (quota.Plan, int) {
	var best quota.Plan
	for _, p := range quota.DefaultPlans() {
		if p.DailyLimit > best.DailyLimit {
			best = p
		}
	}
	limits := quota.KeyLimits()
	return best, limits[len(limits)-1]
}

// newAccount creates the bench account on benchPlan with enough keys for
// requests API requests.
func newAccount(ctx context.Context, st *store.Store, requests int64) (*store.Account, *keyring, error) {
	plan, keyLimit := benchPlan()
	email := fmt.Sprintf("bench-%d@bench.invalid", time.Now().UnixNano())
	acct, err := st.CreateAccount(ctx, email, plan.Tier)
	if err != nil {
		return nil, nil, fmt.Errorf("create the bench account: %w", err)
	}
	ring := &keyring{perKey: int64(quota.EffectiveLimit(plan, &keyLimit))}
	for n := (requests + ring.perKey - 1) / ring.perKey; n > 0; n-- {
		key, err := st.IssueKey(ctx, acct.ID, auth.KeySettings{Name: "bench", DailyLimit: &keyLimit})
		if err != nil {
			return nil, nil, fmt.Errorf("issue a bench key: %w", err)
		}
		ring.keys = append(ring.keys, key)
	}
	return acct, ring, nil
}

// key returns the key for the next request; "" once the budget is spent (the
// request is then refused, and counted as an error).
func (k *keyring) key() string {
	i := (k.next.Add(1) - 1) / k.perKey
	if i >= int64(len(k.keys)) {
		return ""
	}
	return k.keys[i]
}
