package respond

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"forma/internal/form"
)

// moduleSources returns the hand-written modules of the page script by name.
func moduleSources(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	for name, a := range assets {
		if strings.HasPrefix(name, modulePrefix) {
			out[name] = string(a.Body)
		}
	}
	if len(out) < 5 {
		t.Fatalf("found %d modules", len(out))
	}
	return out
}

// TestScriptCodesAreCatalogued checks that every problem the page script names
// itself (its client-side checks) has a sentence in the catalogue.
func TestScriptCodesAreCatalogued(t *testing.T) {
	call := regexp.MustCompile(`sentence\("(\w+)"`)
	catalogue := form.Catalogue()
	found := 0
	for name, src := range moduleSources(t) {
		for _, m := range call.FindAllStringSubmatch(src, -1) {
			found++
			if _, ok := catalogue[form.MessageCode(m[1])]; !ok {
				t.Errorf("%s names the code %q, which the catalogue does not have", name, m[1])
			}
		}
	}
	if found < 3 {
		t.Errorf("found %d codes named in the modules; the client-side checks should name theirs", found)
	}
}

// TestNoSentencesOutsideTheCatalogue checks that neither the page script nor this
// package's Go code writes a validation sentence (or turns a field message into
// one) instead of taking it from the catalogue.
func TestNoSentencesOutsideTheCatalogue(t *testing.T) {
	sentence := regexp.MustCompile(`"(This answer|Please answer|This file)\b|"is required"|"must |"names no`)
	for name, src := range moduleSources(t) {
		if m := sentence.FindString(src); m != "" {
			t.Errorf("%s writes %s itself", name, m)
		}
	}
	files, _ := filepath.Glob("*.go")
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if m := sentence.Find(src); m != nil {
			t.Errorf("%s writes %s itself", f, m)
		}
	}
}

// TestModuleImports checks that every import between the modules names one that
// is served, under the same versioned folder (a relative "./name.js").
func TestModuleImports(t *testing.T) {
	imp := regexp.MustCompile(`(?m)^import\b[^;]*?from "([^"]+)";`)
	for name, src := range moduleSources(t) {
		for _, m := range imp.FindAllStringSubmatch(src, -1) {
			target := strings.TrimPrefix(m[1], "./")
			if target == m[1] || strings.Contains(target, "/") || assets[modulePrefix+target] == nil {
				t.Errorf("%s imports %q: not a module of the folder", name, m[1])
			}
		}
	}
	if !strings.Contains(moduleSources(t)[modulePrefix+"main.js"], `from "./steps.js"`) {
		t.Error("main.js does not import steps.js (the import pattern may be wrong)")
	}
}
