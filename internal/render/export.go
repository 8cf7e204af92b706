package render

import (
	"bufio"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"

	"forma/internal/form"
	"forma/internal/httpx"
)

// Format is the file format of an export.
type Format string

// The export formats.
const (
	CSV  Format = "csv"
	JSON Format = "json"
)

// ParseFormat reads the format of an export: csv (also when v is empty) or json.
func ParseFormat(v string) (Format, bool) {
	switch Format(v) {
	case "", CSV:
		return CSV, true
	case JSON:
		return JSON, true
	}
	return "", false
}

// Export answers a download of the responses of form fm in format f: each
// calls its argument with every submission to export, in order (store.EachResponse),
// and they are streamed row by row, so that any number exports in bounded memory.
// questions are fm's questions followed by its deleted ones. The status is sent
// before the first row: a failure truncates the body, which is the signal, and is
// logged.
func (s *Submissions) Export(ctx context.Context, w http.ResponseWriter, f Format, fm *form.Form, questions []form.Question,
	each func(func(*form.Submission) error) error) {
	contentType := "text/csv; charset=utf-8"
	if f == JSON {
		contentType = "application/json; charset=utf-8"
	}
	w.Header().Set("Content-Type", contentType)
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="form-%d-responses.%s"`, fm.ID, f))
	bw := bufio.NewWriterSize(w, 64<<10)
	var write func(*form.Submission) error
	var finish func() error
	if f == JSON {
		write, finish = s.jsonWriter(ctx, bw, questions)
	} else {
		write, finish = s.csvWriter(ctx, bw, questions, fm.Settings.HiddenFields)
	}
	err := each(write)
	if err == nil {
		err = finish()
	}
	if err == nil {
		err = bw.Flush()
	}
	if err != nil {
		httpx.LogError(ctx, "export responses", err)
	}
}

// csvWriter writes a header row (id, submittedAt, score, one column per
// question key, then one per hidden field: hiddenColumns) and one row per
// submission.
func (s *Submissions) csvWriter(ctx context.Context, out io.Writer, questions []form.Question, hidden []string) (func(*form.Submission) error, func() error) {
	cw := csv.NewWriter(out)
	keys := form.DataKeys(questions)
	header := []string{"id", "submittedAt", "score"}
	for _, q := range questions {
		header = append(header, safeCell(keys[q.ID]))
	}
	header = append(header, hiddenColumns(hidden, header)...)
	headerErr := cw.Write(header)
	row := make([]string, len(header))
	write := func(sub *form.Submission) error {
		if headerErr != nil {
			return headerErr
		}
		data, err := s.data(ctx, questions, keys, sub)
		if err != nil {
			return err
		}
		byID := make(map[int64]any, len(data))
		for _, e := range data {
			byID[e.QuestionID] = e.Value
		}
		row[0], row[1], row[2] = sub.ID, form.Timestamp(*sub.CompletedAt), ""
		if sub.Score != nil {
			row[2] = strconv.FormatFloat(*sub.Score, 'f', -1, 64)
		}
		for i, q := range questions {
			row[3+i] = safeCell(AnswerText(byID[q.ID]))
		}
		for i, name := range hidden {
			row[3+len(questions)+i] = safeCell(sub.Hidden[name])
		}
		return cw.Write(row)
	}
	finish := func() error {
		cw.Flush()
		return cw.Error()
	}
	return write, finish
}

// hiddenColumns names the CSV columns of the hidden fields names, after the
// columns taken: each is its field's name, unless that is taken (by a question
// of the same text), when it is "<name> (hidden field)", numbered like a
// repeated question text (form.DataKeys) if even that is.
func hiddenColumns(names, taken []string) []string {
	used := map[string]bool{}
	for _, t := range taken {
		used[t] = true
	}
	out := make([]string, len(names))
	for i, name := range names {
		col := name
		for n := 1; used[col]; n++ {
			col = name + " (hidden field)"
			if n > 1 {
				col = fmt.Sprintf("%s (hidden field %d)", name, n)
			}
		}
		used[col] = true
		out[i] = col
	}
	return out
}

// AnswerText renders an answer of Data as plain text, as in a spreadsheet cell:
// a file as its link, anything else as form.AnswerText says.
func AnswerText(v any) string {
	if f, ok := v.(form.FileAnswer); ok {
		return f.URL
	}
	return form.AnswerText(v)
}

// safeCell neutralises cells a spreadsheet would run as a formula (starting with =,
// +, -, @, tab or carriage return) by prefixing an apostrophe. Plain numbers such as
// -5 are left alone: they are data, not formulas.
func safeCell(s string) string {
	if s == "" || !strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return s
	}
	if _, err := strconv.ParseFloat(s, 64); err == nil {
		return s
	}
	return "'" + s
}

// jsonWriter writes a JSON array of submissions in the shape of Response.
func (s *Submissions) jsonWriter(ctx context.Context, bw *bufio.Writer, questions []form.Question) (func(*form.Submission) error, func() error) {
	enc := json.NewEncoder(bw)
	first := true
	_ = bw.WriteByte('[')
	write := func(sub *form.Submission) error {
		view, err := s.Response(ctx, questions, sub)
		if err != nil {
			return err
		}
		if !first {
			_ = bw.WriteByte(',')
		}
		first = false
		return enc.Encode(view)
	}
	finish := func() error {
		_, err := bw.WriteString("]\n")
		return err
	}
	return write, finish
}
