package form

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Entry is one answer of a submission's data, under its question's key.
type Entry struct {
	QuestionID int64
	Key        string
	Value      any
}

// Data is a submission's answers keyed by question text, in question order. It
// encodes as a JSON object whose keys keep that order.
type Data []Entry

// MarshalJSON writes the entries as one JSON object, in order. Keys and values
// are encoded as json.Marshal encodes them, straight into the object's buffer.
func (d Data) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	buf.Grow(64 * len(d))
	enc := json.NewEncoder(&buf)
	buf.WriteByte('{')
	for i, e := range d {
		if i > 0 {
			buf.WriteByte(',')
		}
		if err := encodeBare(enc, &buf, e.Key); err != nil {
			return nil, err
		}
		buf.WriteByte(':')
		if err := encodeBare(enc, &buf, e.Value); err != nil {
			return nil, err
		}
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// encodeBare encodes v with enc into buf without the newline Encode ends with.
func encodeBare(enc *json.Encoder, buf *bytes.Buffer, v any) error {
	if err := enc.Encode(v); err != nil {
		return err
	}
	buf.Truncate(buf.Len() - 1)
	return nil
}

// DataKeys gives every question its key in submission data: its text, and for the
// second, third, … question sharing a text (in the order given) the suffixes
// " (2)", " (3)", …
func DataKeys(questions []Question) map[int64]string {
	keys := make(map[int64]string, len(questions))
	used := map[string]bool{}
	for _, q := range questions {
		key := q.Text
		for n := 2; used[key]; n++ {
			key = fmt.Sprintf("%s (%d)", q.Text, n)
		}
		used[key] = true
		keys[q.ID] = key
	}
	return keys
}

// BuildData orders a submission's answers by question and keys them by text.
// questions lists the form's questions in order followed by deleted ones; convert,
// when not nil, turns a stored answer into its wire value (file uploads).
func BuildData(questions []Question, answers map[int64]any, convert func(q *Question, v any) any) Data {
	return BuildDataKeyed(questions, DataKeys(questions), answers, convert)
}

// BuildDataKeyed is BuildData with the keys of DataKeys(questions), for a
// caller that builds the data of many submissions of one form.
func BuildDataKeyed(questions []Question, keys map[int64]string, answers map[int64]any, convert func(q *Question, v any) any) Data {
	data := make(Data, 0, len(answers))
	for i := range questions {
		q := &questions[i]
		v, ok := answers[q.ID]
		if !ok {
			continue
		}
		if convert != nil {
			v = convert(q, v)
		}
		data = append(data, Entry{QuestionID: q.ID, Key: keys[q.ID], Value: v})
	}
	return data
}

// AnswerText renders an answer, as stored or as just completed, as plain text,
// as in a spreadsheet cell: choices joined with commas, Yes or No, numbers in
// full; any other value as its JSON.
func AnswerText(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case bool:
		if x {
			return "Yes"
		}
		return "No"
	case []string:
		return strings.Join(x, ", ")
	case []any:
		parts := make([]string, len(x))
		for i, p := range x {
			parts[i] = AnswerText(p)
		}
		return strings.Join(parts, ", ")
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// AnswerTexts renders a submission's stored answers as text by question id, for
// piping (Pipe, ThankYou.RedirectTo). A file answer is the file's name, which
// fileName gives for its upload id.
func AnswerTexts(questions []Question, answers map[int64]any, fileName func(uploadID string) string) map[int64]string {
	texts := make(map[int64]string, len(answers))
	for i := range questions {
		q := &questions[i]
		v, ok := answers[q.ID]
		if !ok {
			continue
		}
		if id, isID := v.(string); isID && q.Type == FileUpload {
			texts[q.ID] = fileName(id)
			continue
		}
		texts[q.ID] = AnswerText(v)
	}
	return texts
}
