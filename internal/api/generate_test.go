package api_test

import (
	"strings"
	"testing"

	"forma/internal/server/servertest"
	"forma/internal/store"
)

// TestGenerateFormInThePromptsLanguage: a German prompt gives a German form (the
// prompt's own words, types read from them), a thin French prompt gets the French
// template, and markup typed into a prompt is shown on the public page as text.
func TestGenerateFormInThePromptsLanguage(t *testing.T) {
	const attack = `<img src=x onerror=alert(1)>`
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		env := servertest.New(t, d, withAllowances("free=100"))
		key := env.NewKey()
		var german, french obj
		servertest.Run(t, env, []scenario{{
			Name: "German", Method: "POST", Path: apiPrefix + "/forms/generate", Key: key,
			Body:           obj{"prompt": "Anmeldeformular für die Töpferwerkstatt mit Vorname, Nachname, E-Mail, Handynummer, Termin (Samstag oder Sonntag) und " + attack},
			ExpectedStatus: 201,
			Check: checks(into(&german), fields(obj{"title": "Anmeldeformular für die Töpferwerkstatt",
				"description": "Bitte füllen Sie das folgende Formular aus."}), questionsAre(map[string]string{
				"Vorname": "text", "Nachname": "text", "E-Mail": "email", "Handynummer": "phone", "Termin": "select", attack: "text"})),
		}, {
			Name: "French, thin", Method: "POST", Path: apiPrefix + "/forms/generate", Key: key,
			Body: obj{"prompt": "formulaire de contact"}, ExpectedStatus: 201,
			NotExpectedContent: []string{"Full name", "Email address", "Message for"},
			Check: checks(into(&french), questionsAre(map[string]string{
				"Nom complet": "text", "Adresse e-mail": "email", "Numéro de téléphone": "phone", "Objet": "text", "Message": "textarea"})),
		}})
		path, share := formPath(german), german["shareUrl"].(string)
		expectStatus(t, env.For(t).Do("POST", path+"/publish", key, nil), 200)
		page := env.For(t).Do("GET", "/f/"+share, "", nil)
		expectStatus(t, page, 200)
		html := string(page.Body)
		if strings.Contains(html, attack) || !strings.Contains(html, "&lt;img src=x onerror=alert(1)&gt;") {
			t.Errorf("the public page does not show the prompt's markup as text")
		}
		for _, want := range []string{"Vorname", "Handynummer", "Samstag"} {
			if !strings.Contains(html, want) {
				t.Errorf("the public page lacks %q", want)
			}
		}
	})
}

// questionsAre checks a form's question texts and types, in any order.
func questionsAre(want map[string]string) check {
	return func(t *testing.T, r *servertest.Response) {
		t.Helper()
		got := map[string]string{}
		for _, q := range items(t, r.JSON(t), "questions") {
			got[q["question"].(string)] = q["type"].(string)
		}
		if len(got) != len(want) {
			t.Errorf("questions %v, want %v", got, want)
		}
		for text, typ := range want {
			if got[text] != typ {
				t.Errorf("question %q is %q, want %q (questions: %v)", text, got[text], typ, got)
			}
		}
	}
}
