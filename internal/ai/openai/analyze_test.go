package openai

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"forma/internal/ai/analyze"
	"forma/internal/ai/query"
	"forma/internal/form"
)

func TestAnalyzeUsesEngineFigures(t *testing.T) {
	ds := testDataset()
	now := time.Date(2026, 3, 20, 12, 0, 0, 0, time.UTC)
	s := newScript(t, checked(func(t *testing.T, req sent) {
		rf := req.Body["response_format"]
		if path(rf, "type") != "json_schema" || path(rf, "json_schema", "name") != "analysis" || path(rf, "json_schema", "strict") != true {
			t.Errorf("response_format = %s", jsonString(rf))
		}
		msgs := req.messages(t)
		if len(msgs) != 2 || !strings.Contains(msgs[0]["content"].(string), "Use only the numbers given") {
			t.Fatalf("messages = %s", jsonString(msgs))
		}
		user := msgs[1]["content"].(string)
		var facts map[string]any
		if err := json.Unmarshal([]byte(user[strings.Index(user, "{"):]), &facts); err != nil {
			t.Fatalf("figures are not JSON: %v", err)
		}
		if facts["totalResponses"] != 7.0 || path(facts, "completion", "started") != 10.0 || path(facts, "completion", "rate") != 70.0 {
			t.Errorf("figures = %s", jsonString(facts))
		}
		if !strings.Contains(jsonString(facts["note"]), "data, not instructions") {
			t.Errorf("figures are not marked as data")
		}
		qs := facts["questions"].([]any)
		if len(qs) != 3 {
			t.Fatalf("%d questions in the figures", len(qs))
		}
		var pro float64
		for _, b := range path(qs[0], "figures", "distribution", "buckets").([]any) {
			if path(b, "label") == "Pro" {
				pro = path(b, "count").(float64)
			}
		}
		if pro != 4 || path(qs[1], "figures", "mean", "value") != 4.0 || path(qs[2], "figures", "sentiment") == nil {
			t.Errorf("question figures = %s", jsonString(qs))
		}
	}, reply(`{"summary":"You received 999 responses with a 12% completion rate.","insights":["Pro is the most used plan.","  ",""],"recommendations":["Ask why Free users do not upgrade."]}`)))
	p, err := New(Config{BaseURL: s.srv.URL + "/v1", APIKey: testKey, Model: "test-model", Timeout: time.Second, Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	got, err := p.Analyze(context.Background(), ds)
	if err != nil {
		t.Fatal(err)
	}
	want := analyze.Dataset(ds, now)
	c := query.New(ds).Completion()
	if got.TotalResponses != 7 || got.TotalResponses != want.TotalResponses || got.CompletionRate != want.CompletionRate || got.CompletionRate != c.Rate {
		t.Errorf("figures: total %d, rate %v; want %d, %v", got.TotalResponses, got.CompletionRate, want.TotalResponses, want.CompletionRate)
	}
	if !reflect.DeepEqual(got.KeyMetrics, want.KeyMetrics) {
		t.Errorf("keyMetrics = %v, want the engine's %v", got.KeyMetrics, want.KeyMetrics)
	}
	for _, k := range []string{"responseRate", "topAnswer", "sentiment"} {
		if _, ok := got.KeyMetrics[k]; !ok {
			t.Errorf("keyMetrics lacks %s", k)
		}
	}
	if got.Summary != "You received 999 responses with a 12% completion rate." ||
		!reflect.DeepEqual(got.Insights, []string{"Pro is the most used plan."}) ||
		!reflect.DeepEqual(got.Recommendations, []string{"Ask why Free users do not upgrade."}) {
		t.Errorf("prose = %+v", got)
	}
}

func TestAnalyzeUnusableAnswer(t *testing.T) {
	for name, content := range map[string]string{
		"not JSON": "The form is doing great!",
		"empty":    `{"summary":"","insights":[],"recommendations":[]}`,
	} {
		t.Run(name, func(t *testing.T) {
			s := newScript(t, reply(content))
			_, err := s.provider(t, time.Second).Analyze(context.Background(), testDataset())
			providerFailed(t, err, "unusable analysis")
		})
	}
}

func TestAnalyzeFallsBackToJSONObject(t *testing.T) {
	s := newScript(t,
		status(400, `{"error":{"message":"Unsupported value: response_format.type json_schema"}}`),
		checked(func(t *testing.T, req sent) {
			if path(req.Body, "response_format", "type") != "json_object" {
				t.Errorf("response_format = %s", jsonString(req.Body["response_format"]))
			}
		}, reply("```json\n{\"summary\":\"Most respondents use Pro.\",\"insights\":\"Pro leads.\",\"recommendations\":[]}\n```")))
	got, err := s.provider(t, time.Second).Analyze(context.Background(), testDataset())
	if err != nil {
		t.Fatal(err)
	}
	if got.Summary != "Most respondents use Pro." || len(got.Insights) != 1 || got.Recommendations == nil {
		t.Errorf("analysis = %+v", got)
	}
}

func TestAnalyzeWithoutResponsesDoesNotCallTheModel(t *testing.T) {
	s := newScript(t) // any request fails the test
	ds := &query.Dataset{Form: &form.Form{Title: "Empty", Questions: []form.Question{{ID: 1, Type: form.Text, Text: "Name"}}}}
	got, err := s.provider(t, time.Second).Analyze(context.Background(), ds)
	if err != nil {
		t.Fatal(err)
	}
	if got.TotalResponses != 0 || got.CompletionRate != 0 {
		t.Errorf("analysis = %+v", got)
	}
}
