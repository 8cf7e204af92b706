package dashboard_test

import (
	"bytes"
	"fmt"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"

	"forma/internal/server/servertest"
)

// upload posts content as the file field of a multipart form, as a browser
// sends a chosen file; a nil content sends the form without a file. headers
// are name, value pairs.
func (b *browser) upload(path, field string, content []byte, headers ...string) page {
	b.t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	if content != nil {
		part, err := mw.CreateFormFile(field, "form.json")
		if err == nil {
			_, err = part.Write(content)
		}
		if err != nil {
			b.t.Fatal(err)
		}
	}
	if err := mw.Close(); err != nil {
		b.t.Fatal(err)
	}
	req, err := http.NewRequest(http.MethodPost, b.env.URL+path, &body)
	if err != nil {
		b.t.Fatal(err)
	}
	req.Header.Set("Content-Type", mw.FormDataContentType())
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	return b.do(req)
}

// ruledForm creates a form through the API whose second question shows only
// after a choice of the first, and returns its id.
func ruledForm(t *testing.T, env *servertest.Env, key string) int64 {
	t.Helper()
	s := newSurvey(t, env, key, "Team offsite",
		map[string]any{"type": "select", "question": "Meal", "options": []string{"Fish", "Vegan"}, "required": true},
		map[string]any{"type": "text", "question": "Allergies"})
	rule := map[string]any{"showIf": map[string]any{"questionId": s.Questions[0], "operator": "equals", "value": "Vegan"}}
	if r := env.For(t).Do("PATCH", fmt.Sprintf("/api/v1/forms/%d/fields/%d", s.ID, s.Questions[1]), key,
		map[string]any{"conditionalLogic": rule}); r.Status != http.StatusOK {
		t.Fatalf("set the rule: %d %s", r.Status, r.Body)
	}
	return s.ID
}

// TestExportAndImportPages: Export on the editor downloads the definition, the
// very bytes of the API's; Import on the new-form page makes a draft of it and
// opens it, and that draft exports the same definition. Another account's form
// is not found; a refused file (no file, not JSON, an unknown field, logic
// naming a ref the file lacks, over 1 MiB) is named at the file field, its
// markup as text, and makes nothing; a cross-site post is refused.
func TestExportAndImportPages(t *testing.T) {
	each(t, func(t *testing.T, env *servertest.Env) {
		ada, key := signedInOwner(t, env, "ada@example.com")
		id := ruledForm(t, env, key)
		path := fmt.Sprintf("/forms/%d", id)
		if p := ada.get(path); !strings.Contains(p.Body, `href="`+path+`/definition.json" download>Export</a>`) {
			t.Errorf("the editor has no Export link:\n%s", p.Body)
		}
		file := ada.get(path + "/definition.json")
		api := env.For(t).Do("GET", "/api/v1"+path+"/definition", key, nil)
		if file.Status != http.StatusOK || file.Body != string(api.Body) ||
			file.Header.Get("Content-Disposition") != fmt.Sprintf(`attachment; filename="form-%d-definition.json"`, id) {
			t.Fatalf("export: %d %v\n%s\nthe API's\n%s", file.Status, file.Header, file.Body, api.Body)
		}
		bob, _ := signedInOwner(t, env, "bob@example.com")
		if p := bob.get(path + "/definition.json"); p.Status != http.StatusNotFound || strings.Contains(p.Body, "Allergies") {
			t.Errorf("bob exported ada's form: %d %s", p.Status, p.Body)
		}
		if p := ada.get("/forms/new"); !strings.Contains(p.Body, `action="/forms/import#import" enctype="multipart/form-data"`) {
			t.Errorf("the new-form page has no import:\n%s", p.Body)
		}
		if p := ada.get("/forms"); !strings.Contains(p.Body, `href="/forms/new#import"`) {
			t.Errorf("the forms page does not lead to the import")
		}

		markup := `<img src=x onerror=alert(1)>`
		for _, c := range []struct {
			content []byte
			status  int
			says    string
		}{
			{nil, http.StatusBadRequest, "This file cannot be imported: choose the definition file to import."},
			{[]byte(`{"formaDefinition": 1, "title": "x"`), http.StatusBadRequest, "This file cannot be imported: malformed JSON"},
			{[]byte(`{"formaDefinition": 1, "title": "x", "` + markup + `": 1}`), http.StatusBadRequest,
				"This file cannot be imported: &lt;img src=x onerror=alert(1)&gt;: is not a known field."},
			{[]byte(`{"formaDefinition": 2, "title": "x"}`), http.StatusBadRequest, "This file cannot be imported: formaDefinition: must be 1"},
			{[]byte(`{"formaDefinition": 1, "title": "x", "questions": [{"ref": 1, "question": "Why?", "conditionalLogic": ` +
				`{"showIf": {"questionId": 2, "operator": "equals", "value": "a"}}}]}`), http.StatusBadRequest,
				"This file cannot be imported: questions[0].conditionalLogic.showIf.questionId: question 2 is not in this form."},
			{[]byte(`{"formaDefinition": 1, "title": "` + strings.Repeat("x", 1<<20) + `"}`), http.StatusRequestEntityTooLarge,
				"This file cannot be imported: the file is larger than 1 MiB."},
		} {
			p := ada.upload("/forms/import", "definition", c.content)
			if p.Status != c.status || !strings.Contains(p.Body, `id="definition-error" role="alert">`+c.says) ||
				strings.Contains(p.Body, markup) {
				t.Errorf("import of %.80q: %d, want %d saying %q at the file field\n%s", c.content, p.Status, c.status, c.says, p.Body)
			}
		}
		if p := ada.upload("/forms/import", "definition", []byte(file.Body), "Sec-Fetch-Site", "cross-site"); p.Status != http.StatusForbidden {
			t.Errorf("a cross-site import: %d", p.Status)
		}
		if r := env.For(t).Do("GET", "/api/v1/forms", key, nil); r.JSON(t)["total"].(float64) != 1 {
			t.Fatalf("a refused import made a form: %s", r.Body)
		}

		p := ada.upload("/forms/import", "definition", []byte(file.Body))
		var imported int64
		if _, err := fmt.Sscanf(p.Location, "/forms/%d?done=imported", &imported); p.Status != http.StatusSeeOther || err != nil {
			t.Fatalf("import: %d %q\n%s", p.Status, p.Location, p.Body)
		}
		if p := ada.get(p.Location); !strings.Contains(p.Body, "Your form is imported, as a draft") ||
			!strings.Contains(p.Body, `<h1 class="page-title wrap">Team offsite</h1>`) {
			t.Errorf("the imported form's editor:\n%s", p.Body)
		}
		if again := ada.get(fmt.Sprintf("/forms/%d/definition.json", imported)); again.Body != file.Body {
			t.Errorf("the imported form exports\n%s\nwant\n%s", again.Body, file.Body)
		}
	})
}
