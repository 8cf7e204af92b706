package openai

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"forma/internal/ai"
	"forma/internal/form"
)

// untitled is the title of a generated form whose model gave none.
const untitled = "Untitled form"

// defaultSlider replaces a slider configuration that cannot be repaired.
var defaultSlider = form.SliderConfig{Min: 0, Max: 10, Step: 1}

// typeAliases maps names models use for question types to Forma's types.
var typeAliases = map[string]form.QuestionType{
	"short_text": form.Text, "string": form.Text, "input": form.Text, "short_answer": form.Text,
	"long_text": form.Textarea, "paragraph": form.Textarea, "multiline": form.Textarea,
	"text_area": form.Textarea, "long_answer": form.Textarea,
	"mail": form.Email, "e_mail": form.Email, "email_address": form.Email,
	"integer": form.Number, "int": form.Number, "numeric": form.Number, "float": form.Number, "decimal": form.Number,
	"tel": form.Phone, "telephone": form.Phone, "phone_number": form.Phone,
	"link": form.URL, "website": form.URL, "uri": form.URL,
	"dropdown": form.Select, "radio": form.Select, "choice": form.Select, "single_select": form.Select,
	"single_choice": form.Select, "multiple_choice": form.Select,
	"checkbox": form.MultiSelect, "checkboxes": form.MultiSelect, "multiselect": form.MultiSelect,
	"multi_choice": form.MultiSelect, "multiple_select": form.MultiSelect,
	"star": form.Rating, "stars": form.Rating, "star_rating": form.Rating,
	"range": form.Slider, "scale": form.Slider, "linear_scale": form.Slider,
	"boolean": form.YesNo, "bool": form.YesNo, "yesno": form.YesNo, "yes/no": form.YesNo,
	"file": form.FileUpload, "upload": form.FileUpload, "fileupload": form.FileUpload, "attachment": form.FileUpload,
	"money": form.Currency, "price": form.Currency, "amount": form.Currency,
	"datetime": form.Date, "date_time": form.Date,
}

// repairForm decodes a model's form leniently and repairs what can be repaired
// deterministically: unknown types become text, choice questions without options
// become text, options are trimmed and deduplicated, invalid slider settings become
// 0 to 10 by 1, invalid currency codes become USD, texts are cut to their limits,
// questions without text are dropped, at most ai.MaxGeneratedQuestions remain,
// and an empty title becomes "Untitled form". It fails when the JSON is not a form
// or no question is left.
func repairForm(raw json.RawMessage) (form.FormInput, error) {
	var top any
	dec := json.NewDecoder(bytes.NewReader(raw))
	if err := dec.Decode(&top); err != nil {
		return form.FormInput{}, fmt.Errorf("the answer was not valid JSON: %v", err)
	}
	var m map[string]any
	switch v := top.(type) {
	case map[string]any:
		m = v
		if inner, ok := m["form"].(map[string]any); ok && m["questions"] == nil {
			m = inner
		}
	case []any:
		m = map[string]any{"questions": v}
	default:
		return form.FormInput{}, errors.New("the answer was not a JSON object")
	}
	items, ok := m["questions"].([]any)
	if !ok {
		return form.FormInput{}, errors.New("it has no questions array")
	}

	title := cut(strings.TrimSpace(asString(m["title"])), form.MaxTitleLen)
	if title == "" {
		title = untitled
	}
	in := form.FormInput{Title: &title, DisplayMode: displayMode(asString(m["displayMode"]))}
	if d := cut(strings.TrimSpace(asString(m["description"])), form.MaxDescriptionLen); d != "" {
		in.Description = &d
	}
	for _, item := range items {
		q, ok := repairQuestion(item)
		if !ok {
			continue
		}
		in.Questions = append(in.Questions, q)
		if len(in.Questions) == ai.MaxGeneratedQuestions {
			break
		}
	}
	if len(in.Questions) == 0 {
		return form.FormInput{}, errors.New("it has no usable question")
	}
	return in, nil
}

// displayMode normalises a display mode; unknown ones become single-page.
func displayMode(s string) form.DisplayMode {
	switch normalise(s) {
	case "multi_step", "multistep", "wizard", "steps", "paged":
		return form.MultiStep
	}
	return form.SinglePage
}

// normalise lower-cases a name and spells its separators as underscores.
func normalise(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	return strings.NewReplacer("-", "_", " ", "_").Replace(s)
}

// questionType maps a model's type name to a question type; unknown names are text.
func questionType(s string) form.QuestionType {
	n := normalise(s)
	if t := form.QuestionType(n); t.Valid() {
		return t
	}
	if t, ok := typeAliases[n]; ok {
		return t
	}
	return form.Text
}

// repairQuestion repairs one question; ok is false when it has no text.
func repairQuestion(item any) (form.QuestionInput, bool) {
	q, isMap := item.(map[string]any)
	if !isMap {
		q = map[string]any{"question": item}
	}
	var text string
	for _, k := range []string{"question", "label", "text", "title", "name"} {
		if text = strings.TrimSpace(asString(q[k])); text != "" {
			break
		}
	}
	if text == "" {
		return form.QuestionInput{}, false
	}
	text = cut(text, form.MaxQuestionLen)
	out := form.QuestionInput{Type: questionType(asString(q["type"])), Question: &text, Required: asBool(q["required"])}
	switch out.Type {
	case form.Select, form.MultiSelect:
		out.Options = cleanOptions(asStrings(q["options"]))
		if len(out.Options) == 0 {
			out.Type, out.Options = form.Text, nil
		}
	case form.Slider:
		out.SliderConfig = repairSlider(q["sliderConfig"])
	case form.Currency:
		out.CurrencyConfig = repairCurrency(q["currencyConfig"])
	}
	return out, true
}

// cleanOptions trims options, drops blank and repeated ones (ignoring case) and
// cuts them to the limits.
func cleanOptions(opts []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, o := range opts {
		o = cut(strings.TrimSpace(o), form.MaxOptionLen)
		k := strings.ToLower(o)
		if o == "" || seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, o)
		if len(out) == form.MaxOptions {
			break
		}
	}
	return out
}

// repairSlider returns a valid slider configuration: the model's, with an invalid
// step replaced, or 0 to 10 by 1.
func repairSlider(v any) *form.SliderConfig {
	m, _ := v.(map[string]any)
	lo, okLo := asFloat(m["min"])
	hi, okHi := asFloat(m["max"])
	step, okStep := asFloat(m["step"])
	if !okLo || !okHi || lo >= hi {
		s := defaultSlider
		return &s
	}
	if !okStep || step <= 0 || step > hi-lo {
		step = 1
		if hi-lo < 1 {
			step = hi - lo
		}
	}
	return &form.SliderConfig{Min: lo, Max: hi, Step: step}
}

// repairCurrency returns the currency configuration with a valid ISO 4217 code
// (USD when the model's is not one), or nil when the model gave none.
func repairCurrency(v any) *form.CurrencyConfig {
	var code string
	switch c := v.(type) {
	case nil:
		return nil
	case string:
		code = c
	case map[string]any:
		code = asString(c["currency"])
	}
	code = strings.ToUpper(strings.TrimSpace(code))
	if !form.IsCurrencyCode(code) {
		code = "USD"
	}
	return &form.CurrencyConfig{Currency: code}
}

// cut shortens s to at most n characters (and makes it valid UTF-8).
func cut(s string, n int) string {
	s = strings.ToValidUTF8(s, "")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return strings.TrimSpace(string([]rune(s)[:n]))
}

// asString returns v as text: strings as they are, numbers and booleans spelled
// out, anything else "".
func asString(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(x)
	}
	return ""
}

// asBool reads a boolean, also from "true"/"yes"/1.
func asBool(v any) bool {
	switch x := v.(type) {
	case bool:
		return x
	case string:
		switch strings.ToLower(strings.TrimSpace(x)) {
		case "true", "yes", "1":
			return true
		}
	case float64:
		return x != 0
	}
	return false
}

// asFloat reads a finite number, also from a numeric string.
func asFloat(v any) (float64, bool) {
	var f float64
	switch x := v.(type) {
	case float64:
		f = x
	case string:
		var err error
		if f, err = strconv.ParseFloat(strings.TrimSpace(x), 64); err != nil {
			return 0, false
		}
	default:
		return 0, false
	}
	return f, !math.IsNaN(f) && !math.IsInf(f, 0)
}

// asStrings reads a list of options: an array of strings, numbers or objects with
// a label or value, or one string of comma-separated options.
func asStrings(v any) []string {
	switch x := v.(type) {
	case string:
		return strings.Split(x, ",")
	case []any:
		out := make([]string, 0, len(x))
		for _, e := range x {
			if m, ok := e.(map[string]any); ok {
				s := asString(m["label"])
				if s == "" {
					s = asString(m["value"])
				}
				out = append(out, s)
				continue
			}
			out = append(out, asString(e))
		}
		return out
	}
	return nil
}
