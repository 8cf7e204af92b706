package generate

import (
	"slices"
	"testing"
)

func TestLanguageOf(t *testing.T) {
	for prompt, want := range map[string]language{
		"Kontaktformular":                                 german,
		"Rückrufbitte: Name, Telefon, Anliegen":           german,
		"Terminbuchung beim Friseur: Name, Handynummer":   german,
		"formulaire de contact":                           french,
		"Réservation : nom, téléphone, date":              french,
		"Formulario de contacto":                          spanish,
		"¿Tienes pareja? nombre, correo":                  spanish,
		"a contact form with name, email and message":     english,
		"Café feedback: rate the crème brûlée":            english,
		"Contact form with name, e-mail, tel and message": english,
		"name, email": english,
	} {
		if got := languageOf(prompt); got != want {
			t.Errorf("languageOf(%q) = %s, want %s", prompt, got, want)
		}
	}
}

func TestWords(t *testing.T) {
	for s, want := range map[string][]string{
		"Telefonnummer":          {"telefon", "nummer"},
		"E-Mail-Adresse":         {"e-mail", "adresse"},
		"centres d'intérêt":      {"centres", "de", "interet"},
		"l'animal":               {"animal"},
		"Größe":                  {"grosse"},
		"Nummer, Vorname, email": {"nummer", "vorname", "email"},
	} {
		if got := words(s); !slices.Equal(got, want) {
			t.Errorf("words(%q) = %q, want %q", s, got, want)
		}
	}
}

// TestTemplatesTranslated: every template question (but the quiz's) has a German,
// French and Spanish text, and every default choice a translation unless it is
// the same in every language.
func TestTemplatesTranslated(t *testing.T) {
	neutral := map[string]bool{}
	for _, o := range []string{"Chrome", "Firefox", "Safari", "Edge", "Windows", "macOS", "Linux", "iOS", "Android",
		"XS", "S", "M", "L", "XL", "XXL", "1-10", "11-50", "51-200", "18-24", "25-34", "35-44", "45-54", "55-64",
		"PayPal", "VIP"} {
		neutral[o] = true
	}
	check := func(what string, texts ...string) {
		for _, s := range texts {
			if _, ok := translate(s, french); !ok && !neutral[s] {
				t.Errorf("%s: no translation of %q", what, s)
			}
		}
	}
	for _, in := range append(intents, genericIntent) {
		if in.title == "Quiz" {
			continue
		}
		for _, q := range in.template {
			check(in.title, q.text)
			check(in.title, q.options...)
		}
	}
	for _, k := range concepts {
		check(k.key, k.options...)
	}
}
