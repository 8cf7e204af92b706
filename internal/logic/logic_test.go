package logic

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strconv"
	"testing"

	"forma/internal/form"
)

// vector is one case of testdata/vectors.json, shared with logic.js.
type vector struct {
	Name      string           `json:"name"`
	Questions []vectorQuestion `json:"questions"`
	Answers   map[string]any   `json:"answers"`
	// Hidden holds the submission's hidden-field values, by name.
	Hidden form.HiddenValues `json:"hidden,omitempty"`
	Expect expectation       `json:"expect"`
}

// vectorQuestion is a question in the JSON shape of the API (openapi.json).
type vectorQuestion struct {
	ID               int64                  `json:"id"`
	Order            int                    `json:"order"`
	Type             form.QuestionType      `json:"type"`
	Question         string                 `json:"question"`
	Required         bool                   `json:"required"`
	Options          []string               `json:"options,omitempty"`
	ConditionalLogic *form.ConditionalLogic `json:"conditionalLogic,omitempty"`
}

// expectation lists every question as visible or hidden; Score is present exactly
// when the form has scoring.
type expectation struct {
	Visible []int64  `json:"visible"`
	Hidden  []int64  `json:"hidden"`
	Score   *float64 `json:"score"`
}

// outcome is a result of either implementation, in comparable form.
type outcome struct {
	Visible  map[int64]bool
	Score    float64
	HasScore bool
}

func loadVectors(t *testing.T) []vector {
	t.Helper()
	raw, err := os.ReadFile("testdata/vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	var vs []vector
	if err := dec.Decode(&vs); err != nil {
		t.Fatalf("decode vectors: %v", err)
	}
	return vs
}

func (v vector) questions() []form.Question {
	qs := make([]form.Question, len(v.Questions))
	for i, q := range v.Questions {
		qs[i] = form.Question{ID: q.ID, Order: q.Order, Type: q.Type, Text: q.Question,
			Required: q.Required, Options: q.Options, Logic: q.ConditionalLogic}
	}
	return qs
}

func (v vector) answers(t *testing.T) Answers {
	t.Helper()
	a := make(Answers, len(v.Answers))
	for k, val := range v.Answers {
		id, err := strconv.ParseInt(k, 10, 64)
		if err != nil {
			t.Fatalf("%s: answer key %q is not a question id", v.Name, k)
		}
		a[id] = val
	}
	return a
}

// mismatch describes how got differs from e ("" when it does not).
func (e expectation) mismatch(got outcome) string {
	want := map[int64]bool{}
	for _, id := range e.Visible {
		want[id] = true
	}
	for _, id := range e.Hidden {
		want[id] = false
	}
	if fmt.Sprint(want) != fmt.Sprint(got.Visible) {
		return fmt.Sprintf("visible = %v, want %v", got.Visible, want)
	}
	if got.HasScore != (e.Score != nil) {
		return fmt.Sprintf("hasScore = %v, want %v", got.HasScore, e.Score != nil)
	}
	if e.Score != nil && got.Score != *e.Score {
		return fmt.Sprintf("score = %v, want %v", got.Score, *e.Score)
	}
	return ""
}

func TestVectorsAreWellFormed(t *testing.T) {
	vs := loadVectors(t)
	if len(vs) < 70 {
		t.Errorf("%d vectors, want at least 70", len(vs))
	}
	names := map[string]bool{}
	for _, v := range vs {
		if names[v.Name] {
			t.Errorf("duplicate vector name %q", v.Name)
		}
		names[v.Name] = true
		var ids, listed []int64
		for _, q := range v.Questions {
			ids = append(ids, q.ID)
		}
		listed = append(slices.Clone(v.Expect.Visible), v.Expect.Hidden...)
		slices.Sort(ids)
		slices.Sort(listed)
		if !slices.Equal(ids, listed) {
			t.Errorf("%s: expect lists %v, questions are %v", v.Name, listed, ids)
		}
	}
}

func TestEvaluateVectors(t *testing.T) {
	for _, v := range loadVectors(t) {
		t.Run(v.Name, func(t *testing.T) {
			r := Evaluate(v.questions(), v.answers(t), v.Hidden)
			if msg := v.Expect.mismatch(outcome(r)); msg != "" {
				t.Error(msg)
			}
		})
	}
}

func TestEvaluateDoesNotReorderInput(t *testing.T) {
	qs := []form.Question{{ID: 2, Order: 2}, {ID: 1, Order: 1}}
	Evaluate(qs, nil, nil)
	if qs[0].ID != 2 {
		t.Error("Evaluate sorted the caller's slice")
	}
}
