// Package internal_test holds the rules of how Forma's packages may depend on each
// other (see docs/architecture.md): imports run downward only, and a few
// boundaries are never crossed.
package internal_test

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// allowed lists, for every package of the module, the module packages it may
// import. A new package, or a new import between packages, is added here on
// purpose, after checking that it points down (docs/architecture.md).
var allowed = map[string][]string{
	"form":              {},
	"logic":             {"form"},
	"quota":             {"form"},
	"auth":              {"form", "quota"},
	"blob":              {},
	"blob/s3test":       {},
	"httpx":             {"form"},
	"config":            {},
	"store":             {"auth", "form", "quota"},
	"ai/text":           {},
	"ai/sentiment":      {"ai/text"},
	"ai/query":          {"ai/sentiment", "ai/text", "form"},
	"ai":                {"ai/query", "form"},
	"ai/generate":       {"ai", "ai/text", "form"},
	"ai/analyze":        {"ai", "ai/query", "ai/text", "form"},
	"ai/chat":           {"ai", "ai/query", "ai/text", "form"},
	"ai/builtin":        {"ai", "ai/analyze", "ai/chat", "ai/generate", "ai/query", "form"},
	"ai/openai":         {"ai", "ai/analyze", "ai/query", "form"},
	"ai/aitest":         {"ai/query", "form"},
	"render":            {"ai/query", "blob", "form", "httpx", "store"},
	"assist":            {"ai", "form", "quota", "render", "store"},
	"webhook":           {"form", "render", "store"},
	"mail":              {"config", "form", "store"},
	"mail/mailtest":     {"config"},
	"respond":           {"blob", "form", "httpx", "logic", "store"},
	"ops":               {"ai", "ai/query", "blob", "form", "httpx", "store"},
	"backup":            {"blob", "store"},
	"dashboard":         {"ai", "ai/query", "assist", "auth", "form", "httpx", "quota", "render", "store", "webhook"},
	"api":               {"ai", "ai/query", "assist", "auth", "form", "httpx", "quota", "render", "store", "webhook"},
	"server":            {"ai", "ai/builtin", "ai/openai", "api", "blob", "config", "dashboard", "httpx", "mail", "ops", "quota", "render", "respond", "store", "webhook"},
	"server/servertest": {"api", "auth", "config", "server", "store"},
	"store/storetest":   {},
	// bench (the harness of `forma bench`) drives a server in a child process over
	// HTTP; it makes the bench account and keys with the store (auth for the key
	// settings, quota to pick the plan with the highest limit), builds forms from
	// the domain's input types and completes loaded responses with logic, the rule
	// a respondent's submission goes through.
	"bench":     {"auth", "form", "logic", "quota", "store"},
	"cmd/forma": {"auth", "backup", "bench", "config", "form", "quota", "server", "store"},
}

// never are dependencies, direct or indirect, that must not exist.
var never = []struct{ from, to, why string }{
	{"ai", "ai/builtin", "ai defines the provider interface; the providers implement it"},
	{"ai", "ai/openai", "ai defines the provider interface; the providers implement it"},
	{"ai/builtin", "ai/openai", "the two providers are independent"},
	{"ai/openai", "ai/builtin", "the two providers are independent"},
	{"api", "respond", "the API and the public pages are siblings"},
	{"dashboard", "respond", "the dashboard and the public pages are siblings"},
	{"dashboard", "api", "the dashboard calls the store and the domain, not the API"},
	{"webhook", "respond", "delivery renders through render, not the public pages"},
	{"ai/openai", "ai/chat", "the model answers through the query engine, not the offline chat"},
	{"ai/openai", "ai/generate", "the model generates forms itself"},
}

const module = "forma"

// packages reads the module's production (non-test) imports: package path
// relative to the module → every import path.
func packages(t *testing.T) map[string][]string {
	t.Helper()
	pkgs := map[string][]string{}
	fset := token.NewFileSet()
	for _, root := range []string{".", "../cmd"} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return err
			}
			f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
			if err != nil {
				return err
			}
			pkg := strings.TrimPrefix(filepath.ToSlash(filepath.Dir(path)), "../")
			if _, ok := pkgs[pkg]; !ok {
				pkgs[pkg] = []string{}
			}
			for _, imp := range f.Imports {
				p, _ := strconv.Unquote(imp.Path.Value)
				if !slices.Contains(pkgs[pkg], p) {
					pkgs[pkg] = append(pkgs[pkg], p)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return pkgs
}

// local returns the module package an import path names ("" for others).
func local(imp string) string {
	switch {
	case strings.HasPrefix(imp, module+"/internal/"):
		return strings.TrimPrefix(imp, module+"/internal/")
	case strings.HasPrefix(imp, module+"/"):
		return strings.TrimPrefix(imp, module+"/")
	}
	return ""
}

func TestImportsPointDown(t *testing.T) {
	pkgs := packages(t)
	for pkg, imports := range pkgs {
		want, known := allowed[pkg]
		if !known {
			t.Errorf("package %s is not in the import rules: add it to allowed, with the packages it may import", pkg)
			continue
		}
		for _, imp := range imports {
			if p := local(imp); p != "" && !slices.Contains(want, p) {
				t.Errorf("%s imports %s, which the import rules do not allow", pkg, p)
			}
		}
	}
	for pkg := range allowed {
		if _, ok := pkgs[pkg]; !ok {
			t.Errorf("the import rules name %s, which does not exist", pkg)
		}
	}
}

func TestNoForbiddenDependencies(t *testing.T) {
	pkgs := packages(t)
	deps := func(from string) map[string]bool {
		seen := map[string]bool{}
		var visit func(string)
		visit = func(p string) {
			for _, imp := range pkgs[p] {
				if l := local(imp); l != "" && !seen[l] {
					seen[l] = true
					visit(l)
				}
			}
		}
		visit(from)
		return seen
	}
	for _, rule := range never {
		if deps(rule.from)[rule.to] {
			t.Errorf("%s depends on %s: %s", rule.from, rule.to, rule.why)
		}
	}
}

// TestOnlyTheStoreSpeaksSQL: every other package reaches the database through the
// store's methods, which own their transactions.
func TestOnlyTheStoreSpeaksSQL(t *testing.T) {
	for pkg, imports := range packages(t) {
		if pkg != "store" && slices.Contains(imports, "database/sql") {
			t.Errorf("%s imports database/sql; only the store may", pkg)
		}
	}
}
