package form

import (
	"net/url"
	"regexp"
	"strconv"
	"strings"
)

// ThankYou is what a respondent sees, or where they are sent, after a completed
// submission: the owner's title and message, into which answers are piped
// ({{<question id>}}: Pipe), or a redirect to an http(s) URL with chosen answers
// added as query parameters (RedirectTo). It is one or the other.
type ThankYou struct {
	// Title replaces the page's "Thank you!" heading.
	Title string `json:"title,omitempty"`
	// Message is the text below it.
	Message string `json:"message,omitempty"`
	// RedirectURL, when set, is where the respondent goes instead.
	RedirectURL string `json:"redirectUrl,omitempty"`
	// RedirectParams are the answers added to RedirectURL.
	RedirectParams []RedirectParam `json:"redirectParams,omitempty"`
}

// RedirectParam adds the answer to a question to the redirect URL as the query
// parameter Name.
type RedirectParam struct {
	QuestionID int64  `json:"questionId"`
	Name       string `json:"name"`
}

// DefaultThankYouTitle is the heading of the thank-you screen when its owner
// wrote none, in English, where a catalogue of the page's languages can pick it
// up.
const DefaultThankYouTitle = "Thank you!"

// Limits of the thank-you settings.
const (
	MaxThankYouTitleLen     = 200
	MaxThankYouMessageLen   = 2000
	MaxRedirectURLLen       = 2000
	MaxRedirectParams       = 20
	MaxRedirectParamNameLen = 100
)

// Custom reports whether t replaces the page's own thank-you words.
func (t *ThankYou) Custom() bool {
	return t != nil && (t.Title != "" || t.Message != "")
}

// PipesAnswers reports whether t's title or message pipes an answer.
func (t *ThankYou) PipesAnswers() bool {
	return t != nil && (pipePattern.MatchString(t.Title) || pipePattern.MatchString(t.Message))
}

// Heading is the title of t's screen: the owner's, or DefaultThankYouTitle.
func (t *ThankYou) Heading() string {
	if t != nil && t.Title != "" {
		return t.Title
	}
	return DefaultThankYouTitle
}

// Screen returns the title (Heading) and message of t's screen with the
// answers texts piped in (Pipe).
func (t *ThankYou) Screen(texts map[int64]string) (title, message string) {
	title = Pipe(t.Heading(), texts)
	if t != nil {
		message = Pipe(t.Message, texts)
	}
	return title, message
}

// pipePattern is a piped answer: {{7}}, spaces allowed inside the braces.
var pipePattern = regexp.MustCompile(`\{\{\s*([0-9]{1,18})\s*\}\}`)

// Pipe returns text with each {{<question id>}} replaced by that question's answer
// in texts (AnswerTexts); an unanswered or unknown question leaves nothing. The
// result is plain text, to be escaped wherever it is shown; an answer is never
// read for placeholders of its own.
func Pipe(text string, texts map[int64]string) string {
	return pipePattern.ReplaceAllStringFunc(text, func(m string) string {
		return texts[pipedID(m)]
	})
}

// pipedID is the question id of a placeholder pipePattern matched.
func pipedID(placeholder string) int64 {
	id, _ := strconv.ParseInt(pipePattern.FindStringSubmatch(placeholder)[1], 10, 64)
	return id
}

// RedirectTo returns t's redirect URL with the answer of each RedirectParams'
// question, from texts, added as a query parameter after those the URL has
// (names and values URL-encoded; an unanswered question adds none); "" when t
// redirects nowhere.
func (t *ThankYou) RedirectTo(texts map[int64]string) string {
	if t == nil || t.RedirectURL == "" {
		return ""
	}
	u, err := url.Parse(t.RedirectURL)
	if err != nil {
		return "" // refused when it was saved (checkRedirectURL)
	}
	var query []string
	if u.RawQuery != "" {
		query = append(query, u.RawQuery)
	}
	for _, p := range t.RedirectParams {
		if v, ok := texts[p.QuestionID]; ok {
			query = append(query, url.QueryEscape(p.Name)+"="+url.QueryEscape(v))
		}
	}
	u.RawQuery = strings.Join(query, "&")
	return u.String()
}

// RedirectOrigin is the origin (scheme://host[:port]) of t's redirect URL, ""
// when there is none: the page's policy lets its form post lead there.
func (t *ThankYou) RedirectOrigin() string {
	if t == nil || t.RedirectURL == "" {
		return ""
	}
	u, err := url.Parse(t.RedirectURL)
	if err != nil {
		return ""
	}
	return u.Scheme + "://" + u.Host
}

// remapQuestions renames the question ids t refers to (Settings.RemapQuestions):
// its piped answers and its redirect parameters.
func (t *ThankYou) remapQuestions(ids map[int64]int64) {
	t.Title, t.Message = remapPiped(t.Title, ids), remapPiped(t.Message, ids)
	for i := range t.RedirectParams {
		t.RedirectParams[i].QuestionID = remapID(t.RedirectParams[i].QuestionID, ids)
	}
}

// remapPiped renames the questions text pipes (Pipe) that are keys of ids.
func remapPiped(text string, ids map[int64]int64) string {
	return pipePattern.ReplaceAllStringFunc(text, func(m string) string {
		if n, ok := ids[pipedID(m)]; ok {
			return "{{" + strconv.FormatInt(n, 10) + "}}"
		}
		return m
	})
}

// setThankYou validates t into s.ThankYou; nil, or a screen with nothing set,
// removes the form's own screen. known holds the ids of the form's questions (nil
// on create, when they have none yet).
func (s *Settings) setThankYou(t *ThankYou, known map[int64]bool, p *Problems) {
	if t == nil || t.Title == "" && t.Message == "" && t.RedirectURL == "" && len(t.RedirectParams) == 0 {
		s.ThankYou = nil
		return
	}
	t.validate(known, p)
	s.ThankYou = t
}

// validate records t's problems under thankYou: its texts (CheckText and their
// lengths), their piped answers and redirect parameters (questions of the form,
// whose ids known holds), and the redirect URL (checkRedirectURL). A screen and a
// redirect exclude each other.
func (t *ThankYou) validate(known map[int64]bool, p *Problems) {
	checkOwnerText(t.Title, SingleLine, 0, MaxThankYouTitleLen, "thankYou.title", p)
	checkOwnerText(t.Message, MultiLine, 0, MaxThankYouMessageLen, "thankYou.message", p)
	checkPiped(t.Title, known, "thankYou.title", p)
	checkPiped(t.Message, known, "thankYou.message", p)
	if t.RedirectURL == "" {
		if len(t.RedirectParams) > 0 {
			p.Add("thankYou.redirectParams", "needs a redirectUrl")
		}
		return
	}
	if t.Custom() {
		p.Add("thankYou", "takes either a title and message or a redirectUrl, not both")
	}
	checkRedirectURL(t.RedirectURL, p)
	checkRedirectParams(t.RedirectParams, known, p)
}

// checkPiped refuses a piped answer of a question the form does not have.
func checkPiped(text string, known map[int64]bool, field string, p *Problems) {
	for _, m := range pipePattern.FindAllString(text, -1) {
		if id := pipedID(m); !known[id] {
			p.Add(field, "%s %s", m, unknownQuestion(known))
			return
		}
	}
}

// unknownQuestion says why a question id is refused: it is not one of the
// form's (known), or, on create (known is nil), no question has an id yet.
func unknownQuestion(known map[int64]bool) string {
	if known == nil {
		return "cannot name a question on create, because question ids do not exist yet; set it with PATCH /forms/{id}"
	}
	return "names no question of this form"
}

// redirectHost is a host the page's policy can name as it is: an ASCII host
// name or an IP address, with an optional port. (url.Parse allows more, such as
// ';', which would end a policy directive.)
var redirectHost = regexp.MustCompile(`^([A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.?|\[[0-9A-Fa-f:.]+\])(:[0-9]{1,5})?$`)

// checkRedirectURL records the problems of a redirect URL: SingleLine text of at
// most MaxRedirectURLLen characters, an absolute http or https URL without a
// user name or password, whose host is ASCII (punycode for international names).
func checkRedirectURL(raw string, p *Problems) {
	const field = "thankYou.redirectUrl"
	n := len(*p)
	checkOwnerText(raw, SingleLine, 1, MaxRedirectURLLen, field, p)
	if len(*p) > n {
		return
	}
	u, err := url.Parse(raw)
	switch {
	case err != nil || u.Host == "" || u.Scheme != "http" && u.Scheme != "https":
		p.Add(field, "must be an absolute http:// or https:// URL")
	case u.User != nil:
		p.Add(field, "must not contain a user name or password")
	case !redirectHost.MatchString(u.Host):
		p.Add(field, "must have an ASCII host name (write international names in punycode)")
	}
}

// checkRedirectParams records the problems of redirect parameters: at most
// MaxRedirectParams, each naming a question of the form and a distinct name.
func checkRedirectParams(params []RedirectParam, known map[int64]bool, p *Problems) {
	if len(params) > MaxRedirectParams {
		p.Add("thankYou.redirectParams", "at most %d parameters", MaxRedirectParams)
		return
	}
	seen := map[string]bool{}
	for i, rp := range params {
		field := "thankYou.redirectParams[" + strconv.Itoa(i) + "]"
		if !known[rp.QuestionID] {
			p.Add(field+".questionId", "%s", unknownQuestion(known))
		}
		checkOwnerText(rp.Name, SingleLine, 1, MaxRedirectParamNameLen, field+".name", p)
		if seen[rp.Name] {
			p.Add(field+".name", "duplicates parameter %q", rp.Name)
		}
		seen[rp.Name] = true
	}
}
