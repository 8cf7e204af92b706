package logic

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"forma/internal/form"
)

// nodeRunner loads logic.js as a browser would (a classic script defining a global)
// and prints FormaLogic.evaluate of every {questions, answers} in the input file.
const nodeRunner = `
const fs = require("fs"), vm = require("vm");
const [logicPath, inputPath] = process.argv.slice(2);
vm.runInThisContext(fs.readFileSync(logicPath, "utf8"), { filename: logicPath });
const cases = JSON.parse(fs.readFileSync(inputPath, "utf8"));
process.stdout.write(JSON.stringify(cases.map(c => FormaLogic.evaluate(c.questions, c.answers, c.hidden))));
`

// jsCase is the input of one evaluation in logic.js.
type jsCase struct {
	Questions []vectorQuestion  `json:"questions"`
	Answers   map[string]any    `json:"answers"`
	Hidden    form.HiddenValues `json:"hidden,omitempty"`
}

// jsResult is what FormaLogic.evaluate returns.
type jsResult struct {
	Visible  map[string]bool `json:"visible"`
	Score    float64         `json:"score"`
	HasScore bool            `json:"hasScore"`
}

func (r jsResult) outcome(t *testing.T) outcome {
	t.Helper()
	o := outcome{Visible: map[int64]bool{}, Score: r.Score, HasScore: r.HasScore}
	for k, v := range r.Visible {
		id, err := strconv.ParseInt(k, 10, 64)
		if err != nil {
			t.Fatalf("logic.js returned visible key %q", k)
		}
		o.Visible[id] = v
	}
	return o
}

// runJS evaluates cases with the embedded Script under Node.
func runJS(t *testing.T, cases []jsCase) []outcome {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node not installed: ", err)
	}
	dir := t.TempDir()
	input, err := json.Marshal(cases)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{"logic.js": Script, "runner.js": []byte(nodeRunner), "input.json": input}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(node, filepath.Join(dir, "runner.js"), filepath.Join(dir, "logic.js"), filepath.Join(dir, "input.json"))
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	var results []jsResult
	if err := json.Unmarshal(out, &results); err != nil || len(results) != len(cases) {
		t.Fatalf("node output (%d results for %d cases): %v", len(results), len(cases), err)
	}
	outcomes := make([]outcome, len(results))
	for i, r := range results {
		outcomes[i] = r.outcome(t)
	}
	return outcomes
}

func TestScriptVectors(t *testing.T) {
	vs := loadVectors(t)
	cases := make([]jsCase, len(vs))
	for i, v := range vs {
		cases[i] = jsCase{v.Questions, v.Answers, v.Hidden}
	}
	results := runJS(t, cases)
	for i, v := range vs {
		t.Run(v.Name, func(t *testing.T) {
			if msg := v.Expect.mismatch(results[i]); msg != "" {
				t.Error(msg)
			}
		})
	}
}

// TestScriptMatchesEvaluate runs random forms and answers through both
// implementations and requires identical results.
func TestScriptMatchesEvaluate(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	cases := make([]jsCase, 1500)
	for i := range cases {
		cases[i] = randomCase(rng)
	}
	results := runJS(t, cases)
	for i, c := range cases {
		v := vector{Questions: c.Questions, Answers: c.Answers}
		want := outcome(Evaluate(v.questions(), v.answers(t), c.Hidden))
		if fmt.Sprint(want) != fmt.Sprint(results[i]) {
			input, _ := json.Marshal(c)
			t.Errorf("case %d: Go %v, JS %v\n%s", i, want, results[i], input)
		}
	}
}

var (
	randomOptions = []string{"A", "B", "c", "5"}
	randomScalars = []any{"A", "B", "a", "c", "5", "5.0", "10", "9", "-1", "1e3", "0x10", " 5", "hello World",
		"2024-01-01", "2024-12-31", "09:30", "23:59", "ΟΔΟΣ", "İ", "", "true",
		0.0, 5.0, 10.0, 2.5, -1.0, 1e21, 1e-7, 0.1, true, false, nil,
		map[string]any{"name": "Cv.PDF", "size": 3.0}}
	randomOperators = []string{form.OpEquals, form.OpNotEquals, form.OpContains, form.OpGreaterThan,
		form.OpLessThan, form.OpIsEmpty, form.OpIsNotEmpty}
	randomValueTypes = []string{form.ValueStatic, form.ValueStatic, form.ValueDynamic, form.ValueScore}
	randomActions    = []string{form.ActionShow, form.ActionHide, form.ActionSkipToQuestion,
		form.ActionSkipToSection, form.ActionEndForm, form.ActionSetScore}
	randomPoints = []float64{0, 1, 2.5, 0.1, 0.2, -3}
	// randomHidden are the hidden fields a random condition may read; the cases
	// give values to the first two only.
	randomHidden = []string{"src", "uid", "never"}
)

func pick[T any](rng *rand.Rand, list []T) T { return list[rng.IntN(len(list))] }

func rawJSON(v any) json.RawMessage {
	b, _ := json.Marshal(v)
	return b
}

func randomCase(rng *rand.Rand) jsCase {
	n := 2 + rng.IntN(7)
	ids := rng.Perm(n)
	c := jsCase{Answers: map[string]any{}, Hidden: form.HiddenValues{}}
	for _, name := range randomHidden[:2] {
		if rng.IntN(3) > 0 {
			c.Hidden[name] = fmt.Sprint(pick(rng, randomScalars))
		}
	}
	for i := range n {
		id := int64(ids[i] + 1)
		q := vectorQuestion{ID: id, Order: 1 + rng.IntN(n), Type: form.Text, Question: "q"}
		if rng.IntN(2) == 0 {
			q.ConditionalLogic = randomLogic(rng, n)
		}
		c.Questions = append(c.Questions, q)
		if rng.IntN(4) > 0 {
			c.Answers[strconv.FormatInt(id, 10)] = randomAnswer(rng)
		}
	}
	return c
}

func randomAnswer(rng *rand.Rand) any {
	if rng.IntN(4) > 0 {
		return pick(rng, randomScalars)
	}
	var items []any
	for _, o := range randomOptions {
		if rng.IntN(2) == 0 {
			items = append(items, o)
		}
	}
	return items
}

// randomID is a question id of the form, sometimes one that is not.
func randomID(rng *rand.Rand, n int) int64 { return int64(1 + rng.IntN(n+1)) }

func randomLogic(rng *rand.Rand, n int) *form.ConditionalLogic {
	l := &form.ConditionalLogic{}
	if rng.IntN(3) == 0 {
		l.ShowIf = &form.ShowIf{QuestionID: randomID(rng, n),
			Operator: pick(rng, []string{form.OpEquals, form.OpNotEquals}), Value: fmt.Sprint(pick(rng, randomScalars))}
	}
	if l.ShowIf == nil || rng.IntN(2) == 0 {
		l.Advanced = randomRule(rng, n)
	}
	return l
}

func randomRule(rng *rand.Rand, n int) *form.AdvancedLogic {
	r := &form.AdvancedLogic{}
	for range rng.IntN(3) {
		g := form.ConditionGroup{ID: "g", Operator: pick(rng, []string{"AND", "OR"})}
		for range 1 + rng.IntN(3) {
			g.Conditions = append(g.Conditions, randomCondition(rng, n))
		}
		r.ConditionGroups = append(r.ConditionGroups, g)
	}
	for range rng.IntN(3) {
		a := form.Action{Type: pick(rng, randomActions)}
		if a.Type == form.ActionSetScore {
			a.Value = rawJSON(pick(rng, randomPoints))
		} else if rng.IntN(4) == 0 {
			a.TargetID = rawJSON(strconv.FormatInt(randomID(rng, n), 10))
		} else {
			a.TargetID = rawJSON(randomID(rng, n))
		}
		r.Actions = append(r.Actions, a)
	}
	for range rng.IntN(3) {
		m := map[string]float64{}
		for range 3 {
			m[fmt.Sprint(pick(rng, randomScalars))] = pick(rng, randomPoints)
		}
		m[pick(rng, randomOptions)] = pick(rng, randomPoints)
		r.ScoreRules = append(r.ScoreRules, form.ScoreRule{ID: "s", QuestionID: randomID(rng, n), ScoreMap: m})
	}
	return r
}

func randomCondition(rng *rand.Rand, n int) form.Condition {
	c := form.Condition{ID: "c", QuestionID: randomID(rng, n), Operator: pick(rng, randomOperators),
		ValueType: pick(rng, randomValueTypes)}
	if rng.IntN(5) == 0 && c.ValueType != form.ValueScore {
		c.QuestionID, c.HiddenField = 0, pick(rng, randomHidden)
	}
	switch c.ValueType {
	case form.ValueDynamic:
		c.Value = rawJSON(randomID(rng, n))
	case form.ValueScore:
		c.Value = rawJSON(pick(rng, randomPoints))
	default:
		c.Value = rawJSON(pick(rng, randomScalars))
	}
	return c
}
