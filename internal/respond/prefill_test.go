package respond_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"forma/internal/server/servertest"
	"forma/internal/store"
)

// TestPagePrefillWithoutScript: the server renders the values of a prefilling
// address into the inputs (what a page without JavaScript shows), escaped;
// invalid values are left out with no error; the hidden values ride in hidden
// inputs; and nothing is recorded.
func TestPagePrefillWithoutScript(t *testing.T) {
	env := servertest.New(t, store.SQLite)
	f := createForm(t, env, env.NewKey(), map[string]any{"title": "Job application", "questions": allTypesQuestions(),
		"hiddenFields": []string{"utm_source"}}, nil, true)
	q := func(prefix string) string { return fmt.Sprintf("q%d", f.qid(t, prefix)) }
	query := url.Values{q("Name"): {`<script>alert("x")</script>`}, q("Team"): {"Sales"}, q("Languages"): {"SQL", "Rust"},
		q("Age"): {"42"}, q("Email"): {"nope"}, q("CV"): {"upload-id"}, "utm_source": {`"><b>x</b>`}}
	resp, page := getPage(t, env, f.Share+"?"+query.Encode())
	mustStatus(t, resp, http.StatusOK)
	mustContain(t, page,
		`value="&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;"`,
		`<option value="Sales" selected>`,
		`name="h_utm_source" value="&#34;&gt;&lt;b&gt;x&lt;/b&gt;" data-hidden-field="utm_source"`)
	for _, absent := range []string{"<script>alert", "<b>x</b>", `value="nope"`, `value="upload-id"`, "error-summary", "Rust"} {
		if strings.Contains(page, absent) {
			t.Errorf("the page holds %s", absent)
		}
	}
	mustMatch(t, page, fmt.Sprintf(`id="%s" name="%[2]s" value="42"`, f.field(t, "Age"), f.field(t, "Age")))
	if strings.Contains(page, `value="SQL" checked`) {
		t.Error("a multi_select prefilled with an unknown option kept the valid one: the answer as a whole is invalid")
	}
	if n := len(responses(t, env, f.ID)); n != 0 {
		t.Errorf("%d responses recorded by opening the page", n)
	}
	_, plain := getPage(t, env, f.Share+"?utm_campaign=x")
	if strings.Contains(plain, "h_utm") || strings.Contains(plain, " selected>") {
		t.Error("an address without values of this form still prefilled the page")
	}
}
