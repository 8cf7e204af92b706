package api_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"forma/internal/config"
	"forma/internal/form"
	"forma/internal/server/servertest"
	"forma/internal/store"
)

// conformClosing drives a form through its closing: its settings through create,
// get, list and update, and every respondent operation that adds to its responses
// through 410 form_closed, once by its response limit and once by its closing
// time.
func conformClosing(t *testing.T, s *suite) {
	c := s.start(t, func(cfg *config.Config) {
		cfg.SubmitLimit, cfg.SessionLimit, cfg.SaveLimit = 0, 0, 0
	})
	key := c.env.NewKey()
	message := "Sold out — <b>see</b> you next year"
	f := c.create(t, key, obj{"title": "Tickets", "questions": respondentQuestions, "closesAt": "2999-12-24T19:00:00+01:00",
		"maxResponses": 2, "closedMessage": message, "thankYou": obj{"title": "See you there!"}})
	fp, share := formPath(f), "/f/"+f["shareUrl"].(string)
	q := questionIDs(t, f)
	name := func(v string) obj { return obj{"answers": obj{q[0]: v}} }
	var session obj
	inSession := func(suffix string) func(*testing.T, *scenario) {
		return func(_ *testing.T, sc *scenario) {
			sc.Path = share + "/sessions/" + session["id"].(string) + suffix
			sc.Header = map[string]string{"X-Resume-Token": session["resumeToken"].(string)}
		}
	}
	closed := apiError("form_closed", message)
	c.run(t, []row{
		call(200, "GET", fp, key, nil, fields(obj{"closesAt": "2999-12-24T18:00:00.000Z", "maxResponses": 2,
			"closedMessage": message, "thankYou": obj{"title": "See you there!"}, "closed": false})).named("the settings as created"),
		call(200, "POST", fp+"/publish", key, nil),
		call(201, "POST", share+"/sessions", "", nil, into(&session)).named("a session started while open"),
		call(201, "POST", share+"/submissions", "", name("Ada"),
			fields(obj{"thankYou": obj{"title": "See you there!", "message": ""}})).named("the first of two"),
		call(201, "POST", share+"/submissions", "", name("Grace")).named("the second of two"),
		call(200, "GET", fp, key, nil, fields(obj{"closed": true})).named("full"),
		call(200, "GET", apiPrefix+"/forms", key, nil, func(t *testing.T, r *servertest.Response) {
			if list := items(t, r.JSON(t), "forms"); len(list) != 1 || list[0]["closed"] != true || list[0]["maxResponses"] != 2.0 {
				t.Errorf("listed %v, want the full form, closed", list)
			}
		}).named("listed as closed"),
		call(410, "GET", share+"/definition", "", nil, closed),
		call(410, "POST", share+"/submissions", "", name("Eve"), closed).named("a third submission"),
		call(410, "POST", share+"/sessions", "", nil, closed).named("a session started when full"),
		call(410, "PATCH", "", "", name("Eve"), closed).named("a save when full").before(inSession("")),
		call(410, "POST", "", "", name("Eve"), closed).named("a completion when full").before(inSession("/complete")),
		uploadRow(t, 410, share, "cv.png", pngImage(t)).named("an upload when full").withCheck(closed),
		call(200, "GET", fp+"/responses", key, nil, fields(obj{"total": 2})).named("two responses, no more"),
		call(200, "PATCH", fp, key, obj{"maxResponses": nil, "closedMessage": nil, "closesAt": "2000-01-01T00:00:00Z"},
			fields(obj{"closesAt": "2000-01-01T00:00:00.000Z", "closed": true}), absent("maxResponses", "closedMessage")).named("closed by time instead"),
		call(410, "POST", share+"/submissions", "", name("Eve"), apiError("form_closed", form.DefaultClosedMessage)).named("the default message"),
		call(200, "PATCH", fp, key, obj{"closesAt": nil, "thankYou": nil}, fields(obj{"closed": false}), absent("closesAt", "thankYou")).named("open again"),
		call(201, "POST", share+"/submissions", "", name("Eve"), absent("thankYou", "redirectUrl")).named("taken again"),
	})
}

// absent checks that a JSON object body has none of the keys.
func absent(keys ...string) check {
	return func(t *testing.T, r *servertest.Response) {
		t.Helper()
		body := r.JSON(t)
		for _, k := range keys {
			if v, ok := body[k]; ok {
				t.Errorf("%s = %v, want it absent", k, v)
			}
		}
	}
}

// TestClosingAndThankYouValidation: every closing and thank-you field is checked
// on create and on update, each refusal a 400 that names its field, and nothing
// is saved by a refused request.
func TestClosingAndThankYouValidation(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		env := servertest.New(t, d)
		key := env.NewKey()
		f := createForm(t, env, key, obj{"title": "Survey", "questions": []obj{{"question": "Name"}, {"question": "Plan"}}})
		fp, q := formPath(f), questionIDs(t, f)
		q1 := mustInt(q[0])
		redirect := func(params ...obj) obj {
			return obj{"thankYou": obj{"redirectUrl": "https://example.com/welcome", "redirectParams": params}}
		}
		var rows []scenario
		refused := func(field string, body obj) {
			rows = append(rows, scenario{Name: "PATCH " + field + " " + clipName(fmt.Sprint(body)), Method: "PATCH", Path: fp, Key: key,
				Body: body, ExpectedStatus: 400, Check: apiError("validation_error", field)})
		}
		for _, v := range []any{"tomorrow", "2026-12-24T18:00:00", "2026-12-24", "", 5, "2026-13-01T00:00:00Z"} {
			refused("closesAt", obj{"closesAt": v})
		}
		for _, v := range []any{0, -1, form.MaxResponsesLimit + 1, 2.5, "5", true} {
			refused("maxResponses", obj{"maxResponses": v})
		}
		for _, v := range []any{"   ", strings.Repeat("x", form.MaxClosedMessageLen+1), "a\x00b", "a\rb", 7} {
			refused("closedMessage", obj{"closedMessage": v})
		}
		for _, c := range []struct {
			field string
			body  obj
		}{
			{"thankYou", obj{"thankYou": obj{"title": "Thanks", "redirectUrl": "https://example.com"}}},
			{"thankYou.titel", obj{"thankYou": obj{"titel": "Thanks"}}},
			{"thankYou", obj{"thankYou": "Thanks"}},
			{"thankYou.title", obj{"thankYou": obj{"title": strings.Repeat("x", form.MaxThankYouTitleLen+1)}}},
			{"thankYou.title", obj{"thankYou": obj{"title": "two\nlines"}}},
			{"thankYou.message", obj{"thankYou": obj{"message": strings.Repeat("x", form.MaxThankYouMessageLen+1)}}},
			{"thankYou.message", obj{"thankYou": obj{"message": "Hi {{999999}}"}}},
			{"thankYou.title", obj{"thankYou": obj{"title": "Hi {{ 0 }}"}}},
			{"thankYou.redirectParams", obj{"thankYou": obj{"redirectParams": []obj{{"questionId": q1, "name": "n"}}}}},
			{"thankYou.redirectParams[0].questionId", redirect(obj{"questionId": 999999, "name": "n"})},
			{"thankYou.redirectParams[0].name", redirect(obj{"questionId": q1, "name": ""})},
			{"thankYou.redirectParams[1].name", redirect(obj{"questionId": q1, "name": "n"}, obj{"questionId": q1, "name": "n"})},
			{"thankYou.redirectParams[0].nom", redirect(obj{"questionId": q1, "nom": "n"})},
			{"thankYou.redirectParams", redirect(make([]obj, form.MaxRedirectParams+1)...)},
		} {
			refused(c.field, c.body)
		}
		for _, u := range []string{"javascript:alert(1)", "ftp://example.com/x", "/welcome", "example.com/welcome", "https://",
			"https://user:secret@example.com/", "https://exa;mple.com/", "https://bücher.example/", "https://example.com/\nx",
			"https://example.com/" + strings.Repeat("a", form.MaxRedirectURLLen)} {
			refused("thankYou.redirectUrl", obj{"thankYou": obj{"redirectUrl": u}})
		}
		refused("closesAt, maxResponses, closedMessage, thankYou", obj{})
		rows = append(rows,
			scenario{Name: "create piping an answer", Method: "POST", Path: apiPrefix + "/forms", Key: key, ExpectedStatus: 400,
				Body:  obj{"title": "T", "questions": []obj{{"question": "Name"}}, "thankYou": obj{"message": "Hi {{1}}"}},
				Check: apiError("validation_error", "thankYou.message: {{1}} cannot name a question on create")},
			scenario{Name: "create with a bad limit", Method: "POST", Path: apiPrefix + "/forms", Key: key, ExpectedStatus: 400,
				Body: obj{"title": "T", "maxResponses": 0}, Check: apiError("validation_error", "maxResponses")},
			scenario{Name: "nothing was saved", Method: "GET", Path: fp, Key: key, ExpectedStatus: 200,
				Check: absent("closesAt", "maxResponses", "closedMessage", "thankYou")},
			scenario{Name: "a valid redirect", Method: "PATCH", Path: fp, Key: key, ExpectedStatus: 200,
				Body: redirect(obj{"questionId": q1, "name": "plan"}), Check: fields(redirect(obj{"questionId": q1, "name": "plan"}))},
			scenario{Name: "an empty thank-you removes it", Method: "PATCH", Path: fp, Key: key, ExpectedStatus: 200,
				Body: obj{"thankYou": obj{}}, Check: absent("thankYou")},
			scenario{Name: "create with every setting", Method: "POST", Path: apiPrefix + "/forms", Key: key, ExpectedStatus: 201,
				Body: obj{"title": "T", "closesAt": "2026-12-24T19:00:00.123456+01:00", "maxResponses": form.MaxResponsesLimit,
					"closedMessage": "Closed.\nSee you", "thankYou": obj{"title": "Thanks", "message": "Bye"}},
				Check: fields(obj{"closesAt": "2026-12-24T18:00:00.123Z", "maxResponses": form.MaxResponsesLimit,
					"closedMessage": "Closed.\nSee you", "thankYou": obj{"title": "Thanks", "message": "Bye"}})},
		)
		servertest.Run(t, env, rows)
	})
}

// TestThankYouInCompletions: the answer of a one-shot submission and of a
// session completion carries the form's screen with the answers piped in, as
// text (an answer that looks like HTML or like a placeholder comes back as it
// was typed), or its redirect URL with the chosen answers URL-encoded.
func TestThankYouInCompletions(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		env := servertest.New(t, d)
		key := env.NewKey()
		fp, share, q := publishedForm(t, env, key, obj{"title": "Sign-up", "questions": []obj{
			{"question": "Name", "required": true}, {"type": "select", "question": "Plan", "options": []string{"Pro & more", "Basic"}},
			{"type": "multi_select", "question": "Extras", "options": []string{"A", "B"}}}})
		xss := `<img src=x onerror=alert(1)>{{` + q[1] + `}}`
		screen := obj{"title": "Thanks, {{" + q[0] + "}}!", "message": "Plan: {{" + q[1] + "}}\nExtras: {{ " + q[2] + " }}"}
		expectStatus(t, env.Do("PATCH", fp, key, obj{"thankYou": screen}), 200)
		answers := obj{q[0]: xss, q[1]: "Pro & more", q[2]: []string{"A", "B"}}
		want := obj{"title": "Thanks, " + xss + "!", "message": "Plan: Pro & more\nExtras: A, B"}
		r := env.Do("POST", "/f/"+share+"/submissions", "", obj{"answers": answers})
		expectStatus(t, r, 201)
		fields(obj{"thankYou": want})(t, r)
		absent("redirectUrl")(t, r)

		expectStatus(t, env.Do("PATCH", fp, key, obj{"thankYou": obj{"redirectUrl": "https://example.com/welcome?ref=forma#top",
			"redirectParams": []obj{{"questionId": mustInt(q[1]), "name": "plan"}, {"questionId": mustInt(q[0]), "name": "who"},
				{"questionId": mustInt(q[2]), "name": "extras"}}}}), 200)
		started := env.Do("POST", "/f/"+share+"/sessions", "", nil)
		expectStatus(t, started, 201)
		s := started.JSON(t)
		req := env.NewRequest("POST", "/f/"+share+"/sessions/"+s["id"].(string)+"/complete", "", obj{"answers": obj{q[0]: "Ada Lovelace", q[1]: "Pro & more"}})
		req.Header.Set("X-Resume-Token", s["resumeToken"].(string))
		r = env.Send(req)
		expectStatus(t, r, 200)
		wantURL := "https://example.com/welcome?ref=forma&plan=Pro+%26+more&who=Ada+Lovelace#top"
		fields(obj{"redirectUrl": wantURL})(t, r)
		absent("thankYou")(t, r)
		u, err := url.Parse(wantURL)
		if err != nil || u.Query().Get("plan") != "Pro & more" || u.Query().Get("who") != "Ada Lovelace" || u.Query().Has("extras") {
			t.Errorf("redirect %s does not carry the answers as query parameters", wantURL)
		}
	})
}

// TestFormClosesAtItsTime: by the store's clock, a form takes submissions until
// its closesAt and refuses them from then on, and the API says so.
func TestFormClosesAtItsTime(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		closes := time.Date(2026, 12, 24, 18, 0, 0, 0, time.UTC)
		var now atomic.Int64
		now.Store(closes.Add(-time.Second).UnixMilli())
		st := servertest.OpenStore(t, d)
		st.Now = func() time.Time { return time.UnixMilli(now.Load()).UTC() }
		env := servertest.Start(t, st)
		key := env.NewKey()
		fp, share, q := publishedForm(t, env, key, obj{"title": "Advent", "questions": []obj{{"question": "Name"}},
			"closesAt": "2026-12-24T18:00:00Z", "closedMessage": "The calendar is closed."})
		answer := obj{"answers": obj{q[0]: "Ada"}}
		servertest.Run(t, env, []scenario{
			{Name: "a second before", Method: "POST", Path: "/f/" + share + "/submissions", Body: answer, ExpectedStatus: 201},
			{Name: "open", Method: "GET", Path: fp, Key: key, ExpectedStatus: 200, Check: fields(obj{"closed": false})},
			{Name: "at the time", Method: "POST", Path: "/f/" + share + "/submissions", Body: answer, ExpectedStatus: 410,
				BeforeTest: func(*testing.T, *scenario) { now.Store(closes.UnixMilli()) },
				Check:      apiError("form_closed", "The calendar is closed.")},
			{Name: "closed", Method: "GET", Path: fp, Key: key, ExpectedStatus: 200, Check: fields(obj{"closed": true})},
			{Name: "the page says so", Method: "GET", Path: "/f/" + share, ExpectedStatus: 410, Check: func(t *testing.T, r *servertest.Response) {
				if !strings.Contains(string(r.Body), "The calendar is closed.") {
					t.Errorf("closed page without its message:\n%s", r.Body)
				}
			}},
		})
	})
}

// TestResponseLimitAcrossServers: 40 respondents submit at once to a form that
// takes 9 responses, through two servers sharing one PostgreSQL database (one
// server on SQLite, which serves one process): exactly 9 are accepted (201), the
// others get 410 form_closed, and the form lists exactly those 9.
func TestResponseLimitAcrossServers(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		unlimited := func(c *config.Config) { c.SubmitLimit = 0 }
		var envs []*servertest.Env
		if d == store.Postgres {
			for _, st := range servertest.OpenStores(t, 2) {
				envs = append(envs, servertest.Start(t, st, unlimited))
			}
		} else {
			envs = append(envs, servertest.New(t, d, unlimited))
		}
		key := envs[0].NewKey()
		const max, n = 9, 40
		fp, share, q := publishedForm(t, envs[0], key, obj{"title": "Nine seats", "questions": []obj{{"question": "Name"}},
			"maxResponses": max, "closedMessage": "All seats are taken."})
		var (
			mu       sync.Mutex
			accepted = map[string]bool{}
			statuses = map[int]int{}
			wg       sync.WaitGroup
			start    = make(chan struct{})
		)
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				r := envs[i%len(envs)].For(t).Do("POST", "/f/"+share+"/submissions", "", obj{"answers": obj{q[0]: fmt.Sprint("Respondent ", i)}})
				mu.Lock()
				defer mu.Unlock()
				statuses[r.Status]++
				switch r.Status {
				case http.StatusCreated:
					accepted[r.JSON(t)["id"].(string)] = true
				case http.StatusGone:
					apiError("form_closed", "All seats are taken.")(t, r)
				}
			}()
		}
		close(start)
		wg.Wait()
		if statuses[http.StatusCreated] != max || statuses[http.StatusGone] != n-max {
			t.Fatalf("statuses %v, want %d × 201 and %d × 410", statuses, max, n-max)
		}
		listed := listedIDs(t, envs[len(envs)-1], key, fp)
		if len(listed) != max {
			t.Fatalf("%d responses listed, want %d", len(listed), max)
		}
		for _, id := range listed {
			if !accepted[id] {
				t.Errorf("listed %s, which was not accepted", id)
			}
		}
	})
}
