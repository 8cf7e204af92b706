package webhook

import (
	"net/netip"
	"strconv"
	"strings"
)

// The functions in this file follow the IPv4 parser of the WHATWG URL standard,
// which browsers use and which accepts the same spellings as inet_aton (and so as
// getaddrinfo): one to four parts, each decimal, octal (leading 0) or hex (0x),
// the last part filling the remaining bytes, and one trailing dot. 2130706433,
// 0177.1, 0x7f.0.0.1 and 127.1. all mean 127.0.0.1.

// endsInNumber reports whether the last label of host is a number; such a host
// is an IPv4 address or invalid, never a name to resolve.
func endsInNumber(host string) bool {
	labels := ipv4Labels(host)
	last := labels[len(labels)-1]
	if last != "" && strings.Trim(last, "0123456789") == "" {
		return true
	}
	_, ok := parseIPv4Number(last)
	return ok
}

// parseIPv4 parses host as an IPv4 address in any of the spellings above.
func parseIPv4(host string) (netip.Addr, bool) {
	labels := ipv4Labels(host)
	if len(labels) > 4 {
		return netip.Addr{}, false
	}
	var addr uint64
	for _, label := range labels[:len(labels)-1] {
		n, ok := parseIPv4Number(label)
		if !ok || n > 255 {
			return netip.Addr{}, false
		}
		addr = addr<<8 | n
	}
	lastBits := 8 * (5 - len(labels))
	n, ok := parseIPv4Number(labels[len(labels)-1])
	if !ok || n >= 1<<lastBits {
		return netip.Addr{}, false
	}
	addr = addr<<lastBits | n
	return netip.AddrFrom4([4]byte{byte(addr >> 24), byte(addr >> 16), byte(addr >> 8), byte(addr)}), true
}

// ipv4Labels splits host on dots, dropping one empty last label (a trailing dot).
func ipv4Labels(host string) []string {
	labels := strings.Split(host, ".")
	if len(labels) > 1 && labels[len(labels)-1] == "" {
		labels = labels[:len(labels)-1]
	}
	return labels
}

// parseIPv4Number parses one part: 0x… is hex (0x alone is 0), 0… is octal,
// anything else decimal.
func parseIPv4Number(s string) (uint64, bool) {
	if s == "" {
		return 0, false
	}
	base := 10
	switch {
	case len(s) >= 2 && (s[:2] == "0x" || s[:2] == "0X"):
		base, s = 16, s[2:]
		if s == "" {
			return 0, true
		}
	case len(s) >= 2 && s[0] == '0':
		base, s = 8, s[1:]
	}
	n, err := strconv.ParseUint(s, base, 64)
	return n, err == nil
}
