package builtin

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

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
	{"MXN", `mexican pesos?|mxn`},
	{"ZAR", `south african rand|zar`},
	{"KRW", `korean won|krw|₩`},
	{"PLN", `polish zloty|zlotys?|złoty|pln|zł`},
	{"AED", `dirhams?|aed`},
	{"ILS", `shekels?|ils|₪`},
	{"THB", `baht|thb|฿`},
	{"TRY", `turkish lira|₺`},
	{"NGN", `naira|ngn|₦`},
}

// currencyRes holds one pattern per entry of currencyNames, in the same order. A
// pattern also takes the "in" before the name and parentheses around it, so that the
// name can be cut out of a question ("budget in euros", "price ($)").
var currencyRes = func() []*regexp.Regexp {
	res := make([]*regexp.Regexp, len(currencyNames))
	for i, c := range currencyNames {
		var alts []string
		for _, n := range strings.Split(c.names, "|") {
			alts = append(alts, boundWord(n))
		}
		res[i] = regexp.MustCompile(`(?i)(\bin\s+)?\(?\s*(` + strings.Join(alts, "|") + `)\s*\)?`)
	}
	return res
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
	isoWords = set("ALL BAM BOB CUP GEL MAD MOP PEN SOS TOP TRY")
)

// findCurrency returns the ISO 4217 code of the first currency that s names, and
// where the name is; ok is false when s names none. "Pounds" next to a weight is a
// weight.
func findCurrency(s string) (code string, loc []int, ok bool) {
	for i, re := range currencyRes {
		m := re.FindStringIndex(s)
		if m == nil || (currencyNames[i].code == "GBP" && weightRe.MatchString(s) && !strings.Contains(s[m[0]:m[1]], "£")) {
			continue
		}
		if !ok || m[0] < loc[0] {
			code, loc, ok = currencyNames[i].code, m, true
		}
	}
	for _, m := range isoCodeRe.FindAllStringIndex(s, -1) {
		c := s[m[0]:m[1]]
		if form.IsCurrencyCode(c) && !isoWords[c] && (!ok || m[0] < loc[0]) {
			code, loc, ok = c, m, true
		}
	}
	return code, loc, ok
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
