package api_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"forma/internal/form"
)

// TestOpenAPILimitsAreTheCodes checks that the limits the document states are the
// constants the code enforces, so that neither can change alone.
func TestOpenAPILimitsAreTheCodes(t *testing.T) {
	_, doc := embeddedDoc(t)
	prop := func(schema, name string) *openapi3.Schema {
		t.Helper()
		s := doc.Components.Schemas[schema]
		if s == nil || s.Value.Properties[name] == nil {
			t.Fatalf("no property %s.%s in openapi.json", schema, name)
		}
		return s.Value.Properties[name].Value
	}
	num := func(p *uint64) int {
		if p == nil {
			return -1
		}
		return int(*p)
	}
	for _, c := range []struct {
		what      string
		got, want int
	}{
		{"FormCreate.title maxLength", num(prop("FormCreate", "title").MaxLength), form.MaxTitleLen},
		{"FormCreate.description maxLength", num(prop("FormCreate", "description").MaxLength), form.MaxDescriptionLen},
		{"QuestionCreate.question maxLength", num(prop("QuestionCreate", "question").MaxLength), form.MaxQuestionLen},
		{"QuestionCreate.options maxItems", num(prop("QuestionCreate", "options").MaxItems), form.MaxOptions},
		{"AdvancedLogic.conditionGroups maxItems", num(prop("AdvancedLogic", "conditionGroups").MaxItems), form.MaxConditionGroups},
		{"ConditionGroup.conditions maxItems", num(prop("ConditionGroup", "conditions").MaxItems), form.MaxConditions},
		{"AdvancedLogic.actions maxItems", num(prop("AdvancedLogic", "actions").MaxItems), form.MaxActions},
		{"AdvancedLogic.scoreRules maxItems", num(prop("AdvancedLogic", "scoreRules").MaxItems), form.MaxScoreRules},
		{"ScoreRule.scoreMap maxProperties", num(prop("ScoreRule", "scoreMap").MaxProps), form.MaxScoreMapEntries},
		{"ScoreRule.scoreMap propertyNames maxLength", num(prop("ScoreRule", "scoreMap").PropertyNames.Value.MaxLength), form.MaxLogicTextLen},
		{"ShowIf.value maxLength", num(prop("ShowIf", "value").MaxLength), form.MaxLogicTextLen},
		{"ConditionGroup.id maxLength", num(prop("ConditionGroup", "id").MaxLength), form.MaxLogicTextLen},
		{"Condition.id maxLength", num(prop("Condition", "id").MaxLength), form.MaxLogicTextLen},
		{"Condition.value maxLength", num(prop("Condition", "value").MaxLength), form.MaxLogicTextLen},
		{"Action.targetId maxLength", num(prop("Action", "targetId").MaxLength), form.MaxLogicTextLen},
		{"ScoreRule.id maxLength", num(prop("ScoreRule", "id").MaxLength), form.MaxLogicTextLen},
		{"FormUpdate.closedMessage maxLength", num(prop("FormUpdate", "closedMessage").MaxLength), form.MaxClosedMessageLen},
		{"FormUpdate.maxResponses maximum", int(*prop("FormUpdate", "maxResponses").Max), form.MaxResponsesLimit},
		{"ThankYou.title maxLength", num(prop("ThankYou", "title").MaxLength), form.MaxThankYouTitleLen},
		{"ThankYou.message maxLength", num(prop("ThankYou", "message").MaxLength), form.MaxThankYouMessageLen},
		{"ThankYou.redirectUrl maxLength", num(prop("ThankYou", "redirectUrl").MaxLength), form.MaxRedirectURLLen},
		{"ThankYou.redirectParams maxItems", num(prop("ThankYou", "redirectParams").MaxItems), form.MaxRedirectParams},
		{"RedirectParam.name maxLength", num(prop("RedirectParam", "name").MaxLength), form.MaxRedirectParamNameLen},
	} {
		if c.got != c.want {
			t.Errorf("%s is %d in openapi.json, %d in the code", c.what, c.got, c.want)
		}
	}
	// The limits in prose: the per-form total and the per-question counts.
	desc := doc.Components.Schemas["ConditionalLogic"].Value.Description
	for _, n := range []int{form.MaxConditionGroups, form.MaxConditions, form.MaxActions, form.MaxScoreRules,
		form.MaxScoreMapEntries, form.MaxLogicTextLen, form.MaxFormLogicBytes} {
		if !strings.Contains(desc, strconv.Itoa(n)) {
			t.Errorf("the ConditionalLogic description does not state the limit %d: %q", n, desc)
		}
	}
}
