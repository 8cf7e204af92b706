package generate

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"forma/internal/ai/text"
	"forma/internal/form"
)

// defaultCurrency is used when a prompt asks for an amount without naming a currency.
const defaultCurrency = "USD"

// currencyNames are the ways prompts name a currency; the more specific names come
// before the general ones ("canadian dollars" before "dollars").
var currencyNames = []struct {
	code  string
	names string
}{
	{"CAD", `canadian dollars?|c\$|ca\$|cad`},
	{"AUD", `australian dollars?|a\$|au\$|aud`},
	{"NZD", `new zealand dollars?|nz\$|nzd`},
	{"HKD", `hong kong dollars?|hk\$|hkd`},
	{"SGD", `singapore dollars?|s\$|sgd`},
	{"BRL", `brazilian reais|brazilian real|reais|r\$|brl`},
	{"USD", `us dollars?|american dollars?|dollars?|us\$|usd|\$`},
	{"EUR", `euros?|eur|€`},
	{"GBP", `british pounds?|pounds? sterling|pounds?|sterling|gbp|£`},
	{"JPY", `japanese yen|yen|jpy|¥`},
	{"CNY", `chinese yuan|yuan|renminbi|rmb|cny`},
	{"INR", `indian rupees?|rupees?|inr|₹`},
	{"CHF", `swiss francs?|chf`},
	{"SEK", `swedish kronor|swedish krona|sek`},
	{"NOK", `norwegian kroner|norwegian krone|nok`},
	{"DKK", `danish kroner|danish krone|dkk`},
	{"MXN", `mexican pesos?|pesos|mxn`},
	{"ZAR", `south african rand|zar`},
	{"KRW", `korean won|krw|₩`},
	{"PLN", `polish zloty|zlotys?|złoty|pln|zł`},
	{"AED", `dirhams?|aed`},
	{"ILS", `shekels?|ils|₪`},
	{"THB", `baht|thb|฿`},
	{"TRY", `turkish lira|₺`},
	{"NGN", `naira|ngn|₦`},
}

// currencyRe finds any of currencyNames; the n-th entry is capture group n+1.
var currencyRe = func() *regexp.Regexp {
	groups := make([]string, len(currencyNames))
	for i, c := range currencyNames {
		var alts []string
		for _, n := range strings.Split(c.names, "|") {
			alts = append(alts, boundWord(n))
		}
		groups[i] = "(" + strings.Join(alts, "|") + ")"
	}
	return regexp.MustCompile(`(?i)` + strings.Join(groups, "|"))
}()

// boundWord puts word boundaries on the sides of a name that are letters.
func boundWord(n string) string {
	first, _ := utf8.DecodeRuneInString(n)
	last, _ := utf8.DecodeLastRuneInString(n)
	if unicode.IsLetter(first) {
		n = `\b` + n
	}
	if unicode.IsLetter(last) || last == '?' {
		n += `\b`
	}
	return n
}

var (
	weightRe  = regexp.MustCompile(`(?i)\b(weigh\w*|lbs?|kg|kilos?)\b`)
	isoCodeRe = regexp.MustCompile(`\b[A-Z]{3}\b`)
	// isoWords are currency codes that are also English words in capitals.
	isoWords = text.Set("ALL BAM BOB CUP GEL MAD MOP PEN SOS TOP TRY")
)

// currencyKeys are literal beginnings of the currency names, lower case: a text that
// contains none of them names no currency, and the regular expression is skipped.
var currencyKeys = func() []string {
	var keys []string
	for _, c := range currencyNames {
		for _, n := range strings.Split(c.names, "|") {
			keys = append(keys, literalPrefix(n))
		}
	}
	return keys
}()

// literalPrefix returns the text a pattern of currencyNames must begin with.
func literalPrefix(pattern string) string {
	var b strings.Builder
	for i := 0; i < len(pattern); i++ {
		switch ch := pattern[i]; ch {
		case '\\':
			i++
			b.WriteByte(pattern[i])
		case '?':
			out := b.String()
			return out[:len(out)-1]
		default:
			b.WriteByte(ch)
		}
	}
	return b.String()
}

// mayNameCurrency reports whether s contains the beginning of a currency name.
func mayNameCurrency(s string) bool {
	lower := strings.ToLower(s)
	for _, k := range currencyKeys {
		if strings.Contains(lower, k) {
			return true
		}
	}
	return false
}

// findCurrency returns the ISO 4217 code of the first currency that s names, and
// where the name is, with an "in" before it and parentheses around it, so that it
// can be cut out of a question ("budget in euros", "price ($)"); ok is false when s
// names none. "Pounds" next to a weight is a weight.
func findCurrency(s string) (code string, loc []int, ok bool) {
	var matches [][]int
	if mayNameCurrency(s) {
		matches = currencyRe.FindAllStringSubmatchIndex(s, -1)
	}
	for _, m := range matches {
		i := 1
		for m[2*i] < 0 {
			i++
		}
		c := currencyNames[i-1].code
		if c == "GBP" && weightRe.MatchString(s) && !strings.Contains(s[m[0]:m[1]], "£") {
			continue
		}
		code, loc, ok = c, m[:2], true
		break
	}
	for _, m := range isoCodeRe.FindAllStringIndex(s, -1) {
		c := s[m[0]:m[1]]
		if form.IsCurrencyCode(c) && !isoWords[c] && (!ok || m[0] < loc[0]) {
			code, loc, ok = c, m, true
		}
	}
	if !ok {
		return "", nil, false
	}
	return code, widen(s, loc), true
}

var (
	inBeforeRe     = regexp.MustCompile(`(?i)\b(in|en)\s+$`)
	openBeforeRe   = regexp.MustCompile(`\(\s*$`)
	closeAfterRe   = regexp.MustCompile(`^\s*\)`)
	inParenRelaxRe = regexp.MustCompile(`(?i)\(\s*in\s+$`)
)

// widen extends the location of a currency name over "in " (or the "en " of French
// and Spanish) before it and over parentheses around it.
func widen(s string, loc []int) []int {
	from, to := loc[0], loc[1]
	before := s[:from]
	if m := closeAfterRe.FindStringIndex(s[to:]); m != nil {
		if p := openBeforeRe.FindStringIndex(before); p != nil {
			return []int{p[0], to + m[1]}
		}
		if p := inParenRelaxRe.FindStringIndex(before); p != nil {
			return []int{p[0], to + m[1]}
		}
	}
	if p := inBeforeRe.FindStringIndex(before); p != nil {
		from = p[0]
	}
	return []int{from, to}
}

// takeCurrency returns the currency s names and s without the name.
func takeCurrency(s string) (code, rest string) {
	code, loc, ok := findCurrency(s)
	if !ok {
		return "", s
	}
	return code, s[:loc[0]] + " " + s[loc[1]:]
}

// promptCurrency returns the currency a prompt names anywhere, or the default.
func promptCurrency(prompt string) string {
	if code, _, ok := findCurrency(prompt); ok {
		return code
	}
	return defaultCurrency
}
