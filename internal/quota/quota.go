// Package quota holds the plans, the daily request limits of API keys, the billing
// cycle and the credit costs of AI operations.
package quota

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"forma/internal/form"
)

// Plan is a tier with its daily request limit and monthly credit allowance.
type Plan struct {
	Tier             string
	DailyLimit       int
	MonthlyAllowance int
	// Overage: whether the plan may spend past its allowance (paid plans).
	Overage bool
}

// Plans are the plans by tier.
type Plans map[string]Plan

// DefaultPlans are the plans of the README's "Plans and limits" table.
func DefaultPlans() Plans {
	return Plans{
		"free":    {Tier: "free", DailyLimit: 1000, MonthlyAllowance: 100},
		"builder": {Tier: "builder", DailyLimit: 5000, MonthlyAllowance: 1000, Overage: true},
		"scale":   {Tier: "scale", DailyLimit: 10000, MonthlyAllowance: 5000, Overage: true},
	}
}

// For returns the plan of a tier; an error names the valid tiers.
func (ps Plans) For(tier string) (Plan, error) {
	p, ok := ps[tier]
	if !ok {
		return Plan{}, fmt.Errorf("tier must be free, builder or scale (got %q)", tier)
	}
	return p, nil
}

// WithAllowances returns a copy of ps with the monthly allowances of the tiers in
// spec ("free=100,builder=1000,scale=5000"; tiers not named keep theirs).
func (ps Plans) WithAllowances(spec string) (Plans, error) {
	out := Plans{}
	for k, v := range ps {
		out[k] = v
	}
	values, err := parseAssignments(spec)
	if err != nil {
		return nil, err
	}
	for tier, n := range values {
		p, err := out.For(tier)
		if err != nil {
			return nil, err
		}
		p.MonthlyAllowance = n
		out[tier] = p
	}
	return out, nil
}

// Afford is the one credit check of Forma: an operation costing cost may run on
// plan p after used credits of the current cycle unless the plan cannot go past
// its allowance (no overage) and the operation would. A free operation always
// may. The error is InsufficientCredits.
func (p Plan) Afford(used, cost int) error {
	if cost > 0 && !p.Overage && used+cost > p.MonthlyAllowance {
		return InsufficientCredits(cost, p.MonthlyAllowance-used)
	}
	return nil
}

// InsufficientCredits is the error of an operation that costs more than remains
// of the billing cycle's allowance.
func InsufficientCredits(cost, remaining int) error {
	return form.Errorf(form.InsufficientCredits,
		"This operation costs %d credits and %d remain in this billing cycle; upgrade your plan at /settings/billing", cost, max(remaining, 0))
}

// keyLimits are the daily limits a key may be given at creation.
var keyLimits = []int{100, 500, 1000, 5000, 10000}

// PlanFor returns the default plan of a tier; an error names the valid tiers.
func PlanFor(tier string) (Plan, error) { return DefaultPlans().For(tier) }

// ValidKeyLimit reports whether n is one of the selectable key limits.
func ValidKeyLimit(n int) bool {
	for _, l := range keyLimits {
		if l == n {
			return true
		}
	}
	return false
}

// KeyLimits are the daily limits a key may be given, smallest first.
func KeyLimits() []int { return slices.Clone(keyLimits) }

// KeyLimitsText lists the daily limits a key may be given, for messages.
func KeyLimitsText() string {
	parts := make([]string, len(keyLimits))
	for i, l := range keyLimits {
		parts[i] = strconv.Itoa(l)
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " or " + parts[len(parts)-1]
}

// EffectiveLimit is the smaller of the key's own limit (when it has one) and the plan's.
func EffectiveLimit(plan Plan, keyLimit *int) int {
	if keyLimit != nil && *keyLimit < plan.DailyLimit {
		return *keyLimit
	}
	return plan.DailyLimit
}

// Day is the UTC day number of t (days since the Unix epoch): the key of the daily
// request counter.
func Day(t time.Time) int64 {
	return t.UTC().Unix() / 86400
}

// NextMidnight is the next midnight UTC after t, when daily counters reset.
func NextMidnight(t time.Time) time.Time {
	return time.Unix((Day(t)+1)*86400, 0).UTC()
}

// Cycle returns the billing cycle containing now for an account created at
// created: monthly from the creation day (clamped to the month's last day).
func Cycle(created, now time.Time) (start, end time.Time) {
	created, now = created.UTC(), now.UTC()
	start = cycleStart(created, now.Year(), now.Month())
	if start.After(now) {
		start = cycleStart(created, now.Year(), now.Month()-1)
	}
	end = cycleStart(created, start.Year(), start.Month()+1)
	return start, end
}

// cycleStart is the cycle boundary in month m of year y: the creation day at
// midnight UTC, or the month's last day when the month is shorter.
func cycleStart(created time.Time, y int, m time.Month) time.Time {
	first := time.Date(y, m, 1, 0, 0, 0, 0, time.UTC)
	last := first.AddDate(0, 1, -1).Day()
	day := created.Day()
	if day > last {
		day = last
	}
	return time.Date(first.Year(), first.Month(), day, 0, 0, 0, 0, time.UTC)
}

// Costs are the credit prices of the AI operations, by usage-history endpoint name.
type Costs map[string]int

// DefaultCosts are the default prices (README, "AI: generation, analytics, chat").
func DefaultCosts() Costs {
	return Costs{"forms.generate": 5, "analytics.generate": 10, "chat.message": 2}
}

// WithCosts returns a copy of c with the prices in spec
// ("forms.generate=5,analytics.generate=10,chat.message=2"); only known operations.
func (c Costs) WithCosts(spec string) (Costs, error) {
	out := Costs{}
	for k, v := range c {
		out[k] = v
	}
	values, err := parseAssignments(spec)
	if err != nil {
		return nil, err
	}
	for op, n := range values {
		if _, ok := out[op]; !ok {
			return nil, fmt.Errorf("unknown operation %q (known: forms.generate, analytics.generate, chat.message)", op)
		}
		out[op] = n
	}
	return out, nil
}

// parseAssignments reads "a=1,b=2" into a map of non-negative integers.
func parseAssignments(spec string) (map[string]int, error) {
	out := map[string]int{}
	for _, part := range strings.Split(spec, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		name, value, ok := strings.Cut(part, "=")
		n, err := strconv.Atoi(strings.TrimSpace(value))
		if !ok || err != nil || n < 0 {
			return nil, fmt.Errorf("%q must look like name=number", part)
		}
		out[strings.TrimSpace(name)] = n
	}
	return out, nil
}

// Balance is an account's credit position in its current cycle.
type Balance struct {
	Allowance int
	Used      int
	// CycleStart and CycleEnd bound the billing cycle the balance is of (Cycle).
	CycleStart, CycleEnd time.Time
}

// DaysRemaining is how many days, a started day counting as one, are left of the
// cycle at now.
func (b Balance) DaysRemaining(now time.Time) int {
	return int(math.Ceil(b.CycleEnd.Sub(now).Hours() / 24))
}

// Remaining is what is left of the allowance (never negative).
func (b Balance) Remaining() int { return max(b.Allowance-b.Used, 0) }

// Overage is what was used past the allowance.
func (b Balance) Overage() int { return max(b.Used-b.Allowance, 0) }
