package servertest

import (
	"context"
	"fmt"
	"mime"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"

	"forma/internal/api"
)

// document is the OpenAPI document every server serves, parsed once.
var document = sync.OnceValues(func() (*openapi3.T, error) {
	raw, err := api.OpenAPIDocument("http://localhost")
	if err != nil {
		return nil, err
	}
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(raw)
	if err != nil {
		return nil, err
	}
	return doc, doc.Validate(loader.Context)
})

// contract validates the exchanges a test makes with one server against the OpenAPI
// document: every response of a documented operation must match it, and every
// request the server accepted (2xx) too. Requests to undocumented paths (the HTML
// pages and the HTML form's post, the document itself, unknown routes) are not
// checked.
type contract struct {
	router routers.Router
}

// newContract routes the document's operations at base, the server's URL.
func newContract(t testing.TB, base string) *contract {
	doc, err := document()
	if err != nil {
		t.Fatalf("the OpenAPI document: %v", err)
	}
	served := *doc
	served.Servers = openapi3.Servers{{URL: base + api.Prefix}}
	// The respondent operations name their own server, the public address.
	served.Paths = openapi3.NewPaths()
	for path, item := range doc.Paths.Map() {
		if len(item.Servers) > 0 {
			own := *item
			own.Servers = openapi3.Servers{{URL: base}}
			item = &own
		}
		served.Paths.Set(path, item)
	}
	router, err := gorillamux.NewRouter(&served)
	if err != nil {
		t.Fatal(err)
	}
	return &contract{router: router}
}

// Route finds the documented operation req names, with its path parameters, as
// the validation of Send does.
func (e *Env) Route(req *http.Request) (*routers.Route, map[string]string, error) {
	return e.contract.router.FindRoute(req)
}

// validate checks one exchange: the request (when the server accepted it) and the
// response (always), against the operation the request names. It returns nil for
// requests that name no documented operation.
func (c *contract) validate(req *http.Request, res *Response) error {
	ctx := context.Background()
	route, params, err := c.router.FindRoute(req)
	if err != nil || isPagePost(req) {
		return nil
	}
	in := &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route,
		Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc, MultiError: true,
			SkipSettingDefaults: true}} // a required field left out must count as missing, default or not
	if res.Status/100 == 2 {
		if req.GetBody != nil {
			body, err := req.GetBody()
			if err != nil {
				return err
			}
			req.Body = body
		}
		if err := openapi3filter.ValidateRequest(ctx, in); err != nil {
			return fmt.Errorf("the request the server accepted does not match the document: %w", err)
		}
	}
	return CheckResponse(in, res.Status, res.Header, res.Body)
}

// CheckResponse validates a response (status, headers, body) to the request in in:
// a status the operation does not document, a body that does not match its schema,
// and a body where the document says there is none are all errors.
func CheckResponse(in *openapi3filter.RequestValidationInput, status int, header http.Header, body []byte) error {
	out := &openapi3filter.ResponseValidationInput{RequestValidationInput: in, Status: status, Header: header,
		Options: &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true}}
	out.SetBodyBytes(body)
	if err := openapi3filter.ValidateResponse(context.Background(), out); err != nil {
		return err
	}
	if resp := in.Route.Operation.Responses.Status(status); resp != nil && len(resp.Value.Content) == 0 && len(body) != 0 {
		return fmt.Errorf("documented without a body, but it has %d bytes", len(body))
	}
	return nil
}

// isPagePost reports whether req is the HTML form's post (a browser's form
// encoding), which answers with pages: the page, not the JSON operation the
// document describes at the same path.
func isPagePost(req *http.Request) bool {
	mt, _, _ := mime.ParseMediaType(req.Header.Get("Content-Type"))
	return req.URL.Path != "" && strings.HasSuffix(req.URL.Path, "/submissions") &&
		(mt == "multipart/form-data" || mt == "application/x-www-form-urlencoded")
}

// describe names an exchange in a failure message.
func describe(req *http.Request, status int) string {
	return fmt.Sprintf("%s %s → %d", req.Method, strings.TrimPrefix(req.URL.RequestURI(), api.Prefix), status)
}
