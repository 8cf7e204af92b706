package chat

import (
	"bufio"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"forma/internal/ai"
	"forma/internal/ai/aitest"
)

// The chat evaluation (issue 14): questions typed the way people type them, over the
// three generated surveys of aitest.Surveys, with expected figures computed by
// evalexpect_test.go from the records. testdata/eval_dev.txt is the development half;
// testdata/eval_heldout.txt is the held-out half, frozen before the parser was
// tuned: its failures are never printed, only its three totals.
//
// File format: "@name" switches to a survey; "ask => spec" is a question; a line
// starting with ">" is a follow-up asked after the previous question in the same
// conversation; "#" starts a comment.
//
// Each reply is scored
//   - exact: it contains every expected figure and label and no contradicting
//     percentage or decimal (a figure the question gave is none; for a question
//     that must be refused: it refuses);
//   - refusal: it says it can't answer;
//   - wrong: anything else.

// evalCase is one conversation of the evaluation.
type evalCase struct {
	survey string
	line   int
	turns  []evalTurn
}

// evalTurn is one question of a conversation with its expectation.
type evalTurn struct {
	ask  string
	spec spec
}

// loadEval reads an evaluation file.
func loadEval(t testing.TB, path string) []evalCase {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cases []evalCase
	survey := ""
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
			continue
		case strings.HasPrefix(line, "@"):
			survey = line[1:]
			continue
		}
		follow := strings.HasPrefix(line, ">")
		ask, specText, ok := strings.Cut(strings.TrimPrefix(line, ">"), "=>")
		if !ok {
			t.Fatalf("%s:%d: no =>", path, n)
		}
		sp, err := parseSpec(specText)
		if err != nil {
			t.Fatalf("%s:%d: %v", path, n, err)
		}
		turn := evalTurn{ask: strings.TrimSpace(ask), spec: sp}
		if follow {
			cases[len(cases)-1].turns = append(cases[len(cases)-1].turns, turn)
			continue
		}
		cases = append(cases, evalCase{survey: survey, line: n, turns: []evalTurn{turn}})
	}
	return cases
}

// evalRefusalRe recognises the honest "I can't" form of a reply.
var evalRefusalRe = regexp.MustCompile(`(?i)\bI can(no|')t\b|can't answer|cannot answer`)

// evalScore is the three figures of one half.
type evalScore struct {
	exact, refused, wrong int
	failures, refusals    []string
}

func (s evalScore) total() int { return s.exact + s.refused + s.wrong }

// String formats the three figures.
func (s evalScore) String() string {
	pct := func(n int) float64 { return float64(n) / float64(max(1, s.total())) * 100 }
	return fmt.Sprintf("%d questions: exact %d (%.1f%%), honest refusal %d (%.1f%%), wrong %d (%.1f%%)",
		s.total(), s.exact, pct(s.exact), s.refused, pct(s.refused), s.wrong, pct(s.wrong))
}

// runEval asks every question of cases and scores the replies.
func runEval(t testing.TB, cases []evalCase) evalScore {
	surveys := map[string]*aitest.Survey{}
	for _, sv := range aitest.Surveys() {
		surveys[sv.Name] = sv
	}
	var score evalScore
	for _, c := range cases {
		sv := surveys[c.survey]
		if sv == nil {
			t.Fatalf("line %d: unknown survey %q", c.line, c.survey)
		}
		ds := sv.Dataset()
		var history []ai.Turn
		for i, turn := range c.turns {
			wants, err := expect(sv, turn.spec)
			if err != nil {
				t.Fatalf("line %d turn %d %q: %v", c.line, i+1, turn.ask, err)
			}
			reply := Answer(ds, history, turn.ask, sv.Now)
			problems := append(withoutGiven(fbCheck(reply, wants), turn.ask), statNamed(turn.spec, turn.ask, reply)...)
			refusal := evalRefusalRe.MatchString(reply)
			switch {
			case wants[0].kind == "refuse" && refusal, wants[0].kind != "refuse" && !refusal && len(problems) == 0:
				score.exact++
			case refusal:
				score.refused++
				score.refusals = append(score.refusals, fmt.Sprintf("%s line %d#%d %q: %s", c.survey, c.line, i+1, turn.ask, reply))
			default:
				score.wrong++
				score.failures = append(score.failures, fmt.Sprintf("%s line %d#%d %q\n    reply: %s\n    problems: %s",
					c.survey, c.line, i+1, turn.ask, reply, strings.Join(problems, "; ")))
			}
			history = append(history, ai.Turn{Role: ai.RoleUser, Content: turn.ask}, ai.Turn{Role: ai.RoleAssistant, Content: reply})
		}
	}
	return score
}

// statNamed checks that a reply giving one figure names the statistic the spec
// asks for, unless the question asks yes or no: a reply listing the most common answers may hold the highest one
// among them by chance ("top cups per day figure" answered with the most common
// answers, 6 among them), and that is not the answer.
func statNamed(sp spec, ask, reply string) []string {
	if yesNoAsk.MatchString(ask) {
		return nil // "is the lowest rating among VIPs below 3?" may be answered by how many gave less than 3
	}
	words, ok := statNames[sp.stat]
	if strings.HasPrefix(sp.stat, "p") && len(sp.stat) > 1 && sp.stat[1] >= '0' && sp.stat[1] <= '9' {
		words, ok = []string{"percentile"}, true
	}
	if !ok || evalRefusalRe.MatchString(reply) {
		return nil
	}
	low := strings.ToLower(reply)
	for _, w := range words {
		if strings.Contains(low, w) {
			return nil
		}
	}
	return []string{fmt.Sprintf("does not name the %s", words[0])}
}

// yesNoAsk finds a question asked to be answered yes or no.
var yesNoAsk = regexp.MustCompile(`(?i)^\s*(is|are|was|were|does|do|did|has|have)\b`)

// statNames are the words a reply names each single-figure statistic with.
var statNames = map[string][]string{"mean": {"average"}, "median": {"median", "50th percentile"}, "mode": {"most common"},
	"min": {"lowest", "earliest"}, "max": {"highest", "latest"}, "sd": {"standard deviation"}, "sum": {"total", "add up to"},
	"earliest": {"earliest"}, "latest": {"latest"}}

// withoutGiven drops from problems the "unexpected" figures the question itself
// gave: "is the average above 3.5?" is rightly answered "… is not more than 3.5".
func withoutGiven(problems []string, ask string) []string {
	given := map[string]bool{}
	for _, n := range givenNumberRe.FindAllString(ask, -1) {
		if v, err := strconv.ParseFloat(n, 64); err == nil {
			given[aitest.Fmt(v)] = true
		}
	}
	return slices.DeleteFunc(problems, func(p string) bool {
		figure, ok := strings.CutPrefix(p, "unexpected ")
		return ok && given[strings.TrimSuffix(figure, "%")]
	})
}

// givenNumberRe finds the numbers of a question.
var givenNumberRe = regexp.MustCompile(`\d+(?:\.\d+)?`)

// evalDevFiles are the development batches, the first written with the held-out
// half, the later ones written fresh during tuning.
var evalDevFiles = []string{"testdata/eval_dev.txt", "testdata/eval_dev2.txt", "testdata/eval_dev3.txt", "testdata/eval_dev4.txt", "testdata/eval_dev5.txt", "testdata/eval_dev6.txt", "testdata/eval_dev7.txt", "testdata/eval_dev8.txt", "testdata/eval_dev9.txt", "testdata/eval_dev10.txt", "testdata/eval_dev11.txt", "testdata/eval_dev12.txt", "testdata/eval_dev13.txt", "testdata/eval_dev14.txt",
	"testdata/eval_dev15.txt", "testdata/eval_dev16.txt", "testdata/eval_dev17.txt",
	"testdata/eval_dev18.txt", "testdata/eval_dev19.txt", "testdata/eval_dev20.txt",
	"testdata/eval_dev21.txt", "testdata/eval_dev22.txt", "testdata/eval_dev23.txt",
	"testdata/eval_dev24.txt", "testdata/eval_dev25.txt", "testdata/eval_dev26.txt",
	"testdata/eval_dev27.txt", "testdata/eval_dev28.txt", "testdata/eval_dev29.txt",
	"testdata/eval_dev30.txt", "testdata/eval_dev31.txt", "testdata/eval_dev32.txt",
	"testdata/eval_dev33.txt", "testdata/eval_dev34.txt", "testdata/eval_dev35.txt",
	"testdata/eval_dev36.txt", "testdata/eval_dev37.txt", "testdata/eval_dev38.txt",
	"testdata/eval_dev39.txt", "testdata/eval_dev40.txt", "testdata/eval_dev41.txt",
	"testdata/eval_dev42.txt", "testdata/eval_dev43.txt", "testdata/eval_dev44.txt",
	"testdata/eval_dev45.txt", "testdata/eval_dev46.txt", "testdata/eval_dev47.txt",
	"testdata/eval_dev48.txt", "testdata/eval_dev49.txt", "testdata/eval_dev50.txt",
	"testdata/eval_dev51.txt", "testdata/eval_dev52.txt", "testdata/eval_dev53.txt",
	"testdata/eval_dev54.txt", "testdata/eval_dev55.txt", "testdata/eval_dev56.txt",
	"testdata/eval_dev57.txt", "testdata/eval_dev58.txt", "testdata/eval_dev59.txt",
	"testdata/eval_dev60.txt", "testdata/eval_dev61.txt", "testdata/eval_dev62.txt",
	"testdata/eval_dev63.txt", "testdata/eval_dev64.txt", "testdata/eval_dev65.txt",
	"testdata/eval_dev66.txt", "testdata/eval_dev67.txt", "testdata/eval_dev68.txt",
	"testdata/eval_dev69.txt", "testdata/eval_dev70.txt", "testdata/eval_dev71.txt",
	"testdata/eval_dev72.txt", "testdata/eval_dev73.txt", "testdata/eval_dev74.txt",
	"testdata/eval_dev75.txt", "testdata/eval_dev76.txt", "testdata/eval_dev77.txt",
	"testdata/eval_dev78.txt", "testdata/eval_dev79.txt",
	"testdata/eval_dev80.txt", "testdata/eval_dev81.txt", "testdata/eval_dev82.txt",
	"testdata/eval_dev83.txt", "testdata/eval_dev84.txt", "testdata/eval_dev85.txt",
	"testdata/eval_dev86.txt", "testdata/eval_dev87.txt", "testdata/eval_dev88.txt",
	"testdata/eval_dev89.txt", "testdata/eval_dev90.txt", "testdata/eval_dev91.txt",
	"testdata/eval_dev92.txt", "testdata/eval_dev93.txt", "testdata/eval_dev94.txt",
	"testdata/eval_dev95.txt", "testdata/eval_dev96.txt", "testdata/eval_dev97.txt",
	"testdata/eval_dev98.txt", "testdata/eval_dev99.txt", "testdata/eval_dev100.txt",
	"testdata/eval_dev101.txt", "testdata/eval_dev102.txt", "testdata/eval_dev103.txt",
	"testdata/eval_dev104.txt", "testdata/eval_dev105.txt", "testdata/eval_dev106.txt",
	"testdata/eval_dev107.txt", "testdata/eval_dev108.txt", "testdata/eval_dev109.txt",
	"testdata/eval_dev110.txt", "testdata/eval_dev111.txt", "testdata/eval_dev112.txt",
	"testdata/eval_dev113.txt", "testdata/eval_dev114.txt", "testdata/eval_dev115.txt",
	"testdata/eval_dev116.txt", "testdata/eval_dev117.txt", "testdata/eval_dev118.txt",
	"testdata/eval_dev119.txt", "testdata/eval_dev120.txt", "testdata/eval_dev121.txt",
	"testdata/eval_dev122.txt", "testdata/eval_dev123.txt",
	"testdata/eval_dev124.txt", "testdata/eval_dev125.txt", "testdata/eval_dev126.txt",
	"testdata/eval_dev127.txt", "testdata/eval_dev128.txt", "testdata/eval_dev129.txt",
	"testdata/eval_dev130.txt", "testdata/eval_dev131.txt", "testdata/eval_dev132.txt",
	"testdata/eval_dev133.txt", "testdata/eval_dev134.txt", "testdata/eval_dev135.txt",
	"testdata/eval_dev136.txt", "testdata/eval_dev137.txt", "testdata/eval_dev138.txt",
	"testdata/eval_dev139.txt", "testdata/eval_dev140.txt", "testdata/eval_dev141.txt",
	"testdata/eval_dev142.txt", "testdata/eval_dev143.txt", "testdata/eval_dev144.txt",
	"testdata/eval_dev145.txt", "testdata/eval_dev146.txt", "testdata/eval_dev147.txt",
	"testdata/eval_dev148.txt", "testdata/eval_dev149.txt", "testdata/eval_dev150.txt",
	"testdata/eval_dev151.txt", "testdata/eval_dev152.txt", "testdata/eval_dev153.txt",
	"testdata/eval_dev154.txt", "testdata/eval_dev155.txt", "testdata/eval_dev156.txt",
	"testdata/eval_dev157.txt", "testdata/eval_dev158.txt", "testdata/eval_dev159.txt",
	"testdata/eval_dev160.txt", "testdata/eval_dev161.txt", "testdata/eval_dev162.txt",
	"testdata/eval_dev163.txt", "testdata/eval_dev164.txt", "testdata/eval_dev165.txt",
	"testdata/eval_dev166.txt", "testdata/eval_dev167.txt", "testdata/eval_dev168.txt",
	"testdata/eval_dev169.txt", "testdata/eval_dev170.txt", "testdata/eval_dev171.txt",
	"testdata/eval_dev172.txt", "testdata/eval_dev173.txt", "testdata/eval_dev174.txt",
	"testdata/eval_dev175.txt", "testdata/eval_dev176.txt", "testdata/eval_dev177.txt", "testdata/eval_dev178.txt",
	"testdata/eval_dev179.txt", "testdata/eval_dev180.txt", "testdata/eval_dev181.txt",
	"testdata/eval_dev182.txt", "testdata/eval_dev183.txt", "testdata/eval_dev184.txt", "testdata/eval_dev185.txt",
	"testdata/eval_dev186.txt", "testdata/eval_dev187.txt", "testdata/eval_dev188.txt", "testdata/eval_dev189.txt",
	"testdata/eval_dev190.txt", "testdata/eval_dev191.txt", "testdata/eval_dev192.txt", "testdata/eval_dev193.txt",
	"testdata/eval_dev194.txt", "testdata/eval_dev195.txt", "testdata/eval_dev196.txt", "testdata/eval_dev197.txt",
	"testdata/eval_dev198.txt", "testdata/eval_dev199.txt", "testdata/eval_dev200.txt",
	"testdata/eval_dev201.txt", "testdata/eval_dev202.txt"}

// TestChatDevBatches runs the development batches alone, fails on any wrong
// reply (they were all brought to none: a wrong one is a regression) and, with
// -v, lists the refusals too: the tuning loop runs this test, never the
// held-out one.
func TestChatDevBatches(t *testing.T) {
	for _, path := range evalDevFiles {
		dev := runEval(t, loadEval(t, path))
		fmt.Printf("chat evaluation, development %s: %s\n", path, dev)
		for _, f := range dev.failures {
			t.Errorf("WRONG %s", f)
		}
		if testing.Verbose() {
			for _, f := range dev.refusals {
				t.Logf("REFUSED %s", f)
			}
		}
	}
}

// TestChatEvaluation scores the held-out half, printing only its three totals. It
// fails when the held-out figures fall below what has been reached (a regression),
// and reports, without failing, while issue 14's target (wrong ≤ 1%, exact ≥ 90%)
// is not met: the held-out half cannot be tuned on, so that gap is closed with
// fresh development batches, not here.
func TestChatEvaluation(t *testing.T) {
	held := runEval(t, loadEval(t, "testdata/eval_heldout.txt"))
	held.failures, held.refusals = nil, nil // never shown: the held-out half is not tuned on
	fmt.Printf("chat evaluation, held-out: %s\n", held)
	if held.total() < 150 {
		t.Errorf("held-out half has %d questions, want at least 150", held.total())
	}
	if held.wrong*100 > held.total() || held.exact*10 < held.total()*9 {
		t.Errorf("held-out: %d wrong and %d exact of %d; issue 14's target is wrong ≤ 1%%, exact ≥ 90%%",
			held.wrong, held.exact, held.total())
	}
	if held.wrong > reachedWrong || held.exact < reachedExact {
		t.Errorf("held-out: %d wrong and %d exact of %d; reached before: at most %d wrong, at least %d exact",
			held.wrong, held.exact, held.total(), reachedWrong, reachedExact)
	}
}

// reachedWrong and reachedExact are the held-out figures reached (of 168
// questions): a change may only improve on them.
const (
	reachedWrong = 1
	reachedExact = 164
)

// laterHeldOut are held-out sets written on 2026-11-28 by writers who never read
// the parser nor saw the chat's replies, frozen at commit 4317b9b and first scored
// there; like the first held-out half, only their totals are ever shown. A change
// may not do worse on them than the figures reached (-1: none yet).
var laterHeldOut = []struct {
	path                       string
	reachedWrong, reachedExact int
}{
	{"testdata/eval_heldout2.txt", 0, 164}, // at 4317b9b: 164 exact / 2 refused / 0 wrong of 166
	{"testdata/eval_heldout3.txt", 2, 155}, // at 4317b9b: 153 / 2 / 4 of 159
}

// TestChatLaterHeldOut scores the later held-out sets, printing only their totals.
func TestChatLaterHeldOut(t *testing.T) {
	for _, set := range laterHeldOut {
		held := runEval(t, loadEval(t, set.path))
		held.failures, held.refusals = nil, nil
		fmt.Printf("chat evaluation, %s: %s\n", set.path, held)
		if set.reachedWrong >= 0 && (held.wrong > set.reachedWrong || held.exact < set.reachedExact) {
			t.Errorf("%s: %d wrong and %d exact of %d; reached before: at most %d wrong, at least %d exact",
				set.path, held.wrong, held.exact, held.total(), set.reachedWrong, set.reachedExact)
		}
	}
}
