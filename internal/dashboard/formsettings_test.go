package dashboard_test

import (
	"fmt"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"forma/internal/server/servertest"
)

// settingsPath is the dashboard path of the survey's settings page, with suffix.
func (s survey) settingsPath(suffix string) string {
	return fmt.Sprintf("/forms/%d/settings%s", s.ID, suffix)
}

// apiFormBody is the form GET /api/v1/forms/{id} reports.
func apiFormBody(t *testing.T, env *servertest.Env, key string, id int64) map[string]any {
	t.Helper()
	r := env.For(t).Do("GET", fmt.Sprintf("/api/v1/forms/%d", id), key, nil)
	if r.Status != http.StatusOK {
		t.Fatalf("get form: %d %s", r.Status, r.Body)
	}
	return r.JSON(t)
}

// TestFormClosingSettings: the closing card saves what the API then reports (a
// time read as UTC, a count, a message), refuses what the API refuses at its
// field with the typed values kept and nothing stored, and clears a setting
// left empty; a full form is marked closed on its page, the forms list and the
// overview.
func TestFormClosingSettings(t *testing.T) {
	each(t, func(t *testing.T, env *servertest.Env) {
		b, key := signedInOwner(t, env, "ada@example.com")
		s := newSurvey(t, env, key, "Workshop", text)
		if p := b.get(s.settingsPath("")); p.Status != http.StatusOK || !strings.Contains(p.Body, `aria-current="page">Settings</a>`) ||
			!strings.Contains(p.Body, `<span class="badge on">Open</span>`) {
			t.Fatalf("the settings page: %d\n%s", p.Status, p.Body)
		}
		p := b.post(s.settingsPath("/closing"), url.Values{"closesAt": {"2999-12-24T18:00"}, "maxResponses": {"2"},
			"closedMessage": {"Sold out.\r\nSee you next year."}})
		if p.Status != http.StatusSeeOther || p.Location != s.settingsPath("?done=closing") {
			t.Fatalf("save: %d %s\n%s", p.Status, p.Location, p.Body)
		}
		f := apiFormBody(t, env, key, s.ID)
		if f["closesAt"] != "2999-12-24T18:00:00.000Z" || f["maxResponses"] != 2.0 || f["closedMessage"] != "Sold out.\r\nSee you next year." {
			t.Fatalf("the API reports %v", f)
		}
		for _, c := range []struct {
			values url.Values
			error  string
		}{
			{url.Values{"closesAt": {"24/12/2999"}}, "Enter a date and a time"},
			{url.Values{"maxResponses": {"ten"}}, "Enter a whole number"},
			{url.Values{"maxResponses": {"0"}}, "The number of responses must be an integer from 1 to"},
			{url.Values{"closedMessage": {"   "}}, "The message must not be blank"},
		} {
			p := b.post(s.settingsPath("/closing"), c.values)
			if p.Status != http.StatusBadRequest || !strings.Contains(p.Body, c.error) || !strings.Contains(p.Body, `aria-invalid="true"`) {
				t.Errorf("%v: %d, want 400 saying %q\n%s", c.values, p.Status, c.error, p.Body)
			}
		}
		if got := apiFormBody(t, env, key, s.ID); !reflect.DeepEqual(got, f) {
			t.Errorf("a refused post changed the form: %v", got)
		}

		s.submit(t, env, map[int]any{0: "one"})
		s.submit(t, env, map[int]any{0: "two"})
		if p := b.get(s.settingsPath("")); !strings.Contains(p.Body, `<span class="badge closed">Closed</span>`) || !strings.Contains(p.Body, "2 responses so far") {
			t.Errorf("the full form's page:\n%s", p.Body)
		}
		for _, path := range []string{"/forms", "/"} {
			if p := b.get(path); !strings.Contains(p.Body, `<span class="badge closed">Closed</span>`) {
				t.Errorf("%s does not mark the full form closed:\n%s", path, p.Body)
			}
		}
		if p := b.post(s.settingsPath("/closing"), url.Values{"closesAt": {""}, "maxResponses": {""}, "closedMessage": {""}}); p.Status != http.StatusSeeOther {
			t.Fatalf("clear: %d\n%s", p.Status, p.Body)
		}
		for _, k := range []string{"closesAt", "maxResponses", "closedMessage"} {
			if v, ok := apiFormBody(t, env, key, s.ID)[k]; ok {
				t.Errorf("%s = %v after clearing", k, v)
			}
		}
		if p := b.get("/forms"); strings.Contains(p.Body, `badge closed`) {
			t.Error("the reopened form is still marked closed")
		}
	})
}

// TestFormThankYouSettings: the thank-you card saves the owner's screen, or a
// redirect with the answers whose parameter is named, as the API reports them;
// refusals show at their inputs (a parameter's at its question's); the standard
// words remove the setting.
func TestFormThankYouSettings(t *testing.T) {
	each(t, func(t *testing.T, env *servertest.Env) {
		b, key := signedInOwner(t, env, "ada@example.com")
		s := newSurvey(t, env, key, "Sign-up", text, map[string]any{"type": "email", "question": "Email"})
		pipe := fmt.Sprintf("{{%d}}", s.Questions[0])
		if p := b.get(s.settingsPath("")); !strings.Contains(p.Body, "<code>"+pipe+"</code>") {
			t.Errorf("the page does not show the code that pipes the first answer:\n%s", p.Body)
		}
		p := b.post(s.settingsPath("/thankyou"), url.Values{"kind": {"screen"}, "title": {"Thanks, " + pipe + "!"}, "message": {"Bye"},
			"redirectUrl": {"https://ignored.example.com"}})
		if p.Status != http.StatusSeeOther {
			t.Fatalf("save the screen: %d\n%s", p.Status, p.Body)
		}
		if got := apiFormBody(t, env, key, s.ID)["thankYou"]; fmt.Sprint(got) != fmt.Sprint(map[string]any{"title": "Thanks, " + pipe + "!", "message": "Bye"}) {
			t.Errorf("the API reports the screen %v", got)
		}
		param := func(i int) string { return fmt.Sprintf("param_%d", s.Questions[i]) }
		p = b.post(s.settingsPath("/thankyou"), url.Values{"kind": {"redirect"}, "redirectUrl": {"https://example.com/welcome"},
			param(1): {" email "}})
		if p.Status != http.StatusSeeOther {
			t.Fatalf("save the redirect: %d\n%s", p.Status, p.Body)
		}
		want := map[string]any{"redirectUrl": "https://example.com/welcome",
			"redirectParams": []any{map[string]any{"questionId": float64(s.Questions[1]), "name": "email"}}}
		if got := apiFormBody(t, env, key, s.ID)["thankYou"]; !reflect.DeepEqual(got, want) {
			t.Errorf("the API reports the redirect %v, want %v", got, want)
		}
		p = b.get(s.settingsPath(""))
		if !strings.Contains(p.Body, `value="redirect" checked`) || !strings.Contains(p.Body, `name="`+param(1)+`" value="email"`) {
			t.Errorf("the page does not show the saved redirect:\n%s", p.Body)
		}

		p = b.post(s.settingsPath("/thankyou"), url.Values{"kind": {"redirect"}, "redirectUrl": {"javascript:alert(1)"},
			param(0): {"same"}, param(1): {"same"}})
		if p.Status != http.StatusBadRequest || !strings.Contains(p.Body, "The address must be an absolute http:// or https:// URL") ||
			!strings.Contains(p.Body, `id="param-`+fmt.Sprint(s.Questions[1])+`-error"`) || !strings.Contains(p.Body, `value="javascript:alert(1)"`) {
			t.Errorf("refused redirect: %d\n%s", p.Status, p.Body)
		}
		if got := apiFormBody(t, env, key, s.ID)["thankYou"]; !reflect.DeepEqual(got, want) {
			t.Errorf("a refused post changed the setting to %v", got)
		}
		if p := b.post(s.settingsPath("/thankyou"), url.Values{"kind": {"default"}, "title": {"kept nowhere"}}); p.Status != http.StatusSeeOther {
			t.Fatalf("standard words: %d\n%s", p.Status, p.Body)
		}
		if got, ok := apiFormBody(t, env, key, s.ID)["thankYou"]; ok {
			t.Errorf("thankYou = %v after choosing the standard words", got)
		}
	})
}

// TestFormPublicPageSettings: the public page card offers the page's languages
// by their own names and saves a language and the sites that may embed the form
// as the API reports them (the public page then speaks the language and names
// the sites in its frame-ancestors policy); refused values show at their input,
// as typed, and change nothing; a regional language set through the API is
// shown selected; an empty list lets any site embed the form again.
func TestFormPublicPageSettings(t *testing.T) {
	each(t, func(t *testing.T, env *servertest.Env) {
		b, key := signedInOwner(t, env, "ada@example.com")
		s := newSurvey(t, env, key, "Workshop", text)
		p := b.get(s.settingsPath(""))
		for _, want := range []string{`<option value="en" lang="en" selected>English</option>`, `<option value="de" lang="de">Deutsch</option>`,
			`<option value="ar" lang="ar">العربية</option>`, `name="frameAncestors"`} {
			if !strings.Contains(p.Body, want) {
				t.Errorf("the settings page lacks %s", want)
			}
		}
		p = b.post(s.settingsPath("/page"), url.Values{"language": {"de"},
			"frameAncestors": {"https://Shop.example.com/\r\n\r\n  https://*.example.org:8443 \r\n"}})
		if p.Status != http.StatusSeeOther || p.Location != s.settingsPath("?done=page") {
			t.Fatalf("save: %d %s\n%s", p.Status, p.Location, p.Body)
		}
		f := apiFormBody(t, env, key, s.ID)
		if f["language"] != "de" || fmt.Sprint(f["frameAncestors"]) != "[https://shop.example.com https://*.example.org:8443]" {
			t.Fatalf("the API reports %v and %v", f["language"], f["frameAncestors"])
		}
		p = b.get(s.settingsPath("?done=page"))
		if !strings.Contains(p.Body, `<option value="de" lang="de" selected>Deutsch</option>`) ||
			!strings.Contains(p.Body, ">https://shop.example.com\nhttps://*.example.org:8443</textarea>") ||
			!strings.Contains(p.Body, "The public page settings were saved.") {
			t.Errorf("the page does not show the saved settings:\n%s", p.Body)
		}
		public := env.For(t).Do("GET", "/f/"+s.Share, "", nil)
		if !strings.Contains(string(public.Body), `lang="de"`) || !strings.Contains(string(public.Body), "Absenden") ||
			!strings.Contains(public.Header.Get("Content-Security-Policy"), "frame-ancestors 'self' https://shop.example.com https://*.example.org:8443") {
			t.Errorf("the public page: %s\n%s", public.Header.Get("Content-Security-Policy"), public.Body)
		}

		for _, c := range []struct {
			values      url.Values
			input, want string
		}{
			{url.Values{"language": {"xx-!!"}}, "language", "The language must be a BCP 47 language tag"},
			{url.Values{"language": {"fr"}, "frameAncestors": {"https://ok.example.com\n\nexample.com/path"}}, "frame-ancestors",
				"“example.com/path” must be an origin such as https://example.com"},
			{url.Values{"language": {"fr"}, "frameAncestors": {"https://a.example.com\nhttps://A.example.com/"}}, "frame-ancestors",
				"“https://A.example.com/” duplicates the origin https://a.example.com."},
		} {
			p := b.post(s.settingsPath("/page"), c.values)
			if p.Status != http.StatusBadRequest || !strings.Contains(p.Body, `<p class="field-error" id="`+c.input+`-error" role="alert">`+c.want) ||
				!strings.Contains(p.Body, `id="`+c.input+`" name=`) {
				t.Errorf("%v: %d, want 400 saying %q at %s\n%s", c.values, p.Status, c.want, c.input, p.Body)
			}
			if fa := c.values.Get("frameAncestors"); fa != "" && !strings.Contains(p.Body, ">"+fa+"</textarea>") {
				t.Errorf("%v: the typed origins are not kept", c.values)
			}
			if lang := c.values.Get("language"); !strings.Contains(p.Body, `<option value="`+lang+`" lang="`+lang+`" selected>`) {
				t.Errorf("%v: the posted language is not kept", c.values)
			}
		}
		if got := apiFormBody(t, env, key, s.ID); !reflect.DeepEqual(got, f) {
			t.Errorf("a refused post changed the form: %v", got)
		}

		if r := env.For(t).Do("PATCH", fmt.Sprintf("/api/v1/forms/%d", s.ID), key, map[string]any{"language": "pt-BR"}); r.Status != http.StatusOK {
			t.Fatalf("patch: %d %s", r.Status, r.Body)
		}
		if p := b.get(s.settingsPath("")); !strings.Contains(p.Body, `<option value="pt-BR" lang="pt-BR" selected>pt-BR</option>`) ||
			strings.Count(p.Body, " selected>") != 1 {
			t.Errorf("the regional language is not selected:\n%s", p.Body)
		}
		if p := b.post(s.settingsPath("/page"), url.Values{"language": {"en"}, "frameAncestors": {" \r\n"}}); p.Status != http.StatusSeeOther {
			t.Fatalf("clear: %d\n%s", p.Status, p.Body)
		}
		if f := apiFormBody(t, env, key, s.ID); f["language"] != "en" || fmt.Sprint(f["frameAncestors"]) != "[]" {
			t.Errorf("after clearing: language %v, frameAncestors %v", f["language"], f["frameAncestors"])
		}
	})
}
