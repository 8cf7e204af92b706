package webhook

import "net/netip"

// blockedV4 lists the IPv4 networks a webhook may never reach: the ranges the
// decisions name plus the other IANA special-purpose ranges that are not globally
// reachable (documentation, benchmarking, protocol assignments), since no
// legitimate receiver lives there and some networks use them internally.
var blockedV4 = prefixes(
	"0.0.0.0/8",       // "this network"
	"10.0.0.0/8",      // RFC 1918
	"100.64.0.0/10",   // CGNAT shared address space
	"127.0.0.0/8",     // loopback
	"169.254.0.0/16",  // link-local, including the 169.254.169.254 metadata service
	"172.16.0.0/12",   // RFC 1918
	"192.0.0.0/24",    // IETF protocol assignments
	"192.0.2.0/24",    // documentation
	"192.88.99.0/24",  // deprecated 6to4 relay anycast
	"192.168.0.0/16",  // RFC 1918
	"198.18.0.0/15",   // benchmarking
	"198.51.100.0/24", // documentation
	"203.0.113.0/24",  // documentation
	"224.0.0.0/4",     // multicast
	"240.0.0.0/4",     // reserved, including broadcast 255.255.255.255
)

// globalUnicastV6 is the only IPv6 space a webhook may reach (apart from the
// embedded-IPv4 forms handled by embeddedV4): everything outside it — ::, ::1,
// fe80::/10, fc00::/7, ff00::/8 and the rest — is not a public destination.
var globalUnicastV6 = netip.MustParsePrefix("2000::/3")

// blockedV6 lists the special-purpose networks inside 2000::/3.
var blockedV6 = prefixes(
	"2001::/23",     // IETF protocol assignments, including Teredo 2001::/32
	"2001:db8::/32", // documentation
	"3fff::/20",     // documentation
)

var (
	nat64   = netip.MustParsePrefix("64:ff9b::/96") // RFC 6052: v4 in the last 32 bits
	sixToV4 = netip.MustParsePrefix("2002::/16")    // RFC 3056: v4 in bits 16–47
	compat  = netip.MustParsePrefix("::/96")        // deprecated IPv4-compatible: v4 in the last 32 bits
)

// IsBlockedIP reports whether a webhook must not connect to ip: it is the one
// address policy, used when a URL is saved and again on every connection.
// IPv4-mapped, IPv4-compatible, NAT64 (64:ff9b::/96) and 6to4 (2002::/16)
// addresses are judged by the IPv4 address they carry, zones are ignored, and the
// zero Addr is blocked.
func IsBlockedIP(ip netip.Addr) bool {
	ip = ip.WithZone("")
	if v4, ok := embeddedV4(ip); ok {
		return containsAny(blockedV4, v4)
	}
	if !ip.Is6() {
		return true
	}
	return !globalUnicastV6.Contains(ip) || containsAny(blockedV6, ip)
}

// embeddedV4 returns the IPv4 address that ip is or carries, if any.
func embeddedV4(ip netip.Addr) (netip.Addr, bool) {
	switch {
	case ip.Is4():
		return ip, true
	case ip.Is4In6():
		return ip.Unmap(), true
	case nat64.Contains(ip), compat.Contains(ip):
		b := ip.As16()
		return netip.AddrFrom4([4]byte(b[12:16])), true
	case sixToV4.Contains(ip):
		b := ip.As16()
		return netip.AddrFrom4([4]byte(b[2:6])), true
	}
	return netip.Addr{}, false
}

func containsAny(list []netip.Prefix, ip netip.Addr) bool {
	for _, p := range list {
		if p.Contains(ip) {
			return true
		}
	}
	return false
}

func prefixes(s ...string) []netip.Prefix {
	out := make([]netip.Prefix, len(s))
	for i, p := range s {
		out[i] = netip.MustParsePrefix(p)
	}
	return out
}
