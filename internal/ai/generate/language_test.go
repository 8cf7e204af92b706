package generate_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"forma/internal/form"
)

// questions lists a form's questions as "type text [options]".
func questions(in form.FormInput) []string {
	var out []string
	for _, q := range in.Questions {
		s := fmt.Sprintf("%s %s", q.Type, *q.Question)
		if len(q.Options) > 0 {
			s += " [" + strings.Join(q.Options, ", ") + "]"
		}
		out = append(out, s)
	}
	return out
}

// TestForeignPrompts: a German, French or Spanish prompt gives a form in its
// language: the prompt's own words as question texts, the types read from them,
// the description in the language.
func TestForeignPrompts(t *testing.T) {
	for _, c := range []struct {
		prompt, title, description string
		want                       []string
	}{
		{"Kontaktformular mit Name, E-Mail, Telefonnummer und Nachricht", "Kontaktformular",
			"Bitte füllen Sie das folgende Formular aus.",
			[]string{"text Name", "email E-Mail", "phone Telefonnummer", "textarea Nachricht"}},
		{"Anmeldung für Kaffee und Kuchen: Name, Getränk (Kaffee oder Tee), Wie zufrieden waren Sie mit Essen und Service (1-5)?, Haben Sie Allergien?",
			"Anmeldung für Kaffee und Kuchen", "Bitte füllen Sie das folgende Formular aus.",
			[]string{"text Name", "select Getränk [Kaffee, Tee]", "rating Wie zufrieden waren Sie mit Essen und Service?",
				"yes_no Haben Sie Allergien?"}},
		{"Réservation de table : nom, téléphone, date, heure, nombre de couverts, êtes-vous client ?", "Réservation de table",
			"Merci de remplir le formulaire ci-dessous.",
			[]string{"text Nom", "phone Téléphone", "date Date", "time Heure", "number Nombre de couverts", "yes_no Êtes-vous client ?"}},
		{"Encuesta: ¿Cómo calificarías el servicio del 1 al 5? ¿Volverías? ¿Cuántas veces nos visitaste? Comentarios", "Encuesta",
			"Por favor, complete el siguiente formulario.",
			[]string{"rating ¿Cómo calificarías el servicio?", "yes_no ¿Volverías?", "number ¿Cuántas veces nos visitaste?",
				"textarea Comentarios"}},
	} {
		in := mustForm(t, c.prompt)
		if got := questions(in); !reflect.DeepEqual(got, c.want) || *in.Title != c.title || *in.Description != c.description {
			t.Errorf("Form(%q) = %q, %q, %q;\nwant %q, %q, %q", c.prompt, *in.Title, *in.Description, got, c.title, c.description, c.want)
		}
	}
}

// TestForeignThinPrompt: a prompt that only names a kind of form gets its template
// in the prompt's language, choices included.
func TestForeignThinPrompt(t *testing.T) {
	for prompt, want := range map[string][]string{
		"Kontaktformular": {"text Vollständiger Name", "email E-Mail-Adresse", "phone Telefonnummer", "text Betreff", "textarea Nachricht"},
		"formulario de contacto": {"text Nombre completo", "email Correo electrónico", "phone Teléfono", "text Asunto",
			"textarea Mensaje"},
		"sondage": {"rating Comment évaluez-vous votre expérience globale ?", "textarea Qu'avez-vous le plus apprécié ?",
			"textarea Que pourrions-nous améliorer ?", "yes_no Nous recommanderiez-vous à un ami ?",
			"textarea Autres commentaires ?", "text Nom", "email Adresse e-mail (si vous souhaitez une réponse)"},
	} {
		if got := questions(mustForm(t, prompt)); !reflect.DeepEqual(got, want) {
			t.Errorf("Form(%q) = %q, want %q", prompt, got, want)
		}
	}
	in := mustForm(t, "Anmeldung zum Hundekurs: Name, Geschlecht des Hundes, wie haben Sie von uns erfahren")
	if got := questions(in)[1]; got != "select Geschlecht des Hundes [Weiblich, Männlich, Nicht-binär, Keine Angabe]" {
		t.Errorf("default choices are not in German: %q", got)
	}
}

// TestEnglishStaysEnglish: English prompts are read as before, whatever foreign
// words they hold.
func TestEnglishStaysEnglish(t *testing.T) {
	in := mustForm(t, "Contact form for our café with name, email and message")
	want := []string{"text Full name", "email Email address", "textarea Message"}
	if got := questions(in); !reflect.DeepEqual(got, want) || *in.Description == "" || strings.Contains(*in.Description, "Bitte") {
		t.Errorf("got %q, %q; want %q", got, *in.Description, want)
	}
}

// TestTypos: misspelt field words of an English prompt are corrected; real words
// one letter away from them are kept.
func TestTypos(t *testing.T) {
	in := mustForm(t, "Contcat form: nmae, emial adress, phnoe numer and mesage")
	want := []string{"text Full name", "email Email address", "phone Phone number", "textarea Message"}
	if got := questions(in); !reflect.DeepEqual(got, want) || *in.Title != "Contact Us" {
		t.Errorf("got %q %q, want %q", *in.Title, got, want)
	}
	in = mustForm(t, "Spa booking: name, type of massage (Swedish, deep tissue), county")
	want = []string{"text Full name", "select Type of massage [Swedish, deep tissue]", "text County"}
	if got := questions(in); !reflect.DeepEqual(got[:3], want) {
		t.Errorf("got %q, want %q first", got, want)
	}
}

// TestPollsAndQuotes: a poll's list of bare choices is one question, and quoted
// choices keep their "and".
func TestPollsAndQuotes(t *testing.T) {
	in := mustForm(t, "A poll to vote on the club's next trip: 'Rome', 'Lisbon and Porto' or 'Oslo'")
	want := []string{"select Club's next trip [Rome, Lisbon and Porto, Oslo]"}
	if got := questions(in); !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	in = mustForm(t, `Quick poll - what's the best day for the team lunch: Tuesday, Wednesday or Thursday?`)
	want = []string{"select What's the best day for the team lunch? [Tuesday, Wednesday, Thursday]"}
	if got := questions(in); !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestForeignMarkupStaysText: markup in a foreign prompt is a question's plain text,
// as in an English one (the pages escape it).
func TestForeignMarkupStaysText(t *testing.T) {
	in := mustForm(t, "Umfrage mit Name und <script>alert(1)</script>")
	if got := questions(in); len(got) != 2 || got[1] != "text <script>alert(1)</script>" {
		t.Errorf("got %q", got)
	}
}

// TestReadmeExample: the README's example prompt gives the form it shows.
func TestReadmeExample(t *testing.T) {
	in := mustForm(t, "Anmeldung zum Töpferkurs: Vorname, Nachname, E-Mail, Handynummer, Termin (Samstag oder Sonntag), eigene Schürze vorhanden?")
	want := []string{"text Vorname", "text Nachname", "email E-Mail", "phone Handynummer", "select Termin [Samstag, Sonntag]",
		"yes_no Eigene Schürze vorhanden?"}
	if got := questions(in); !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}
