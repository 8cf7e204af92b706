package respond

import (
	"bytes"
	"context"
	"embed"
	"encoding/json"
	"html/template"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"

	"forma/internal/form"
	"forma/internal/httpx"
	"forma/internal/logic"
)

// The public pages are html/template files (auto-escaping: nothing an owner or a
// respondent typed is ever rendered as HTML) with embedded assets and no CDN.
//
//go:embed templates/*.html
var templateFiles embed.FS

var pageTemplates = template.Must(template.New("pages").Funcs(template.FuncMap{"cut": cutAt}).
	ParseFS(templateFiles, "templates/*.html"))

// cutAt is text before and after its placeholder: the words around the markup
// that a template puts in its place (a catalogue's text is never HTML).
func cutAt(text, placeholder string) []string {
	before, after, _ := strings.Cut(text, placeholder)
	return []string{before, after}
}

// pageCSP is the Content-Security-Policy of every page. Scripts and styles come
// only from this server's /assets (no inline script or style: the form definition
// reaches the page script through a data- attribute); scripts may call back only
// to this server; the form posts only here. frame-ancestors is open on purpose:
// forms are meant to be embedded in other sites, and a page holds no credentials
// and no action but the respondent's own submission, so framing it cannot be
// abused the way framing a signed-in page can.
const pageCSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors *"

// pagePolicy is the Content-Security-Policy of f's pages: pageCSP, whose form
// may also lead to f's thank-you redirect (a browser applies form-action to the
// redirect that answers the post), and which only f's frame ancestors may
// frame when it names any (form.Origin checked each: nothing but
// scheme://host[:port]).
func pagePolicy(f *form.Form) string {
	csp := pageCSP
	if origin := f.Settings.ThankYou.RedirectOrigin(); origin != "" {
		csp = strings.Replace(csp, "form-action 'self'", "form-action 'self' "+origin, 1)
	}
	if origins := f.Settings.FrameAncestors; len(origins) > 0 {
		csp = strings.Replace(csp, "frame-ancestors *", "frame-ancestors 'self' "+strings.Join(origins, " "), 1)
	}
	return csp
}

// previewCSP is the policy of a preview (Preview): that of the page, except that
// the form may post nowhere and only this server's own pages (the builder) may
// frame it, since it is a signed-in owner's page.
const previewCSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; form-action 'none'; base-uri 'none'; frame-ancestors 'self'"

// pageState is what a form page shows besides the form itself.
type pageState struct {
	// Values holds the raw posted values per question, to fill the inputs again.
	Values map[int64][]string
	// Errors holds, per question, the sentence a respondent reads about its
	// problem (form.Sentence: from the catalogue of validation messages).
	Errors map[int64]string
	// Files holds the name of a file already uploaded in an earlier, failed attempt;
	// its upload id is in Values and is posted again in a hidden input.
	Files map[int64]string
	// Message is a form-level message.
	Message string
	// StartToken goes into the hidden _started input.
	StartToken string
	// Hidden holds the values of the form's hidden fields, from the page's
	// address or posted back, each carried by a hidden input (hiddenInputPrefix).
	Hidden form.HiddenValues
	// Embed marks the page of an iframe (embedded).
	Embed bool
}

// chrome is what every public page has around its content: its files, its
// language (Lang, the form's tag; Dir, its writing direction; L, the catalogue
// of its words), and whether it is the page of an iframe in another site
// (?embed=1), which has no footer and no margins, and tells the embedding page
// its height (frame.js).
type chrome struct {
	Assets pageAssets
	Lang   string
	Dir    string
	L      *locale
	Embed  bool
}

// chromeOf is the chrome of a page of the form with settings s (embedded or
// not).
func chromeOf(s form.Settings, embed bool) chrome {
	lang := s.Language
	if lang == "" {
		lang = form.DefaultLanguage
	}
	return chrome{Assets: pageAssetURLs, Lang: lang, Dir: direction(s), L: localeOf(s), Embed: embed}
}

// embedQuery is the query of a page address that asks for the page of an
// iframe.
const embedQuery = "embed=1"

// embedded reports whether r asks for the page of an iframe.
func embedded(r *http.Request) bool {
	return r.URL.Query().Get("embed") == "1"
}

// pageChrome is the chrome of the page of f (nil: no form, English) answering
// r.
func pageChrome(r *http.Request, f *form.Form) chrome {
	var s form.Settings
	if f != nil {
		s = f.Settings
	}
	return chromeOf(s, embedded(r))
}

// hiddenInputPrefix starts the name of the input that carries a hidden field's
// value in the form post, so that no field name can clash with the others
// (q_<id>, website, _started).
const hiddenInputPrefix = "h_"

// hiddenInput is an input carrying the value of the hidden field Field.
type hiddenInput struct {
	Name, Field, Value string
}

// pageView is the data of the form page template.
type pageView struct {
	chrome
	PageTitle   string
	Title       string
	Description string
	Action      string
	ShareToken  string
	MultiStep   bool
	Definition  string // the public definition as JSON, for the page script
	Words       string // the page script's words as JSON (locale.scriptData)
	StepLabel   string // the first step's, until the script takes over
	StartToken  string
	Message     string
	Summary     []summaryItem
	HasRequired bool
	Questions   []questionView
	Hidden      []hiddenInput
	Thanks      thanksView
	// Preview marks the owner's preview: a banner, no action, the submit button
	// left to the page script, which records nothing.
	Preview bool
}

// summaryItem is a line of the error summary: a link to the field.
type summaryItem struct {
	Href string
	Text string
}

// questionView is one question as the template renders it.
type questionView struct {
	ID           int64
	Name         string
	ControlID    string // the id of the input, or of the first option of a group
	Type         string
	Kind         string // input, textarea, select, checkboxes, rating, yesno, slider, file, currency
	InputType    string
	InputMode    string
	Autocomplete string
	Text         string
	Required     bool
	Value        string
	Options      []optionView
	Hint         string
	HintID       string
	L            *locale
	Error        string
	ErrorID      string
	DescribedBy  string
	LogicHidden  bool
	MaxLength    int
	Min, Max     string
	Step         string
	Answered     bool
	Currency     string
	Symbol       string
	FileID       string
	FileName     string
	Accept       string
	Conditional  bool
}

// optionView is one choice of a select, checkbox group or radio group.
type optionView struct {
	ID      string
	Value   string
	Label   string
	Checked bool
}

// renderForm writes the form page with status: the questions, filled with
// st.Values, and st's errors.
func (h *Handler) renderForm(w http.ResponseWriter, r *http.Request, status int, f *form.Form, st pageState) {
	h.keepUploadNames(r.Context(), f, &st)
	v, err := h.formView(f, st, publicDefinition(f))
	if err != nil {
		serverError(w, r, "render form page", err)
		return
	}
	writePage(w, r, status, "form", v, pagePolicy(f))
}

// Preview writes the page of f as its owner sees it in the builder, drafts
// included: the public page's own template and script, with a banner saying
// that answers are not recorded and nothing to record them with (no action, a
// submit button disabled until the page script takes it over, which then only
// says so, and a policy that lets the form post nowhere). The definition the
// script reads keeps the scoring, so that conditions on the score are evaluated
// in the page. Only this server's own pages may frame it. The caller has checked
// that f is the signed-in owner's.
func (h *Handler) Preview(w http.ResponseWriter, r *http.Request, f *form.Form) {
	v, err := h.formView(f, pageState{}, formDefinition(f, nil))
	if err != nil {
		serverError(w, r, "render a preview", err)
		return
	}
	v.PageTitle, v.Action, v.ShareToken, v.Preview = v.L.word("titlePreview", "title", f.Title), "", "", true
	w.Header().Set("X-Frame-Options", "SAMEORIGIN")
	writePage(w, r, http.StatusOK, "form", v, previewCSP)
}

// formView is the data of f's page: its questions as def describes them to the
// script, filled with st.Values, with st's errors.
func (h *Handler) formView(f *form.Form, st pageState, def Definition) (pageView, error) {
	v := pageView{
		Title: f.Title, Description: f.Description, PageTitle: f.Title,
		Action: "/f/" + f.ShareToken + "/submissions", ShareToken: f.ShareToken,
		MultiStep: f.DisplayMode == form.MultiStep, StartToken: st.StartToken,
		Message: st.Message, chrome: chromeOf(f.Settings, st.Embed), Thanks: thanksOf(f, nil, st.Embed),
	}
	l := v.L
	v.Words = l.scriptData()
	if st.Embed {
		v.Action += "?" + embedQuery
	}
	b, err := json.Marshal(def)
	if err != nil {
		return v, err
	}
	v.Definition = string(b)
	for _, name := range f.Settings.HiddenFields {
		if value := st.Hidden[name]; value != "" {
			v.Hidden = append(v.Hidden, hiddenInput{Name: hiddenInputPrefix + name, Field: name, Value: value})
		}
	}
	visible := logic.Evaluate(f.Questions, stateAnswers(f, st), st.Hidden).Visible
	targets := logicTargets(f)
	for _, q := range form.InOrder(f.Questions) {
		qv := buildQuestion(&q, st, h.cfg.MaxUploadBytes, l)
		qv.LogicHidden = !visible[q.ID]
		qv.Conditional = targets[q.ID] || (q.Logic != nil && q.Logic.ShowIf != nil)
		if qv.Required {
			v.HasRequired = true
		}
		if qv.Error != "" {
			v.Summary = append(v.Summary, summaryItem{Href: "#" + qv.ControlID, Text: shorten(qv.Text, 80) + ": " + qv.Error})
		}
		v.Questions = append(v.Questions, qv)
	}
	v.StepLabel = l.word("stepOf", "n", "1", "total", strconv.Itoa(len(v.Questions)))
	if len(v.Summary) > 0 || v.Message != "" {
		v.PageTitle = l.word("titleError", "title", f.Title)
	}
	return v, nil
}

// renderThanks writes the page shown after a completed submission, with the
// answers texts piped into its screen.
func (h *Handler) renderThanks(w http.ResponseWriter, r *http.Request, f *form.Form, texts map[int64]string) {
	v := struct {
		chrome
		PageTitle string
		Thanks    thanksView
	}{pageChrome(r, f), "", thanksOf(f, texts, embedded(r))}
	v.PageTitle = v.L.word("titleThanks", "title", f.Title)
	writePage(w, r, http.StatusOK, "thanks", v, pagePolicy(f))
}

// noticeView is the data of a page that only says something: a title and
// paragraphs.
type noticeView struct {
	chrome
	PageTitle string
	Lines     []string
}

// renderNotFound writes the page of a form that does not exist or is not
// published, in the language of f (nil: none is known, English).
func renderNotFound(w http.ResponseWriter, r *http.Request, f *form.Form) {
	renderNotice(w, r, http.StatusNotFound, f, "notFoundTitle", "notFoundGone", "notFoundCheck")
}

// renderForbidden writes the page refusing a post to form f sent from another
// site, in f's language.
func renderForbidden(w http.ResponseWriter, r *http.Request, f *form.Form) {
	renderNotice(w, r, http.StatusForbidden, f, "refusedTitle", "refusedCrossSite", "refusedOpen")
}

// renderNotice writes a notice page in the language of f (nil: English): the
// page's word title as its title, the words lines as its paragraphs.
func renderNotice(w http.ResponseWriter, r *http.Request, status int, f *form.Form, title string, lines ...string) {
	v := noticeView{chrome: pageChrome(r, f)}
	v.PageTitle = v.L.word(title)
	for _, key := range lines {
		v.Lines = append(v.Lines, v.L.word(key))
	}
	writeTemplate(w, r, status, "notice", v)
}

// writeTemplate renders a public page completely before sending anything, so
// that a template failure is a clean 500.
func writeTemplate(w http.ResponseWriter, r *http.Request, status int, name string, data any) {
	writePage(w, r, status, name, data, pageCSP)
}

// writePage renders the template name with data under the policy csp.
func writePage(w http.ResponseWriter, r *http.Request, status int, name string, data any, csp string) {
	page, err := renderPage(name, data)
	if err != nil {
		serverError(w, r, "render page "+name, err)
		return
	}
	writeHTML(w, status, csp, page)
}

// renderPage renders the template name with data.
func renderPage(name string, data any) ([]byte, error) {
	var buf bytes.Buffer
	err := pageTemplates.ExecuteTemplate(&buf, name, data)
	return buf.Bytes(), err
}

// writeHTML sends page under the policy csp.
func writeHTML(w http.ResponseWriter, status int, csp string, page []byte) {
	hd := w.Header()
	hd.Set("Content-Type", "text/html; charset=utf-8")
	hd.Set("Content-Length", strconv.Itoa(len(page)))
	hd.Set("Content-Security-Policy", csp)
	hd.Set("Cache-Control", "no-store")
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Referrer-Policy", "strict-origin-when-cross-origin")
	w.WriteHeader(status)
	_, _ = w.Write(page)
}

// keepUploadNames fills in the names of files uploaded with an earlier attempt
// whose ids were posted back without a name, and forgets ids that name no upload
// of this form (so a forged id shows nothing of another form).
func (h *Handler) keepUploadNames(ctx context.Context, f *form.Form, st *pageState) {
	for _, q := range f.Questions {
		vals := st.Values[q.ID]
		if q.Type != form.FileUpload || len(vals) == 0 || vals[0] == "" || st.Files[q.ID] != "" {
			continue
		}
		u, err := h.store.GetUpload(ctx, vals[0])
		if err != nil && form.ErrorCode(err) != form.NotFound {
			httpx.LogError(ctx, "look up a posted upload", err)
		}
		if err != nil || u.FormID != f.ID {
			delete(st.Values, q.ID)
			continue
		}
		if st.Files == nil {
			st.Files = map[int64]string{}
		}
		st.Files[q.ID] = u.Name
	}
}

// stateAnswers converts the posted values into answers for the logic engine, so
// that the page starts with the questions the logic hides already hidden.
func stateAnswers(f *form.Form, st pageState) logic.Answers {
	out := logic.Answers{}
	for i := range f.Questions {
		q := &f.Questions[i]
		vals := st.Values[q.ID]
		if len(vals) == 0 {
			continue
		}
		if q.Type == form.FileUpload {
			if name := st.Files[q.ID]; name != "" {
				out[q.ID] = map[string]any{"name": name}
			}
			continue
		}
		raw, err := form.ParseFormValue(q, vals)
		if err != nil {
			continue
		}
		var v any
		if json.Unmarshal(raw, &v) == nil && v != nil {
			out[q.ID] = v
		}
	}
	return out
}

// logicTargets returns the questions that some rule may show, hide or skip: a
// page without the script tells respondents that these may not apply.
func logicTargets(f *form.Form) map[int64]bool {
	out := map[int64]bool{}
	qs := form.InOrder(f.Questions)
	pos := make(map[int64]int, len(qs))
	for i, q := range qs {
		pos[q.ID] = i
	}
	for i, q := range qs {
		if q.Logic == nil || q.Logic.Advanced == nil {
			continue
		}
		for _, a := range q.Logic.Advanced.Actions {
			target, ok := a.TargetQuestionID()
			end := len(qs)
			switch a.Type {
			case form.ActionShow, form.ActionHide:
				if ok {
					out[target] = true
				}
				continue
			case form.ActionSkipToQuestion, form.ActionSkipToSection:
				if j, known := pos[target]; ok && known {
					end = j
				} else {
					continue
				}
			case form.ActionEndForm:
			default:
				continue
			}
			for _, later := range qs[i+1 : max(i+1, end)] {
				out[later.ID] = true
			}
		}
	}
	return out
}

// acceptedFiles is the accept attribute of file inputs (the server checks the
// sniffed type in any case).
const acceptedFiles = ".pdf,.png,.jpg,.jpeg,.gif,.webp,.txt,.docx,.xlsx,.pptx,.odt," +
	"application/pdf,image/png,image/jpeg,image/gif,image/webp,text/plain"

// buildQuestion is q as the template renders it, in the words of l.
func buildQuestion(q *form.Question, st pageState, maxUpload int64, l *locale) questionView {
	name := fieldName(q.ID)
	vals := st.Values[q.ID]
	qv := questionView{
		ID: q.ID, Name: name, ControlID: name, Type: string(q.Type), Text: q.Text, Required: q.Required,
		HintID: name + "-hint", ErrorID: name + "-error", Error: st.Errors[q.ID], L: l,
	}
	if len(vals) > 0 {
		qv.Value = vals[0]
	}
	switch q.Type {
	case form.Text:
		qv.Kind, qv.InputType, qv.MaxLength = "input", "text", form.MaxTextAnswerLen
	case form.Textarea:
		qv.Kind, qv.MaxLength = "textarea", form.MaxTextareaAnswerLen
	case form.Email:
		qv.Kind, qv.InputType, qv.InputMode, qv.Autocomplete = "input", "email", "email", "email"
		qv.MaxLength = form.MaxEmailAnswerLen
	case form.Phone:
		qv.Kind, qv.InputType, qv.InputMode, qv.Autocomplete = "input", "tel", "tel", "tel"
		qv.MaxLength = form.MaxPhoneAnswerLen
		qv.Hint = l.word("hintPhone")
	case form.URL:
		qv.Kind, qv.InputType, qv.InputMode, qv.Autocomplete = "input", "url", "url", "url"
		qv.MaxLength = form.MaxURLAnswerLen
		qv.Hint = l.word("hintURL")
	case form.Number:
		qv.Kind, qv.InputType, qv.InputMode, qv.Step = "input", "number", "decimal", "any"
	case form.Date:
		qv.Kind, qv.InputType = "input", "date"
	case form.Time:
		qv.Kind, qv.InputType = "input", "time"
	case form.Select:
		qv.Kind = "select"
		qv.Options = choiceOptions(name, q.Options, vals)
	case form.MultiSelect:
		qv.Kind = "checkboxes"
		qv.Options = choiceOptions(name, q.Options, vals)
		qv.Hint = l.word("hintMulti")
	case form.Rating:
		qv.Kind = "rating"
		qv.Options = choiceOptions(name, []string{"1", "2", "3", "4", "5"}, vals)
		for i := range qv.Options {
			qv.Options[i].Label = l.word("ratingLabel", "n", qv.Options[i].Value)
		}
		qv.Hint = l.word("hintRating")
	case form.YesNo:
		qv.Kind = "yesno"
		qv.Options = choiceOptions(name, []string{"true", "false"}, vals)
		qv.Options[0].Label, qv.Options[1].Label = l.word("yes"), l.word("no")
	case form.Slider:
		qv.Kind, qv.Answered = "slider", qv.Value != ""
		if s := q.Slider; s != nil {
			qv.Min, qv.Max, qv.Step = num(s.Min), num(s.Max), num(s.Step)
			qv.Hint = l.word("hintSlider", "min", qv.Min, "max", qv.Max, "step", qv.Step)
		}
	case form.Currency:
		qv.Kind, qv.InputMode, qv.Step = "currency", "decimal", "any"
		if c := q.Currency; c != nil {
			qv.Currency, qv.Symbol = c.Currency, currencySymbol(c.Currency)
			if c.Min != nil {
				qv.Min = num(*c.Min)
			}
			if c.Max != nil {
				qv.Max = num(*c.Max)
			}
			qv.Hint = currencyHint(l, c.Currency, qv.Min, qv.Max)
		}
	case form.FileUpload:
		qv.Kind, qv.Accept = "file", acceptedFiles
		qv.Hint = l.word("hintFile", "size", sizeText(maxUpload))
		if name := st.Files[q.ID]; name != "" && qv.Value != "" {
			qv.FileID, qv.FileName = qv.Value, name
		}
		qv.Value = ""
	default:
		qv.Kind, qv.InputType = "input", "text"
	}
	if len(qv.Options) > 0 && qv.Kind != "select" {
		qv.ControlID = qv.Options[0].ID
	}
	var ids []string
	if qv.Hint != "" {
		ids = append(ids, qv.HintID)
	}
	if qv.Error != "" {
		ids = append(ids, qv.ErrorID)
	}
	qv.DescribedBy = strings.Join(ids, " ")
	return qv
}

// choiceOptions builds the choices of a group named name; those whose value was
// posted are checked.
func choiceOptions(name string, values, posted []string) []optionView {
	chosen := map[string]bool{}
	for _, p := range posted {
		chosen[p] = true
	}
	out := make([]optionView, len(values))
	for i, v := range values {
		out[i] = optionView{ID: name + "_" + strconv.Itoa(i), Value: v, Label: v, Checked: chosen[v]}
	}
	return out
}

// currencyHint says the currency of an amount and its bounds, min and max
// ("" when unbounded).
func currencyHint(l *locale, currency, min, max string) string {
	key := "hintCurrency"
	switch {
	case min != "" && max != "":
		key = "hintCurrencyRange"
	case min != "":
		key = "hintCurrencyMin"
	case max != "":
		key = "hintCurrencyMax"
	}
	return l.word(key, "currency", currency, "min", min, "max", max)
}

// sizeText prints a byte count for people: 10 MB, 512 KB.
func sizeText(n int64) string {
	if n >= 1<<20 {
		return strconv.FormatInt(n>>20, 10) + " MB"
	}
	return strconv.FormatInt(max(n>>10, 1), 10) + " KB"
}

func num(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// shorten cuts s to at most n characters.
func shorten(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}

// currencySymbol is the usual symbol of a currency, or "" when its code is what
// people write.
func currencySymbol(code string) string {
	return map[string]string{
		"USD": "$", "EUR": "€", "GBP": "£", "JPY": "¥", "CNY": "¥", "INR": "₹", "KRW": "₩",
		"AUD": "$", "CAD": "$", "NZD": "$", "HKD": "$", "SGD": "$", "MXN": "$", "BRL": "R$",
		"RUB": "₽", "TRY": "₺", "ILS": "₪", "NGN": "₦", "PHP": "₱", "THB": "฿", "UAH": "₴",
		"VND": "₫", "PLN": "zł", "ZAR": "R", "CHF": "", "SEK": "kr", "NOK": "kr", "DKK": "kr",
	}[code]
}
