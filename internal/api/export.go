package api

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"forma/internal/form"
	"forma/internal/httpx"
)

// exportResponses serves GET /forms/{id}/responses/export?format=csv|json (extension):
// every completed submission matching the list filters, streamed row by row so that
// any number exports in bounded memory.
func (a *API) exportResponses(w http.ResponseWriter, r *http.Request) {
	format := r.URL.Query().Get("format")
	if format == "" {
		format = "csv"
	}
	if format != "csv" && format != "json" {
		httpx.WriteError(w, r, form.FieldInvalid("format", "must be csv or json"))
		return
	}
	filter, err := parseResponseFilter(r)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	f, questions, err := a.responseForm(r)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="form-%d-responses.%s"`, f.ID, format))
	bw := bufio.NewWriterSize(w, 64<<10)
	var write func(*form.Submission) error
	var finish func() error
	if format == "csv" {
		w.Header().Set("Content-Type", "text/csv; charset=utf-8")
		write, finish = a.csvWriter(r, bw, questions)
	} else {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		write, finish = a.jsonWriter(r, bw, questions)
	}
	if err := a.store.EachResponse(r.Context(), f.ID, filter, write); err != nil {
		// The status is sent; the truncated body is the signal, and the log has why.
		httpx.LogError(r.Context(), "export responses", err)
		return
	}
	if err := finish(); err == nil {
		_ = bw.Flush()
	}
}

// csvWriter writes a header row (id, submittedAt, score, then one column per
// question key) and one row per submission.
func (a *API) csvWriter(r *http.Request, bw *bufio.Writer, questions []form.Question) (func(*form.Submission) error, func() error) {
	cw := csv.NewWriter(bw)
	keys := form.DataKeys(questions)
	header := []string{"id", "submittedAt", "score"}
	for _, q := range questions {
		header = append(header, safeCell(keys[q.ID]))
	}
	headerErr := cw.Write(header)
	row := make([]string, len(header))
	write := func(sub *form.Submission) error {
		if headerErr != nil {
			return headerErr
		}
		data, err := a.cfg.Submissions.Data(r.Context(), questions, sub)
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
			row[3+i] = safeCell(cellText(byID[q.ID]))
		}
		return cw.Write(row)
	}
	finish := func() error {
		cw.Flush()
		return cw.Error()
	}
	return write, finish
}

// cellText renders an answer for a spreadsheet cell.
func cellText(v any) string {
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
	case []any:
		parts := make([]string, len(x))
		for i, p := range x {
			parts[i] = cellText(p)
		}
		return strings.Join(parts, ", ")
	case form.FileAnswer:
		return x.URL
	}
	b, _ := json.Marshal(v)
	return string(b)
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

// jsonWriter writes a JSON array of submissions in the list's item shape.
func (a *API) jsonWriter(r *http.Request, bw *bufio.Writer, questions []form.Question) (func(*form.Submission) error, func() error) {
	enc := json.NewEncoder(bw)
	first := true
	_ = bw.WriteByte('[')
	write := func(sub *form.Submission) error {
		view, err := a.viewResponse(r.Context(), questions, sub)
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
