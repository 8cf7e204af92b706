package form

import (
	"encoding/json"
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// declaredCodes lists the MessageCode constants declared in messages.go.
func declaredCodes(t *testing.T) []MessageCode {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "messages.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var codes []MessageCode
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, s := range g.Specs {
			vs := s.(*ast.ValueSpec)
			if id, ok := vs.Type.(*ast.Ident); !ok || id.Name != "MessageCode" {
				continue
			}
			for _, v := range vs.Values {
				lit := v.(*ast.BasicLit)
				codes = append(codes, MessageCode(strings.Trim(lit.Value, `"`)))
			}
		}
	}
	return codes
}

func TestEveryCodeHasAnEntry(t *testing.T) {
	codes := declaredCodes(t)
	if len(codes) < 30 {
		t.Fatalf("found %d codes in messages.go", len(codes))
	}
	for _, c := range codes {
		if _, ok := catalogue[c]; !ok {
			t.Errorf("code %q has no catalogue entry", c)
		}
	}
	if len(catalogue) != len(codes) {
		t.Errorf("%d catalogue entries for %d declared codes", len(catalogue), len(codes))
	}
}

var placeholderNames = regexp.MustCompile(`\{(\w+)\}`)

func TestCatalogueEntries(t *testing.T) {
	for code, m := range catalogue {
		if m.Field == "" || m.Sentence == "" {
			t.Errorf("%s: empty text: %+v", code, m)
		}
		if !strings.HasSuffix(m.Sentence, ".") || strings.ToUpper(m.Sentence[:1]) != m.Sentence[:1] && m.Sentence[0] != '{' {
			t.Errorf("%s: %q is not a sentence", code, m.Sentence)
		}
		// Every value reaches the API text; the sentence uses only declared ones
		// (a {name} that is not a parameter stays literal, as in upload_unknown).
		for _, p := range m.Params {
			if !strings.Contains(m.Field, "{"+p+"}") {
				t.Errorf("%s: parameter %s is not in the field text %q", code, p, m.Field)
			}
		}
		for _, sub := range placeholderNames.FindAllStringSubmatch(m.Sentence, -1) {
			if !slices.Contains(m.Params, sub[1]) {
				t.Errorf("%s: the sentence uses {%s}, which is not a parameter", code, sub[1])
			}
		}
		if s := slices.Compact(slices.Sorted(slices.Values(m.Params))); len(s) != len(m.Params) {
			t.Errorf("%s: a parameter is declared twice: %v", code, m.Params)
		}
	}
}

// TestCodesInSourcesAreDeclared checks that the packages that emit problems name
// them only by the declared constants, never by a code built from a string.
func TestCodesInSourcesAreDeclared(t *testing.T) {
	files, _ := filepath.Glob("../*/*.go")
	conversion := regexp.MustCompile(`MessageCode\(`)
	used := regexp.MustCompile(`\bMsg[A-Z]\w*`)
	declared := map[string]bool{}
	for _, c := range declaredCodes(t) {
		declared[string(c)] = true
	}
	names := map[string]bool{}
	src, _ := os.ReadFile("messages.go")
	for _, n := range used.FindAllString(string(src), -1) {
		names[n] = true
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") || !slices.Contains([]string{"form", "logic", "respond"}, filepath.Base(filepath.Dir(f))) {
			continue
		}
		body, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if conversion.Match(body) && filepath.Base(f) != "messages.go" {
			t.Errorf("%s converts a string to a MessageCode: use a constant of messages.go", f)
		}
		for _, n := range used.FindAllString(string(body), -1) {
			if !names[n] {
				t.Errorf("%s uses %s, which messages.go does not declare", f, n)
			}
		}
	}
}

func TestFill(t *testing.T) {
	cases := []struct {
		template string
		params   map[string]string
		want     string
	}{
		{"must be between {min} and {max}", map[string]string{"min": "1", "max": "5"}, "must be between 1 and 5"},
		{"upload with POST /f/{shareUrl}/uploads", nil, "upload with POST /f/{shareUrl}/uploads"},
		{"{choice} is not one of: {options}", map[string]string{"choice": `"{options}"`, "options": "$&, $1"}, `"{options}" is not one of: $&, $1`},
		{"{min}{min}", map[string]string{"min": "0"}, "00"},
	}
	for _, c := range cases {
		if got := fill(c.template, c.params); got != c.want {
			t.Errorf("fill(%q, %v) = %q, want %q", c.template, c.params, got, c.want)
		}
	}
}

func TestNewReasonChecksItsValues(t *testing.T) {
	for _, bad := range []func(){
		func() { NewReason("no_such_code") },
		func() { NewReason(MsgBetween, "1") },
		func() { NewReason(MsgRequired, "x") },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Error("NewReason accepted a wrong use")
				}
			}()
			bad()
		}()
	}
	r := NewReason(MsgBetween, "1000", "500000")
	if r.text() != "must be between 1000 and 500000" || r.Sentence() != "This answer must be between 1000 and 500000." {
		t.Errorf("%q / %q", r.text(), r.Sentence())
	}
}

// TestFieldErrorJSON checks the wire shape: an uncatalogued field error (every one
// of /api/v1) is {field, message} as before; a catalogued one adds code and params.
func TestFieldErrorJSON(t *testing.T) {
	var p Problems
	p.Add("title", "is required")
	p.AddReason("answers.3", NewReason(MsgBetween, "1", "5"))
	p.AddReason("answers.4", NewReason(MsgRequired))
	got, _ := json.Marshal(p)
	want := `[{"field":"title","message":"is required"},` +
		`{"field":"answers.3","message":"must be between 1 and 5","code":"between","params":{"max":"5","min":"1"}},` +
		`{"field":"answers.4","message":"is required","code":"required"}]`
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestSentenceOfErrors(t *testing.T) {
	file := Refuse(Invalid, "file", NewReason(MsgFileEmpty))
	if file.Message != "file: is empty" || len(file.Fields) != 1 || file.Fields[0].Message != "is empty" {
		t.Errorf("Refuse with a field: %+v", file)
	}
	for err, want := range map[error]string{
		file:                                     "This file is empty. Please choose another one.",
		Refuse(Invalid, "", NewReason(MsgEmail)): "This answer must be a valid email address.",
		&Error{Code: Invalid, Fields: file.Fields}:                 "This file is empty. Please choose another one.",
		Errorf(Invalid, "something uncatalogued"):                  "This answer is not valid.",
		errors.New("not a domain error"):                           "This answer is not valid.",
		Refuse(TooLarge, "file", NewReason(MsgFileTooLarge, "10")): "This file is larger than the 10 MiB limit.",
	} {
		if got := Sentence(err); got != want {
			t.Errorf("Sentence(%v) = %q, want %q", err, got, want)
		}
	}
}
