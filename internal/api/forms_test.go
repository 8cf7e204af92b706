package api_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"forma/internal/config"
	"forma/internal/server/servertest"
	"forma/internal/store"
)

func TestCreateFormShape(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		env := servertest.New(t, d)
		key := env.NewKey()
		var created obj
		servertest.Run(t, env, []scenario{{
			Name: "create with every kind of config", Method: "POST", Path: apiPrefix + "/forms", Key: key,
			Body: obj{
				"title": "Job application", "description": "Apply here", "displayMode": "multi-step",
				"questions": []any{
					obj{"type": "text", "question": "Name", "required": true},
					obj{"question": "Nickname"},
					obj{"type": "select", "question": "Role", "options": []string{"Dev", "Ops"}},
					obj{"type": "slider", "question": "Fit", "sliderConfig": obj{"min": 0, "max": 10, "step": 0.5}},
					obj{"type": "currency", "question": "Salary", "currencyConfig": obj{"currency": "EUR", "min": 0}},
				},
			},
			ExpectedStatus: 201,
			ExpectedContent: []string{`"title":"Job application"`, `"description":"Apply here"`, `"displayMode":"multi-step"`,
				`"isPublished":false`, `"publishedAt":null`, `"webhook":{"enabled":false,"url":null}`},
			Check: func(t *testing.T, r *servertest.Response) {
				f := r.JSON(t)
				created = f
				share, _ := f["shareUrl"].(string)
				if len(share) < 10 || f["url"] != env.URL+"/f/"+share {
					t.Errorf("shareUrl %q url %v", share, f["url"])
				}
				if at, _ := f["createdAt"].(string); !timestampRE.MatchString(at) {
					t.Errorf("createdAt %v is not RFC 3339 UTC with milliseconds", f["createdAt"])
				}
				qs := items(t, f, "questions")
				if len(qs) != 5 {
					t.Fatalf("%d questions", len(qs))
				}
				for i, q := range qs {
					if q["order"] != float64(i+1) {
						t.Errorf("question %d has order %v", i, q["order"])
					}
				}
				nick := qs[1]
				if nick["type"] != "text" || nick["required"] != false || nick["options"] != nil {
					t.Errorf("defaults: %v", nick)
				}
				if _, ok := nick["sliderConfig"]; ok {
					t.Error("sliderConfig present on a text question")
				}
				if fmt.Sprint(qs[2]["options"]) != "[Dev Ops]" {
					t.Errorf("options %v", qs[2]["options"])
				}
				if fmt.Sprint(qs[3]["sliderConfig"]) != "map[max:10 min:0 step:0.5]" {
					t.Errorf("sliderConfig %v", qs[3]["sliderConfig"])
				}
				if fmt.Sprint(qs[4]["currencyConfig"]) != "map[currency:EUR min:0]" {
					t.Errorf("currencyConfig %v", qs[4]["currencyConfig"])
				}
			},
		}, {
			Name: "two reads are byte for byte the same", Method: "GET", Key: key,
			BeforeTest:     pathFrom(func() string { return formPath(created) }),
			ExpectedStatus: 200,
			Check: func(t *testing.T, r *servertest.Response) {
				if again := env.For(t).Do("GET", formPath(created), key, nil); string(again.Body) != string(r.Body) {
					t.Errorf("GET differs from GET:\n%s\n%s", r.Body, again.Body)
				}
			},
		}})
	})
}

func TestListFormsNewestFirstWithPagination(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		env := servertest.New(t, d)
		key := env.NewKey()
		createForm(t, env, env.NewKey(), obj{"title": "not mine"})
		for i := 1; i <= 5; i++ {
			createForm(t, env, key, obj{"title": fmt.Sprintf("F%d", i)})
		}
		table := []scenario{{
			Name: "a middle page", Method: "GET", Path: apiPrefix + "/forms?limit=2&offset=1", Key: key, ExpectedStatus: 200,
			NotExpectedContent: []string{`"questions"`}, // list items carry no questions
			Check: checks(fields(obj{"total": 5, "hasMore": true, "limit": 2, "offset": 1}), func(t *testing.T, r *servertest.Response) {
				forms := items(t, r.JSON(t), "forms")
				if len(forms) != 2 || forms[0]["title"] != "F4" || forms[1]["title"] != "F3" {
					t.Errorf("not the 2nd and 3rd newest: %v", forms)
				}
			}),
		}, {
			Name: "the last page", Method: "GET", Path: apiPrefix + "/forms?offset=4", Key: key, ExpectedStatus: 200,
			Check: checks(fields(obj{"hasMore": false, "limit": 50}), func(t *testing.T, r *servertest.Response) {
				if n := len(items(t, r.JSON(t), "forms")); n != 1 {
					t.Errorf("%d forms on the last page", n)
				}
			}),
		}}
		for _, q := range []string{"limit=0", "limit=101", "limit=x", "offset=-1", "offset=1.5"} {
			table = append(table, scenario{Name: q, Method: "GET", Path: apiPrefix + "/forms?" + q, Key: key,
				ExpectedStatus: 400, Check: apiError("validation_error", strings.Split(q, "=")[0])})
		}
		servertest.Run(t, env, table)
	})
}

// TestPublishAndUnpublishAreIdempotent is a sequence: each scenario starts from the
// state the previous left.
func TestPublishAndUnpublishAreIdempotent(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		env := servertest.New(t, d)
		key := env.NewKey()
		f := createForm(t, env, key, obj{"title": "P"})
		path := formPath(f)
		unpublished := `{"id":` + id(f["id"]) + `,"isPublished":false,"publishedAt":null}` + "\n"
		var published obj
		servertest.Run(t, env, []scenario{{
			Name: "publish", Method: "POST", Path: path + "/publish", Key: key, ExpectedStatus: 200,
			Check: checks(into(&published), fields(obj{"isPublished": true, "url": f["url"], "id": f["id"]}), func(t *testing.T, r *servertest.Response) {
				if !timestampRE.MatchString(fmt.Sprint(published["publishedAt"])) {
					t.Errorf("publishedAt %v", published["publishedAt"])
				}
			}),
		}, {
			Name: "publish again", Method: "POST", Path: path + "/publish", Key: key, ExpectedStatus: 200,
			BeforeTest: func(*testing.T, *scenario) { time.Sleep(5 * time.Millisecond) },
			Check: func(t *testing.T, r *servertest.Response) {
				if got := r.JSON(t)["publishedAt"]; got != published["publishedAt"] {
					t.Errorf("second publish moved publishedAt: %v -> %v", published["publishedAt"], got)
				}
			},
		},
			{Name: "unpublish", Method: "POST", Path: path + "/unpublish", Key: key, ExpectedStatus: 200, Check: bodyIs(unpublished)},
			{Name: "unpublish again", Method: "POST", Path: path + "/unpublish", Key: key, ExpectedStatus: 200, Check: bodyIs(unpublished)},
			{Name: "read unpublished", Method: "GET", Path: path, Key: key, ExpectedStatus: 200,
				ExpectedContent: []string{`"isPublished":false`, `"publishedAt":null`}},
			// A body on a body-less POST is ignored when empty.
			{Name: "publish with an empty body", Method: "POST", Path: path + "/publish", Key: key, Body: "", ExpectedStatus: 200},
		})
	})
}

func TestUpdateForm(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		env := servertest.New(t, d)
		key := env.NewKey()
		path := formPath(createForm(t, env, key, obj{"title": "Old", "questions": []any{obj{"question": "Q"}}}))
		servertest.Run(t, env, []scenario{{
			Name: "patch metadata", Method: "PATCH", Path: path, Key: key,
			Body:           obj{"title": "New", "description": "D", "displayMode": "multi-step"},
			ExpectedStatus: 200,
			ExpectedContent: []string{`"title":"New"`, `"description":"D"`, `"displayMode":"multi-step"`,
				`"webhook":`}, // the update-form response carries webhook, not questions
			NotExpectedContent: []string{`"questions"`},
		}, {
			Name: "a failed patch", Method: "PATCH", Path: path, Key: key, Body: obj{"title": "Newer", "displayMode": "carousel"},
			ExpectedStatus: 400, Check: apiError("validation_error", "displayMode"),
		}, {
			Name: "a failed patch changes nothing", Method: "GET", Path: path, Key: key, ExpectedStatus: 200,
			ExpectedContent: []string{`"title":"New"`},
		}})
	})
}

// TestWebhookSettingTransitions is a sequence: each scenario starts from the webhook
// setting the previous left.
func TestWebhookSettingTransitions(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		env := servertest.New(t, d)
		key := env.NewKey()
		path := formPath(createForm(t, env, key, obj{"title": "W"}))
		patch := func(name string, body any, webhook string) scenario {
			return scenario{Name: name, Method: "PATCH", Path: path, Key: key, Body: body, ExpectedStatus: 200,
				ExpectedContent: []string{`"webhook":{` + webhook}}
		}
		refused := func(name string, body any, mentions string) scenario {
			return scenario{Name: name, Method: "PATCH", Path: path, Key: key, Body: body, ExpectedStatus: 400,
				Check: apiError("validation_error", mentions)}
		}
		table := []scenario{
			refused("enable without a URL", obj{"webhookEnabled": true}, "webhookEnabled"),
			patch("enable with a URL in the same request", obj{"webhookUrl": "https://hooks.example.com/a", "webhookEnabled": true},
				`"enabled":true,"url":"https://hooks.example.com/a"}`),
			patch("disable keeps the URL", obj{"webhookEnabled": false}, `"enabled":false,"url":"https://hooks.example.com/a"}`),
			patch("enable with the stored URL", obj{"webhookEnabled": true}, `"enabled":true,`),
			patch("an empty URL clears and disables", obj{"webhookUrl": ""}, `"enabled":false,"url":null}`),
			patch("set another URL", obj{"webhookUrl": "https://hooks.example.com/b", "webhookEnabled": true}, `"enabled":true,`),
			patch("a null URL clears and disables", obj{"webhookUrl": nil}, `"enabled":false,"url":null}`),
		}
		for _, bad := range []string{"ftp://example.com/x", "http://127.0.0.1/x", "http://localhost:8080/", "http://10.0.0.1/",
			"http://192.168.1.1/", "http://172.16.0.1/", "http://[::1]/", "http://169.254.169.254/latest", "not a url",
			"https://example.com/" + strings.Repeat("a", 2000)} {
			table = append(table, refused("refuse "+clipName(bad), obj{"webhookUrl": bad}, "webhookUrl"))
		}
		table = append(table,
			refused("a URL that is a number", obj{"webhookUrl": 5}, "webhookUrl"),
			refused("no field", obj{}, "at least one"))
		servertest.Run(t, env, table)
	})
}

func TestPrivateWebhooksAllowedInDevelopment(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		env := servertest.New(t, d, func(c *config.Config) { c.AllowPrivateWebhooks = true })
		key := env.NewKey()
		servertest.Run(t, env, []scenario{{Name: "a loopback webhook", Method: "PATCH",
			Path: formPath(createForm(t, env, key, obj{"title": "W"})), Key: key,
			Body: obj{"webhookUrl": "http://127.0.0.1:9000/hook"}, ExpectedStatus: 200}})
	})
}

func TestDeleteForm(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		env := servertest.New(t, d)
		key := env.NewKey()
		path := formPath(createForm(t, env, key, obj{"title": "D", "questions": []any{obj{"question": "Q"}}}))
		servertest.Run(t, env, []scenario{
			{Name: "delete", Method: "DELETE", Path: path, Key: key, ExpectedStatus: 204, Check: emptyBody},
			{Name: "read deleted", Method: "GET", Path: path, Key: key, ExpectedStatus: 404, Check: apiError("not_found", "Form not found")},
			{Name: "delete again", Method: "DELETE", Path: path, Key: key, ExpectedStatus: 404, Check: apiError("not_found", "Form not found")},
		})
	})
}

// clipName shortens a request detail (a body, a value) to name a scenario.
func clipName(s string) string {
	if r := []rune(s); len(r) > 40 {
		return string(r[:40]) + "…"
	}
	return s
}
