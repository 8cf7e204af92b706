package api_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"forma/internal/config"
	"forma/internal/server/servertest"
	"forma/internal/store"
)

func withAllowances(spec string) func(*config.Config) {
	return func(c *config.Config) { c.Allowances = spec; c.SubmitLimit = 0 }
}

// historyTotal reads the usage history and checks how many charges it has.
func historyTotal(key string, total int) scenario {
	return scenario{Method: "GET", Path: apiPrefix + "/usage/history", Key: key, ExpectedStatus: 200, Check: fields(obj{"total": total})}
}

func TestGenerateFormChargesCredits(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		env := servertest.New(t, d)
		key := env.NewKey()
		var f obj
		table := []scenario{{
			Name: "generate", Method: "POST", Path: apiPrefix + "/forms/generate", Key: key,
			Body:            obj{"prompt": "a job application form asking for name, email, phone, years of experience, a resume upload and how they heard about us (LinkedIn, a friend, a job board)"},
			ExpectedStatus:  201,
			ExpectedHeaders: map[string]string{"X-Credits-Used": "5", "X-Credits-Remaining": "95"},
			Check: checks(into(&f), fields(obj{"isPublished": false}), func(t *testing.T, r *servertest.Response) {
				qs := items(t, f, "questions")
				if len(qs) < 5 || f["title"] == "" {
					t.Errorf("%d questions, title %q", len(qs), f["title"])
				}
				types := map[string]bool{}
				for _, q := range qs {
					types[q["type"].(string)] = true
				}
				for _, want := range []string{"email", "phone", "file_upload", "select"} {
					if !types[want] {
						t.Errorf("no %s question", want)
					}
				}
			}),
		}, {
			Name: "the charge is in the history", Method: "GET", Path: apiPrefix + "/usage/history", Key: key, ExpectedStatus: 200,
			Check: checks(fields(obj{"total": 1}), func(t *testing.T, r *servertest.Response) {
				entry := items(t, r.JSON(t), "history")[0]
				if entry["endpoint"] != "forms.generate" || entry["creditsConsumed"] != 5.0 || entry["formId"] != f["id"] ||
					entry["formName"] != f["title"] || !timestampRE.MatchString(fmt.Sprint(entry["createdAt"])) {
					t.Errorf("history entry: %v", entry)
				}
			}),
		}}
		// A useless prompt is a 400 and charges nothing.
		for _, bad := range []obj{{"prompt": ""}, {"prompt": "asdf qwer"}, {}} {
			table = append(table, scenario{Name: fmt.Sprintf("refuse %v", bad), Method: "POST", Path: apiPrefix + "/forms/generate", Key: key,
				Body: bad, ExpectedStatus: 400, ExpectedHeaders: map[string]string{"X-Credits-Used": "0"}, Check: apiError("validation_error", "prompt")})
		}
		servertest.Run(t, env, append(table,
			historyTotal(key, 1),
			scenario{Name: "usage after one generation", Method: "GET", Path: apiPrefix + "/usage", Key: key, ExpectedStatus: 200,
				Check: fields(obj{"creditsRemaining": 95})}))
	})
}

// TestFreePlanRunsOutAndPaidPlansGoIntoOverage is a sequence: each generation spends
// credits of the allowance.
func TestFreePlanRunsOutAndPaidPlansGoIntoOverage(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		env := servertest.New(t, d, withAllowances("free=10,builder=5"))
		free := env.NewKey()
		paid := env.Key(env.Account("builder"), nil, nil)
		generate := func(name, key string, status int) scenario {
			return scenario{Name: name, Method: "POST", Path: apiPrefix + "/forms/generate", Key: key,
				Body: obj{"prompt": "a contact form"}, ExpectedStatus: status}
		}
		refused := generate("free: out of credits", free, 402)
		refused.ExpectedHeaders = map[string]string{"X-Credits-Remaining": "0"}
		refused.Check = apiError("insufficient_credits", "credits")
		servertest.Run(t, env, []scenario{
			generate("free: first", free, 201),
			generate("free: second", free, 201),
			refused,
			{Name: "free: no form for the refused one", Method: "GET", Path: apiPrefix + "/forms", Key: free, ExpectedStatus: 200,
				Check: fields(obj{"total": 2})},
			generate("builder: within the allowance", paid, 201),
			generate("builder: overage", paid, 201),
			{Name: "builder: usage past the allowance", Method: "GET", Path: apiPrefix + "/usage", Key: paid, ExpectedStatus: 200,
				Check: fields(obj{"overageCreditsUsed": 5, "creditsRemaining": 0, "creditsMonthlyAllowance": 5})},
		})
	})
}

// TestConcurrentChargesForTheLastCredits races two generations for the credits of
// one.
func TestConcurrentChargesForTheLastCredits(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		env := servertest.New(t, d, withAllowances("free=5"))
		key := env.NewKey()
		var wg sync.WaitGroup
		statuses := make([]int, 2)
		for i := range statuses {
			wg.Go(func() {
				statuses[i] = env.Do("POST", apiPrefix+"/forms/generate", key, obj{"prompt": "an RSVP form"}).Status
			})
		}
		wg.Wait()
		if !(statuses[0] == 201 && statuses[1] == 402 || statuses[0] == 402 && statuses[1] == 201) {
			t.Errorf("statuses %v, want one 201 and one 402", statuses)
		}
		historyTotal(key, 1).Test(t, env)
	})
}

func TestAnalytics(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		env := servertest.New(t, d, withAllowances(""))
		key := env.Key(env.Account("scale"), nil, nil)
		path, token, q := publishedForm(t, env, key, `{"title":"Feedback","questions":[
			{"type":"rating","question":"How would you rate us?","required":true},
			{"type":"select","question":"Plan","options":["Free","Pro"]},
			{"type":"textarea","question":"Comments"}]}`)
		analytics := path + "/analytics"
		var a obj
		servertest.Run(t, env, []scenario{{
			Name: "before the first generation", Method: "GET", Path: analytics, Key: key, ExpectedStatus: 404,
			Check: apiError("not_found", "not been generated"),
		}, {
			Name: "generate", Method: "POST", Path: analytics + "/generate", Key: key, ExpectedStatus: 200,
			BeforeTest: func(t *testing.T, _ *scenario) {
				for _, a := range []string{`5,"Pro","Great product, love it"`, `4,"Pro","Good"`, `2,"Free","Slow and buggy"`, `5,"Pro","Excellent support"`} {
					parts := strings.SplitN(a, ",", 3)
					submit(t, env, token, fmt.Sprintf(`{"%s":%s,"%s":%s,"%s":%s}`, q[0], parts[0], q[1], parts[1], q[2], parts[2]))
				}
				// One started, never completed session: completion 4 of 5.
				expectStatus(t, env.For(t).Do("POST", "/f/"+token+"/sessions", "", nil), 201)
			},
			ExpectedHeaders: map[string]string{"X-Credits-Used": "10"},
			Check: checks(into(&a), fields(obj{"totalResponses": 4, "completionRate": 80, "formId": mustInt(path[len(apiPrefix+"/forms/"):])}),
				func(t *testing.T, r *servertest.Response) {
					ins := a["insights"].(obj)
					km := ins["keyMetrics"].(obj)
					for _, k := range []string{"responseRate", "topAnswer", "sentiment"} {
						if s, _ := km[k].(string); s == "" {
							t.Errorf("keyMetrics.%s missing: %v", k, km)
						}
					}
					if s, _ := ins["summary"].(string); !strings.Contains(s, "4") {
						t.Errorf("summary does not state the count: %q", s)
					}
					if _, ok := ins["insights"].([]any); !ok {
						t.Errorf("insights.insights: %v", ins)
					}
					if _, ok := ins["recommendations"].([]any); !ok {
						t.Errorf("insights.recommendations: %v", ins)
					}
				}),
		}, {
			Name: "read the analysis", Method: "GET", Path: analytics, Key: key, ExpectedStatus: 200,
			Check: func(t *testing.T, r *servertest.Response) {
				fields(obj{"id": a["id"], "lastAnalyzed": a["lastAnalyzed"]})(t, r)
			},
		}, {
			Name: "regenerate after a new response", Method: "POST", Path: analytics + "/generate", Key: key, ExpectedStatus: 200,
			BeforeTest: func(t *testing.T, _ *scenario) {
				time.Sleep(5 * time.Millisecond)
				submit(t, env, token, fmt.Sprintf(`{"%s":1}`, q[0]))
			},
			// Regeneration overwrites in place.
			Check: func(t *testing.T, r *servertest.Response) {
				fields(obj{"id": a["id"], "totalResponses": 5})(t, r)
				if r.JSON(t)["lastAnalyzed"] == a["lastAnalyzed"] {
					t.Errorf("lastAnalyzed unchanged: %v", a["lastAnalyzed"])
				}
			},
		}, {
			Name: "both charges are in the history", Method: "GET", Path: apiPrefix + "/usage/history", Key: key, ExpectedStatus: 200,
			Check: checks(fields(obj{"total": 2}), func(t *testing.T, r *servertest.Response) {
				if e := items(t, r.JSON(t), "history")[0]; e["endpoint"] != "analytics.generate" {
					t.Errorf("newest charge: %v", e)
				}
			}),
		}})
	})
}

func TestChatConversations(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		env := servertest.New(t, d, withAllowances(""))
		key := env.Key(env.Account("builder"), nil, nil)
		path, token, q := publishedForm(t, env, key, `{"title":"Feedback","questions":[
			{"type":"rating","question":"How would you rate us?"},{"type":"yes_no","question":"Would you recommend us?"}]}`)
		for _, r := range []string{"5,true", "4,true", "1,false"} {
			parts := strings.Split(r, ",")
			submit(t, env, token, fmt.Sprintf(`{"%s":%s,"%s":%s}`, q[0], parts[0], q[1], parts[1]))
		}
		chat := path + "/chat"
		var conv, conv2, msgs obj
		messages := pathFrom(func() string { return fmt.Sprintf("%s/%v/messages", chat, conv["id"]) })
		refused := func(name, method string, body any, status int, code, mentions string) scenario {
			return scenario{Name: name, Method: method, Key: key, Body: body, ExpectedStatus: status, Check: apiError(code, mentions)}
		}
		ask := func(name string, body any, mentions string) scenario {
			s := refused(name, "POST", body, 400, "validation_error", mentions)
			s.BeforeTest = messages
			return s
		}
		table := []scenario{{
			Name: "start a conversation", Method: "POST", Path: chat, Key: key, ExpectedStatus: 201,
			Check: checks(into(&conv), func(t *testing.T, r *servertest.Response) {
				if conv["formId"] != float64(mustInt(path[len(apiPrefix+"/forms/"):])) || conv["createdAt"] != conv["updatedAt"] {
					t.Errorf("conversation: %v", conv)
				}
			}),
		}, {
			Name: "start another", Method: "POST", Path: chat, Key: key, ExpectedStatus: 201, Check: into(&conv2),
		}, {
			Name: "ask", Method: "POST", Key: key, Body: obj{"message": "How many responses are there?"}, ExpectedStatus: 201,
			BeforeTest: func(t *testing.T, s *scenario) {
				time.Sleep(5 * time.Millisecond)
				messages(t, s)
			},
			ExpectedHeaders: map[string]string{"X-Credits-Used": "2"},
			Check: func(t *testing.T, r *servertest.Response) {
				ex := r.JSON(t)
				user, asst := ex["userMessage"].(obj), ex["assistantMessage"].(obj)
				if user["role"] != "user" || user["message"] != "How many responses are there?" || asst["role"] != "assistant" {
					t.Errorf("exchange: %v", ex)
				}
				if !strings.Contains(asst["message"].(string), "3") {
					t.Errorf("answer does not say 3: %q", asst["message"])
				}
			},
		}, {
			Name: "ask again", Method: "POST", Key: key, Body: obj{"message": "What is the average rating?"}, ExpectedStatus: 201, BeforeTest: messages,
			Check: func(t *testing.T, r *servertest.Response) {
				// The reply states its computation: the statistic, the question and the count.
				reply := r.JSON(t)["assistantMessage"].(obj)["message"].(string)
				for _, part := range []string{"average", "“How would you rate us?”", "3.33", "3 answers"} {
					if !strings.Contains(reply, part) {
						t.Errorf("reply %q does not state %q", reply, part)
					}
				}
			},
		}, {
			Name: "the messages", Method: "GET", Key: key, ExpectedStatus: 200, BeforeTest: messages,
			Check: checks(into(&msgs), fields(obj{"total": 4}), func(t *testing.T, r *servertest.Response) {
				if list := items(t, msgs, "messages"); len(list) != 4 || list[0]["role"] != "user" || list[3]["role"] != "assistant" {
					t.Errorf("messages: %v", list)
				}
			}),
		}, {
			Name: "a page of messages", Method: "GET", Key: key, ExpectedStatus: 200,
			BeforeTest: func(t *testing.T, s *scenario) {
				messages(t, s)
				s.Path += "?limit=1&offset=1"
			},
			Check: checks(fields(obj{"hasMore": true}), func(t *testing.T, r *servertest.Response) {
				if page := items(t, r.JSON(t), "messages"); len(page) != 1 || page[0]["id"] != items(t, msgs, "messages")[1]["id"] {
					t.Errorf("messages page: %v", page)
				}
			}),
		}, {
			Name: "conversations by updatedAt", Method: "GET", Path: chat, Key: key, ExpectedStatus: 200,
			Check: checks(fields(obj{"total": 2}), func(t *testing.T, r *servertest.Response) {
				if first := items(t, r.JSON(t), "conversations")[0]; first["id"] != conv["id"] || first["updatedAt"] == conv["updatedAt"] {
					t.Errorf("first conversation: %v", first)
				}
			}),
		},
			ask("message too long", obj{"message": strings.Repeat("a", 5001)}, "message"),
			ask("empty message", obj{"message": ""}, "message"),
			ask("blank message", obj{"message": "   "}, "message"),
			ask("no message", obj{}, "message"),
		}
		for _, bad := range []string{"limit=51", "limit=0", "offset=-1"} {
			s := refused("conversations "+bad, "GET", nil, 400, "validation_error", strings.Split(bad, "=")[0])
			s.Path = chat + "?" + bad
			table = append(table, s)
		}
		tooMany := refused("messages limit=101", "GET", nil, 400, "validation_error", "limit")
		tooMany.BeforeTest = func(t *testing.T, s *scenario) {
			messages(t, s)
			s.Path += "?limit=101"
		}
		deleted := refused("messages of a deleted conversation", "GET", nil, 404, "not_found", "Conversation not found")
		deleted.BeforeTest = pathFrom(func() string { return fmt.Sprintf("%s/%v/messages", chat, conv2["id"]) })
		unknown := refused("ask in an unknown conversation", "POST", obj{"message": "hi"}, 404, "not_found", "Conversation not found")
		unknown.Path = chat + "/999999/messages"
		servertest.Run(t, env, append(table, tooMany,
			scenario{Name: "delete a conversation", Method: "DELETE", Key: key, ExpectedStatus: 204,
				BeforeTest: pathFrom(func() string { return fmt.Sprintf("%s/%v", chat, conv2["id"]) })},
			deleted, unknown))
	})
}

// TestUsageHistoryScopeAndDeletedForms: a form-scoped key sees only its form's
// charges (not other forms' names), and a deleted form's charges keep its name but
// lose its id.
func TestUsageHistoryScopeAndDeletedForms(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		env := servertest.New(t, d)
		acct := env.Account("builder")
		key := env.Key(acct, nil, nil)
		generated := postJSON(t, env, key, apiPrefix+"/forms/generate", obj{"prompt": "a secret launch survey with name and email"})
		kept := createForm(t, env, key, obj{"title": "Kept", "questions": []obj{{"type": "text", "question": "Name"}}})
		expectStatus(t, env.Do("POST", formPath(kept)+"/analytics/generate", key, nil), 200)
		keptID := int64(kept["id"].(float64))
		scoped := env.Key(acct, nil, &keptID)
		entry := func(want obj) check {
			return func(t *testing.T, r *servertest.Response) {
				t.Helper()
				for _, e := range items(t, r.JSON(t), "history") {
					if e["endpoint"] == want["endpoint"] {
						for k, v := range want {
							sameJSON(t, k, e[k], v)
						}
						return
					}
				}
				t.Errorf("no %v entry in %s", want["endpoint"], r.Body)
			}
		}
		history := apiPrefix + "/usage/history"
		servertest.Run(t, env, []scenario{
			{Name: "the scoped key sees its form's charges only", Method: "GET", Path: history, Key: scoped, ExpectedStatus: 200,
				NotExpectedContent: []string{generated["title"].(string), "forms.generate"},
				Check:              checks(fields(obj{"total": 1}), entry(obj{"endpoint": "analytics.generate", "formId": keptID}))},
			{Name: "the account's key sees both", Method: "GET", Path: history, Key: key, ExpectedStatus: 200,
				Check: checks(fields(obj{"total": 2}), entry(obj{"endpoint": "forms.generate", "formId": generated["id"]}))},
			{Name: "delete the generated form", Method: "DELETE", Path: formPath(generated), Key: key, ExpectedStatus: 204},
			{Name: "its charge keeps the name, its id becomes null", Method: "GET", Path: history, Key: key, ExpectedStatus: 200,
				Check: checks(fields(obj{"total": 2}),
					entry(obj{"endpoint": "forms.generate", "formId": nil, "formName": generated["title"]}),
					entry(obj{"endpoint": "analytics.generate", "formId": keptID}))},
		})
	})
}
