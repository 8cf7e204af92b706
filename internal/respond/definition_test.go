package respond_test

import (
	"fmt"
	"strings"
	"testing"

	"forma/internal/server/servertest"
	"forma/internal/store"
)

// quiz publishes a scored form: two questions worth points, a bonus question
// shown when the score is above 5, and a set_score on a fourth answer. It returns
// the share token and the question ids.
func quiz(t *testing.T, env *servertest.Env, key, mode string) (string, []int64) {
	formID, token, q := published(t, env, key, `{"title":"Quiz","displayMode":"`+mode+`","questions":[
		{"type":"select","question":"Capital of France","options":["Paris","Lyon"]},
		{"type":"select","question":"Capital of Italy","options":["Rome","Milan"]},
		{"type":"text","question":"Bonus: why?"},
		{"type":"yes_no","question":"Give up?"}]}`)
	patch := func(qid int64, logic string) {
		if r := env.Do("PATCH", fmt.Sprintf("/api/v1/forms/%d/fields/%d", formID, qid), key, `{"conditionalLogic":`+logic+`}`); r.Status != 200 {
			t.Fatalf("set logic: %s", r.Body)
		}
	}
	patch(q[0], fmt.Sprintf(`{"advanced":{"conditionGroups":[],"actions":[],"scoreRules":[
		{"id":"a","questionId":%d,"scoreMap":{"Paris":4,"Lyon":0}},{"id":"b","questionId":%d,"scoreMap":{"Rome":3,"Milan":0}}]}}`, q[0], q[1]))
	patch(q[1], fmt.Sprintf(`{"advanced":{"conditionGroups":[{"id":"g","operator":"AND","conditions":[
		{"id":"c","questionId":%d,"operator":"greater_than","value":5,"valueType":"score"}]}],"actions":[{"type":"show_question","targetId":%d}]}}`, q[1], q[2]))
	patch(q[3], fmt.Sprintf(`{"advanced":{"conditionGroups":[{"id":"g","operator":"AND","conditions":[
		{"id":"c","questionId":%d,"operator":"equals","value":"true"}]}],"actions":[{"type":"set_score","value":-1}]}}`, q[3]))
	return token, q
}

// TestDefinitionHidesTheAnswerKey: the public definition (JSON and page) holds no
// score rules or set_score actions; the server computes the score and, through
// /evaluate, which questions the score shows.
func TestDefinitionHidesTheAnswerKey(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		env := servertest.New(t, d)
		token, q := quiz(t, env, env.NewKey(), "single-page")
		def := env.Do("GET", "/f/"+token+"/definition", "", nil)
		expect(t, def, 200, `"valueType":"score"`)
		_, page := getPage(t, env, token)
		for _, body := range []string{string(def.Body), page} {
			for _, secret := range []string{"scoreMap", "scoreRules", "Paris&#34;:4", `"Paris":4`, "set_score"} {
				if strings.Contains(body, secret) {
					t.Errorf("the public definition reveals %s", secret)
				}
			}
		}
		answers := func(france, italy string) string {
			return fmt.Sprintf(`{"answers":{"%d":%q,"%d":%q}}`, q[0], france, q[1], italy)
		}
		expect(t, env.Do("POST", "/f/"+token+"/evaluate", "", answers("Paris", "Rome")), 200,
			fmt.Sprintf(`{"visible":[%d,%d,%d,%d]}`, q[0], q[1], q[2], q[3]))
		r := env.Do("POST", "/f/"+token+"/evaluate", "", answers("Paris", "Milan"))
		expect(t, r, 200, fmt.Sprintf(`{"visible":[%d,%d,%d]}`, q[0], q[1], q[3]))
		if strings.Contains(string(r.Body), "score") {
			t.Errorf("evaluate reveals the score: %s", r.Body)
		}
		// Invalid answers count as unanswered; unknown fields are refused.
		expect(t, env.Do("POST", "/f/"+token+"/evaluate", "", fmt.Sprintf(`{"answers":{"%d":"Nice"}}`, q[0])), 200,
			fmt.Sprintf(`{"visible":[%d,%d,%d]}`, q[0], q[1], q[3]))
		expect(t, env.Do("POST", "/f/"+token+"/evaluate", "", `{"answers":{},"score":1}`), 400)

		expect(t, env.Do("POST", "/f/"+token+"/submissions", "", answers("Paris", "Rome")), 201, `"score":7`)
		expect(t, env.Do("POST", "/f/"+token+"/submissions", "", fmt.Sprintf(`{"answers":{"%d":"Paris","%d":true}}`, q[0], q[3])),
			201, `"score":-1`)
	})
}
