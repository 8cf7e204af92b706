package api

import (
	_ "embed"
	"encoding/json"
	"html/template"
	"net/http"
	"sort"
	"strings"
)

//go:embed openapi.json
var openAPIDoc []byte

// OpenAPIDocument returns the API description with its server entry pointing at
// publicURL + Prefix, and the respondent operations' at publicURL.
func OpenAPIDocument(publicURL string) ([]byte, error) {
	var doc map[string]any
	if err := json.Unmarshal(openAPIDoc, &doc); err != nil {
		return nil, err
	}
	base := strings.TrimRight(publicURL, "/")
	doc["servers"] = []map[string]string{{"url": base + Prefix, "description": "This Forma server"}}
	// The respondent operations name their own server: the public address.
	for _, item := range doc["paths"].(map[string]any) {
		if item := item.(map[string]any); item["servers"] != nil {
			item["servers"] = []map[string]string{{"url": base, "description": "This Forma server's public address"}}
		}
	}
	return json.MarshalIndent(doc, "", "  ")
}

// OpenAPIHandler serves GET /api/v1/openapi.json; it needs no key.
func OpenAPIHandler(publicURL string) http.Handler {
	doc, err := OpenAPIDocument(publicURL)
	if err != nil {
		panic("embedded openapi.json is invalid: " + err.Error())
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.Header().Set("Access-Control-Allow-Origin", "*")
		_, _ = w.Write(doc)
	})
}

// docOperation is one operation on the reference page.
type docOperation struct {
	Method, Path, Summary, Description string
	Params                             []docParam
	Responses                          []docResponse
}

type docParam struct{ Name, In, Description string }

type docResponse struct{ Status, Description string }

var docsPage = template.Must(template.New("docs").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Forma API reference</title>
<style>
body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1a1a1a}
h2{margin-top:2.5rem;border-bottom:1px solid #ddd}
.op{margin:1.5rem 0;padding:1rem;border:1px solid #e3e3e3;border-radius:6px}
.m{display:inline-block;min-width:4.5rem;font-weight:700;font-family:monospace}
code{font-family:ui-monospace,monospace;background:#f4f4f4;padding:0 .2em}
table{border-collapse:collapse}td,th{padding:.2rem .6rem;text-align:left;vertical-align:top}
</style></head><body>
<h1>{{.Title}} <small>{{.Version}}</small></h1>
<p>{{.Description}}</p>
<p>The machine-readable description is at <a href="/api/v1/openapi.json"><code>/api/v1/openapi.json</code></a> (OpenAPI 3.1).
Every operation needs the <code>X-API-Key</code> header, except the respondent operations (tag Respondents), which are public and served at the server's public address rather than under <code>/api/v1</code>.</p>
{{range .Ops}}<div class="op" id="{{.Method}}-{{.Path}}">
<div><span class="m">{{.Method}}</span><code>{{.Path}}</code> — {{.Summary}}</div>
{{if .Description}}<p>{{.Description}}</p>{{end}}
{{if .Params}}<table><tr><th>Parameter</th><th>In</th><th>Description</th></tr>
{{range .Params}}<tr><td><code>{{.Name}}</code></td><td>{{.In}}</td><td>{{.Description}}</td></tr>{{end}}</table>{{end}}
<table><tr><th>Status</th><th>Response</th></tr>
{{range .Responses}}<tr><td>{{.Status}}</td><td>{{.Description}}</td></tr>{{end}}</table>
</div>{{end}}
</body></html>`))

// DocsHandler serves /docs: a readable reference page built from the OpenAPI
// document, with no external assets.
func DocsHandler() http.Handler {
	page, err := docsData()
	if err != nil {
		panic("embedded openapi.json is invalid: " + err.Error())
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'")
		_ = docsPage.Execute(w, page)
	})
}

type openAPIOp struct {
	Summary     string `json:"summary"`
	Description string `json:"description"`
	Parameters  []struct {
		Ref         string `json:"$ref"`
		Name        string `json:"name"`
		In          string `json:"in"`
		Description string `json:"description"`
	} `json:"parameters"`
	Responses map[string]struct {
		Ref         string `json:"$ref"`
		Description string `json:"description"`
	} `json:"responses"`
}

// openAPIInfo is what the reference page and the query check read from the
// document.
type openAPIInfo struct {
	Info struct {
		Title, Version, Description string
	} `json:"info"`
	Paths      map[string]map[string]json.RawMessage `json:"paths"`
	Components struct {
		Parameters map[string]docParam                     `json:"parameters"`
		Responses  map[string]struct{ Description string } `json:"responses"`
	} `json:"components"`
}

func docsData() (map[string]any, error) {
	var doc openAPIInfo
	if err := json.Unmarshal(openAPIDoc, &doc); err != nil {
		return nil, err
	}
	return map[string]any{"Title": doc.Info.Title, "Version": doc.Info.Version, "Description": doc.Info.Description, "Ops": doc.operations()}, nil
}

// documentedQueries maps each route pattern ("GET /api/v1/forms") to the query
// parameters the OpenAPI document gives its operation: the only ones it accepts.
func documentedQueries() map[string]map[string]bool {
	var doc openAPIInfo
	if err := json.Unmarshal(openAPIDoc, &doc); err != nil {
		panic("embedded openapi.json is invalid: " + err.Error())
	}
	queries := map[string]map[string]bool{}
	for _, op := range doc.operations() {
		if doc.Paths[op.Path]["servers"] != nil {
			continue // a respondent operation: not under Prefix
		}
		names := map[string]bool{}
		for _, p := range op.Params {
			if p.In == "query" {
				names[p.Name] = true
			}
		}
		queries[op.Method+" "+Prefix+op.Path] = names
	}
	return queries
}

// operations lists the document's operations with their parameters and responses,
// sorted by path and method.
func (doc *openAPIInfo) operations() []docOperation {
	var ops []docOperation
	for path, item := range doc.Paths {
		for method, raw := range item {
			var op openAPIOp
			if method == "parameters" || json.Unmarshal(raw, &op) != nil {
				continue
			}
			d := docOperation{Method: strings.ToUpper(method), Path: path, Summary: op.Summary, Description: op.Description}
			for _, p := range op.Parameters {
				if name, ok := strings.CutPrefix(p.Ref, "#/components/parameters/"); ok {
					d.Params = append(d.Params, doc.Components.Parameters[name])
					continue
				}
				d.Params = append(d.Params, docParam{Name: p.Name, In: p.In, Description: p.Description})
			}
			for status, resp := range op.Responses {
				desc := resp.Description
				if name, ok := strings.CutPrefix(resp.Ref, "#/components/responses/"); ok {
					desc = doc.Components.Responses[name].Description
				}
				d.Responses = append(d.Responses, docResponse{Status: status, Description: desc})
			}
			sort.Slice(d.Responses, func(i, j int) bool { return d.Responses[i].Status < d.Responses[j].Status })
			ops = append(ops, d)
		}
	}
	sort.Slice(ops, func(i, j int) bool {
		if ops[i].Path != ops[j].Path {
			return ops[i].Path < ops[j].Path
		}
		return ops[i].Method < ops[j].Method
	})
	return ops
}
