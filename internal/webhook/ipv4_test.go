package webhook

import "testing"

func TestParseIPv4(t *testing.T) {
	for _, tc := range []struct{ host, want string }{
		{"127.0.0.1", "127.0.0.1"},
		{"127.0.0.1.", "127.0.0.1"},
		{"2130706433", "127.0.0.1"},
		{"0177.0.0.1", "127.0.0.1"},
		{"0x7f.0.0.1", "127.0.0.1"},
		{"0x7F000001", "127.0.0.1"},
		{"127.1", "127.0.0.1"},
		{"1.2.3", "1.2.0.3"},
		{"1.0x10203", "1.1.2.3"},
		{"0x", "0.0.0.0"},
		{"00", "0.0.0.0"},
		{"4294967295", "255.255.255.255"},
		{"037777777777", "255.255.255.255"},
		{"0300.0250.1.1", "192.168.1.1"},
		{"0xc0.0xa8.0x101", "192.168.1.1"},
	} {
		got, ok := parseIPv4(tc.host)
		if !ok || got.String() != tc.want {
			t.Errorf("parseIPv4(%q) = %v, %v; want %s", tc.host, got, ok, tc.want)
		}
	}
	for _, host := range []string{
		"4294967296", "256.0.0.1", "1.2.3.256", "1.2.65536", "1.2.3.4.5", "08", "0x1g", "1..2", "", ".", "1.2.3.4..",
	} {
		if got, ok := parseIPv4(host); ok {
			t.Errorf("parseIPv4(%q) = %v, want failure", host, got)
		}
	}
}

func TestEndsInNumber(t *testing.T) {
	for host, want := range map[string]bool{
		"127.0.0.1": true, "example.123": true, "a.0x1f": true, "a.0x": true, "1.": true,
		"example.com": false, "a.0x1g": false, "1a": false, "com.": false, "": false,
	} {
		if got := endsInNumber(host); got != want {
			t.Errorf("endsInNumber(%q) = %v, want %v", host, got, want)
		}
	}
}
