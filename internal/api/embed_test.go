package api_test

import (
	"fmt"
	"strings"
	"testing"

	"forma/internal/form"
	"forma/internal/server/servertest"
	"forma/internal/store"
)

// TestLanguageAndFrameAncestors: a form's language and the origins that may
// frame its page are set on create and update, shown normalized, cleared by
// null; every invalid value (including attempts to smuggle a header, a CSP
// directive or markup through them) is a 400 naming its field, and nothing is
// saved by a refused request. Every form shows its embed code.
func TestLanguageAndFrameAncestors(t *testing.T) {
	servertest.ForEachDialect(t, func(t *testing.T, d store.Dialect) {
		env := servertest.New(t, d)
		key := env.NewKey()
		f := createForm(t, env, key, obj{"title": "Umfrage <b>&</b>", "language": "DE-at",
			"frameAncestors": []string{"https://Shop.Example.com/", "http://localhost:3000"}})
		fp, token := formPath(f), f["shareUrl"].(string)
		base := strings.TrimSuffix(f["url"].(string), "/f/"+token)
		script := `<script src="` + base + `/embed.js" async></script>`
		var rows []scenario
		refused := func(field string, body obj) {
			rows = append(rows, scenario{Name: "PATCH " + field + " " + clipName(fmt.Sprint(body)), Method: "PATCH", Path: fp, Key: key,
				Body: body, ExpectedStatus: 400, Check: apiError("validation_error", field)})
		}
		for _, v := range []any{"xx", "und", "english", `de"><script>alert(1)</script>`, "de\r\nSet-Cookie: a=b", "de;", 5,
			strings.Repeat("a", form.MaxLanguageLen+1)} {
			refused("language", obj{"language": v})
		}
		for _, v := range []any{"https://a.example/path", "https://a.example; script-src *", "https://a.example\r\nX-Evil: 1",
			"'self'", "*", "javascript:alert(1)", `https://a.example"><script>`, "a.example", ""} {
			refused("frameAncestors[0]", obj{"frameAncestors": []any{v}})
		}
		refused("frameAncestors[1]", obj{"frameAncestors": []string{"https://a.example", "https://A.example"}})
		refused("frameAncestors", obj{"frameAncestors": make([]string, form.MaxFrameAncestors+1)})
		refused("frameAncestors", obj{"frameAncestors": "https://a.example"})
		refused("frameAncestors", obj{"frameAncestors": []any{7}})
		refused("language, frameAncestors is required", obj{})
		rows = append(rows,
			scenario{Name: "as created", Method: "GET", Path: fp, Key: key, ExpectedStatus: 200,
				Check: fields(obj{"language": "de-AT", "frameAncestors": []string{"https://shop.example.com", "http://localhost:3000"},
					"embed": obj{"scriptUrl": base + "/embed.js", "iframeUrl": base + "/f/" + token + "?embed=1",
						"html":      `<div data-forma-embed="` + token + `"></div>` + "\n" + script,
						"popupHtml": `<button type="button" data-forma-popup="` + token + `">Umfrage &lt;b&gt;&amp;&lt;/b&gt;</button>` + "\n" + script}})},
			scenario{Name: "changed", Method: "PATCH", Path: fp, Key: key, ExpectedStatus: 200,
				Body:  obj{"language": "iw", "frameAncestors": []string{"https://*.example.org"}},
				Check: fields(obj{"language": "he", "frameAncestors": []string{"https://*.example.org"}})},
			scenario{Name: "cleared", Method: "PATCH", Path: fp, Key: key, ExpectedStatus: 200,
				Body: obj{"language": nil, "frameAncestors": nil}, Check: fields(obj{"language": "en", "frameAncestors": []string{}})},
			scenario{Name: "an empty language is English", Method: "PATCH", Path: fp, Key: key, ExpectedStatus: 200,
				Body: obj{"language": "", "frameAncestors": []string{}}, Check: fields(obj{"language": "en", "frameAncestors": []string{}})},
			scenario{Name: "create with a bad language", Method: "POST", Path: apiPrefix + "/forms", Key: key, ExpectedStatus: 400,
				Body: obj{"title": "T", "language": "klingon"}, Check: apiError("validation_error", "language")},
			scenario{Name: "create with a bad origin", Method: "POST", Path: apiPrefix + "/forms", Key: key, ExpectedStatus: 400,
				Body: obj{"title": "T", "frameAncestors": []string{"https://a.example/x"}}, Check: apiError("validation_error", "frameAncestors[0]")},
			scenario{Name: "nothing else was created", Method: "GET", Path: apiPrefix + "/forms", Key: key, ExpectedStatus: 200,
				Check: fields(obj{"total": 1})},
		)
		servertest.Run(t, env, rows)
	})
}
