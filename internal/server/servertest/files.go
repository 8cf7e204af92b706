package servertest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"
)

// FileForm is a published form of two questions, "Name" (text) and "File"
// (a file upload), made through the API.
type FileForm struct {
	ID    int64
	Share string // the share token
	Name  int64  // the id of the name question
	File  int64  // the id of the file question
	URL   string // the server's address
}

// NewFileForm creates a FileForm with key, applying settings (PATCH
// /api/v1/forms/{id}, e.g. a webhook) before publishing it when not nil.
func (e *Env) NewFileForm(t testing.TB, key string, settings map[string]any) FileForm {
	t.Helper()
	r := e.Do("POST", "/api/v1/forms", key, `{"title":"Files","questions":[{"type":"text","question":"Name"},{"type":"file_upload","question":"File"}]}`)
	if r.Status != http.StatusCreated {
		t.Fatalf("create form: %d %s", r.Status, r.Body)
	}
	var f struct {
		ID        int64
		ShareURL  string
		Questions []struct{ ID int64 }
	}
	if err := json.Unmarshal(r.Body, &f); err != nil {
		t.Fatal(err)
	}
	path := fmt.Sprintf("/api/v1/forms/%d", f.ID)
	if settings != nil {
		if r := e.Do("PATCH", path, key, settings); r.Status != http.StatusOK {
			t.Fatalf("settings: %d %s", r.Status, r.Body)
		}
	}
	if r := e.Do("POST", path+"/publish", key, nil); r.Status != http.StatusOK {
		t.Fatalf("publish: %d %s", r.Status, r.Body)
	}
	return FileForm{ID: f.ID, Share: f.ShareURL, Name: f.Questions[0].ID, File: f.Questions[1].ID, URL: e.URL}
}

// Submit answers the form as a respondent would: it uploads content as
// name+".txt", then completes a submission of name and that file. It returns
// the upload's id once the server acknowledged the submission. It makes plain
// requests, with no test to fail, so that it can run in goroutines.
func (f FileForm) Submit(name string, content []byte) (string, error) {
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, _ := mw.CreateFormFile("file", name+".txt")
	fw.Write(content)
	mw.Close()
	resp, err := http.Post(f.URL+"/f/"+f.Share+"/uploads", mw.FormDataContentType(), &body)
	if err != nil {
		return "", err
	}
	var up struct{ ID string }
	err = json.NewDecoder(resp.Body).Decode(&up)
	resp.Body.Close()
	if err != nil || resp.StatusCode != http.StatusCreated {
		return "", fmt.Errorf("upload: %d %v", resp.StatusCode, err)
	}
	answers := fmt.Sprintf(`{"answers":{"%d":%q,"%d":%q}}`, f.Name, name, f.File, up.ID)
	resp, err = http.Post(f.URL+"/f/"+f.Share+"/submissions", "application/json", strings.NewReader(answers))
	if err != nil {
		return "", err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusCreated {
		return "", fmt.Errorf("submit: %d", resp.StatusCode)
	}
	return up.ID, nil
}
