package webhook_test

import (
	"net/netip"
	"testing"

	"forma/internal/webhook"
)

func TestIsBlockedIP(t *testing.T) {
	for _, tc := range []struct {
		addr    string
		blocked bool
	}{
		{"127.0.0.1", true},
		{"127.255.255.255", true},
		{"0.0.0.0", true},
		{"0.255.255.255", true},
		{"10.0.0.0", true},
		{"10.255.255.255", true},
		{"172.16.0.0", true},
		{"172.31.255.255", true},
		{"192.168.0.1", true},
		{"169.254.169.254", true},
		{"100.64.0.0", true},
		{"100.127.255.255", true},
		{"224.0.0.1", true},
		{"239.255.255.255", true},
		{"240.0.0.1", true},
		{"255.255.255.255", true},
		{"::1", true},
		{"::", true},
		{"fe80::1", true},
		{"fe80::1%eth0", true},
		{"febf::1", true},
		{"fc00::1", true},
		{"fdff::1", true},
		{"ff02::1", true},
		{"ff0e::1", true},
		{"::ffff:127.0.0.1", true},
		{"::ffff:169.254.169.254", true},
		{"::127.0.0.1", true},
		{"::10.0.0.1", true},
		{"64:ff9b::127.0.0.1", true},
		{"64:ff9b::10.1.2.3", true},
		{"64:ff9b:1::8.8.8.8", true}, // local-use NAT64 prefix, outside 2000::/3
		{"2002:7f00:1::", true},
		{"2002:a00:1:ffff::1", true},
		{"2001::1", true}, // Teredo
		{"2001:db8::1", true},
		{"8.8.8.8", false},
		{"1.1.1.1", false},
		{"9.255.255.255", false},
		{"11.0.0.0", false},
		{"100.63.255.255", false},
		{"100.128.0.0", false},
		{"172.15.255.255", false},
		{"172.32.0.0", false},
		{"169.253.255.255", false},
		{"223.255.255.255", false},
		{"2606:4700:4700::1111", false},
		{"2a00:1450:4001::200e", false},
		{"::ffff:8.8.8.8", false},
		{"64:ff9b::8.8.8.8", false},
		{"2002:808:808::1", false},
	} {
		if got := webhook.IsBlockedIP(netip.MustParseAddr(tc.addr)); got != tc.blocked {
			t.Errorf("IsBlockedIP(%s) = %v, want %v", tc.addr, got, tc.blocked)
		}
	}
	if !webhook.IsBlockedIP(netip.Addr{}) {
		t.Error("the zero Addr is not blocked")
	}
}
