package quota

import (
	"testing"
	"time"
)

func date(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t
}

func TestCycleFollowsCreationDay(t *testing.T) {
	cases := []struct{ created, now, start, end string }{
		{"2026-01-15T10:00:00Z", "2026-03-20T00:00:00Z", "2026-03-15T00:00:00Z", "2026-04-15T00:00:00Z"},
		{"2026-01-15T10:00:00Z", "2026-03-14T23:59:59Z", "2026-02-15T00:00:00Z", "2026-03-15T00:00:00Z"},
		{"2026-01-31T10:00:00Z", "2026-02-28T12:00:00Z", "2026-02-28T00:00:00Z", "2026-03-31T00:00:00Z"},
		{"2026-01-31T10:00:00Z", "2026-02-27T12:00:00Z", "2026-01-31T00:00:00Z", "2026-02-28T00:00:00Z"},
		{"2025-12-20T10:00:00Z", "2026-01-05T00:00:00Z", "2025-12-20T00:00:00Z", "2026-01-20T00:00:00Z"},
	}
	for _, c := range cases {
		start, end := Cycle(date(c.created), date(c.now))
		if !start.Equal(date(c.start)) || !end.Equal(date(c.end)) {
			t.Errorf("created %s now %s: got %s..%s, want %s..%s", c.created, c.now, start, end, c.start, c.end)
		}
	}
}

func TestEffectiveLimitIsTheSmaller(t *testing.T) {
	free, _ := PlanFor("free")
	small, big := 100, 10000
	if got := EffectiveLimit(free, &small); got != 100 {
		t.Errorf("key 100 on free: %d", got)
	}
	if got := EffectiveLimit(free, &big); got != 1000 {
		t.Errorf("key 10000 on free: %d", got)
	}
	if got := EffectiveLimit(free, nil); got != 1000 {
		t.Errorf("no key limit on free: %d", got)
	}
	if _, err := PlanFor("gold"); err == nil {
		t.Error("unknown tier accepted")
	}
}

func TestNextMidnight(t *testing.T) {
	got := NextMidnight(date("2026-11-22T23:59:59Z"))
	if !got.Equal(date("2026-11-23T00:00:00Z")) {
		t.Errorf("got %s", got)
	}
}

func TestConfigurablePricesAndAllowances(t *testing.T) {
	costs, err := DefaultCosts().WithCosts("chat.message=3, forms.generate=0")
	if err != nil || costs["chat.message"] != 3 || costs["forms.generate"] != 0 || costs["analytics.generate"] != 10 {
		t.Fatalf("costs %v %v", costs, err)
	}
	if _, err := DefaultCosts().WithCosts("chat=1"); err == nil {
		t.Error("unknown operation accepted")
	}
	plans, err := DefaultPlans().WithAllowances("free=50")
	if err != nil || plans["free"].MonthlyAllowance != 50 || plans["scale"].MonthlyAllowance != 5000 || DefaultPlans()["free"].MonthlyAllowance != 100 {
		t.Fatalf("plans %v %v", plans, err)
	}
	for _, bad := range []string{"gold=1", "free=-1", "free", "free=x"} {
		if _, err := DefaultPlans().WithAllowances(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
