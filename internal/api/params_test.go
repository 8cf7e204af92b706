package api_test

import (
	"testing"

	"forma/internal/server/servertest"
	"forma/internal/store"
)

// TestParametersHaveOneSpelling: ids and paging values are plain decimals, query
// parameters an operation does not take are refused by name, the largest offset
// does not overflow hasMore, and no API response may be cached.
func TestParametersHaveOneSpelling(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		env := servertest.New(t, d)
		key := env.NewKey()
		f := createForm(t, env, key, obj{"title": "Survey", "questions": []obj{{"type": "text", "question": "Name"}}})
		id := id(f["id"])
		question := questionIDs(t, f)[0]
		forms := apiPrefix + "/forms"
		refused := func(name, path, field string) scenario {
			return scenario{Name: name, Method: "GET", Path: path, Key: key, ExpectedStatus: 400, Check: apiError("validation_error", field)}
		}
		servertest.Run(t, env, []scenario{
			{Name: "the canonical id", Method: "GET", Path: forms + "/" + id, Key: key, ExpectedStatus: 200,
				ExpectedHeaders: map[string]string{"Cache-Control": "no-store"}},
			refused("a signed id", forms+"/+"+id, "id"),
			refused("a zero-padded id", forms+"/0"+id, "id"),
			{Name: "a zero-padded field id", Method: "PATCH", Path: forms + "/" + id + "/fields/0" + question, Key: key,
				Body: obj{"question": "Full name"}, ExpectedStatus: 400, Check: apiError("validation_error", "fieldId")},
			refused("a signed limit", forms+"?limit=%2B5", "limit"),
			refused("a zero-padded offset", forms+"?offset=01", "offset"),
			refused("an offset past 63 bits", forms+"?offset=9223372036854775808", "offset"),
			{Name: "the largest offset", Method: "GET", Path: forms + "?offset=9223372036854775807", Key: key, ExpectedStatus: 200,
				Check: fields(obj{"hasMore": false, "total": 1, "forms": []any{}})},
			refused("an unknown parameter", forms+"?ofset=1", "ofset"),
			refused("paging on the export", forms+"/"+id+"/responses/export?limit=-1", "limit"),
			{Name: "errors are not cached either", Method: "GET", Path: forms + "/0", Key: key, ExpectedStatus: 400,
				ExpectedHeaders: map[string]string{"Cache-Control": "no-store"}},
			{Name: "nor refusals of the key", Method: "GET", Path: forms, ExpectedStatus: 401,
				ExpectedHeaders: map[string]string{"Cache-Control": "no-store"}},
		})
	})
}
