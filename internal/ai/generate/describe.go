package generate

import (
	"strings"

	"forma/internal/ai/text"
)

// fallbackTitle names a form whose prompt gives no name and no known kind.
const fallbackTitle = "New Form"

// titleStop ends the words before a form noun that belong to its title ("a short
// customer feedback survey" → "Customer Feedback Survey").
var titleStop = text.Set("a an the our my your their this that for to of with create make build need needs want " +
	"please me us i we generate design set up simple short quick basic new little small online some is are be " +
	"can could would will help just about tell")

// genericNouns say only that a form is a form; a title drops them when it has other
// words.
var genericNouns = text.Set("form forms sheet")

// makeTitle names the form after the first header that names it ("job application
// form" → "Job Application", "a feedback form for my yoga class" → "Yoga Class
// Feedback"), else after a short header ("Employee exit interview"), else after its
// intent. A foreign form takes its first header as written (foreignTitle).
func makeTitle(headers []string, in *intent, lang language) string {
	if lang != english {
		return foreignTitle(headers, lang)
	}
	for _, h := range headers {
		t := titleFrom(text.SplitWords(h))
		if t == "" {
			continue
		}
		if !strings.Contains(t, " ") {
			if in != nil {
				return in.title
			}
			t += " Form"
		}
		return truncate(t, 80)
	}
	for _, h := range headers {
		if t := shortLabel(text.SplitWords(h)); t != "" {
			return t
		}
	}
	if in != nil {
		return in.title
	}
	return fallbackTitle
}

// shortLabel titles a header of two to five words without its leading filler; ""
// for other headers.
func shortLabel(ws []string) string {
	for len(ws) > 0 && titleStop[strings.ToLower(ws[0])] {
		ws = ws[1:]
	}
	if len(ws) < 2 || len(ws) > 5 {
		return ""
	}
	return titleCase(strings.Join(ws, " "))
}

// titleFrom builds a title around the first form noun of ws; "" when there is none
// or it is a bare "form".
func titleFrom(ws []string) string {
	i := indexOfFormNoun(ws)
	if i < 0 {
		return ""
	}
	j := i
	for j+1 < len(ws) && formNouns[strings.ToLower(ws[j+1])] {
		j++
	}
	s := i
	for s > 0 && i-s < 4 && !titleStop[strings.ToLower(ws[s-1])] {
		s--
	}
	core := ws[s : j+1]
	if len(core) > 1 && genericNouns[strings.ToLower(core[len(core)-1])] {
		core = core[:len(core)-1]
	}
	title := titleCase(strings.Join(core, " "))
	if len(core) == 1 {
		if purpose := purposeAfter(ws[j+1:]); purpose != "" {
			return titleCase(purpose) + " " + title
		}
		if genericNouns[strings.ToLower(core[0])] {
			return ""
		}
	}
	return title
}

func indexOfFormNoun(ws []string) int {
	for i, w := range ws {
		if formNouns[strings.ToLower(w)] {
			return i
		}
	}
	return -1
}

var (
	purposeLeads = text.Set("for about on")
	gerunds      = text.Set("collecting gathering capturing getting requesting")
	determiners  = text.Set("a an the our my your their his her its this")
	purposeStops = text.Set("asking ask with that where which who to including collecting so and or where " +
		"should must we i they it is are will")
)

// purposeAfter reads what a form is for: "for our annual conference" → "annual
// conference".
func purposeAfter(ws []string) string {
	if len(ws) == 0 || !purposeLeads[strings.ToLower(ws[0])] {
		return ""
	}
	var out []string
	for _, w := range ws[1:] {
		lw := strings.ToLower(w)
		if len(out) == 0 && (determiners[lw] || gerunds[lw]) {
			continue
		}
		if purposeStops[lw] || len(out) == 4 {
			break
		}
		out = append(out, w)
	}
	return strings.Join(out, " ")
}

// foreignTitle names a foreign form after its first header with content, without
// the filler that opens it ("Ich brauche ein Kontaktformular" → "Kontaktformular"),
// else with the language's word for a form.
func foreignTitle(headers []string, lang language) string {
	for _, h := range headers {
		fs := strings.Fields(h)
		for len(fs) > 0 && !hasContent(fs[0]) {
			fs = fs[1:]
		}
		if len(fs) > 0 {
			return truncate(capitalizeSentence(strings.Trim(strings.Join(fs, " "), " ,;:-")), 80)
		}
	}
	return fallbackTitles[lang]
}

// makeDescription writes the one-sentence description of a form: its intent's, when
// the title is about that intent, else a plain invitation (in a foreign language,
// always the invitation).
func makeDescription(title string, in *intent, lang language) string {
	if lang != english {
		return descriptions[lang]
	}
	ws := words(title)
	switch {
	case in != nil && (title == in.title || text.AnyForms(ws[max(0, len(ws)-2):], in.phrases)):
		return in.description
	case title == fallbackTitle:
		return "Please answer the questions below."
	case wholeNouns[ws[len(ws)-1]]:
		return "Please fill out the " + title + " below."
	}
	return "Please fill out the " + title + " form below."
}

// wholeNouns name a whole form, so a description need not add "form" after them.
var wholeNouns = text.Set("form survey questionnaire quiz poll application registration signup sign-up booking " +
	"reservation report request evaluation checklist rsvp inquiry enquiry proposal")
