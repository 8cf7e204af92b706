package form

import "strconv"

// ParseID parses an id written canonically: a positive decimal integer with no sign,
// no leading zero and no spaces, that fits in 63 bits. "+1", "01" and " 1" are not
// ids, so that one id has one spelling.
func ParseID(s string) (int64, bool) {
	n, ok := ParseCount(s)
	return n, ok && n > 0
}

// ParseCount parses a canonical non-negative decimal integer ("0", "17"; not "+1",
// "007" or "1e3") that fits in 63 bits.
func ParseCount(s string) (int64, bool) {
	if s == "" || (s[0] == '0' && len(s) > 1) {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil
}
