package respond_test

import (
	"fmt"
	"net/http"
	"testing"

	"forma/internal/config"
	"forma/internal/server/servertest"
	"forma/internal/store"
)

// TestNoticePagesSpeakTheFormsLanguage: the page refusing a post from another
// site, and the not-found page of a form taken offline (its page and its
// post), are in the form's language and direction; a token of no form gets the
// English page.
func TestNoticePagesSpeakTheFormsLanguage(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		env := servertest.New(t, d, func(c *config.Config) { c.PublicURL = "https://forms.example.com" })
		key := env.NewKey()
		f := createForm(t, env, key, map[string]any{"title": "Umfrage", "language": "de",
			"questions": []any{map[string]any{"type": "text", "question": "Name"}}}, nil, true)
		req := pageRequest(t, env, f.Share, [][2]string{{"website", ""}})
		req.Header.Set("Sec-Fetch-Site", "cross-site")
		r := env.Send(req)
		mustStatus(t, r, http.StatusForbidden)
		mustContain(t, string(r.Body), `<html lang="de" dir="ltr"`, "<title>Übermittlung abgelehnt</title>",
			"von einer anderen Website an dieses Formular gesendet")

		ar := createForm(t, env, key, map[string]any{"title": "استبيان", "language": "ar",
			"questions": []any{map[string]any{"type": "text", "question": "الاسم"}}}, nil, true)
		for _, form := range []*testForm{f, ar} {
			mustStatus(t, env.Do("POST", fmt.Sprintf("/api/v1/forms/%d/unpublish", form.ID), key, nil), http.StatusOK)
		}
		_, page := getPage(t, env, f.Share)
		mustContain(t, page, `<html lang="de" dir="ltr"`, "<title>Formular nicht gefunden</title>", "nimmt gerade keine Antworten an")
		r = postPage(t, env, f.Share, [][2]string{{"website", ""}})
		mustStatus(t, r, http.StatusNotFound)
		mustContain(t, string(r.Body), "<title>Formular nicht gefunden</title>")
		r, page = getPage(t, env, ar.Share)
		mustStatus(t, r, http.StatusNotFound)
		mustContain(t, page, `<html lang="ar" dir="rtl"`, "<title>لم يُعثر على النموذج</title>")
		_, page = getPage(t, env, "doesnotexist123")
		mustContain(t, page, `<html lang="en" dir="ltr"`, "<title>Form not found</title>")
	})
}
