package sentiment

import (
	"bufio"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestGovaderCompound checks Compound against the scores govader gave the texts of
// testdata/govader_compound.txt (recorded before govader was replaced): the
// examples of vaderSentiment and govader, the comments, questions and prompts of
// the AI test suites, edge cases (empty, emoji, other scripts, invalid UTF-8) and
// random combinations of every rule.
func TestGovaderCompound(t *testing.T) {
	f, err := os.Open("testdata/govader_compound.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n, exact := 0, 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") {
			continue
		}
		quoted, score, ok := strings.Cut(line, "\t")
		text, err := strconv.Unquote(quoted)
		want, err2 := strconv.ParseFloat(score, 64)
		if !ok || err != nil || err2 != nil {
			t.Fatalf("bad line %q", line)
		}
		n++
		got := Compound(text)
		if got == want {
			exact++
		}
		if math.Abs(got-want) > 1e-9 {
			t.Errorf("Compound(%q) = %v, govader gave %v", text, got, want)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if n < 300 {
		t.Fatalf("only %d texts", n)
	}
	t.Logf("%d texts, %d identical to the bit", n, exact)
}
