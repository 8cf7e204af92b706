package respond

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"forma/internal/form"
	"forma/internal/httpx"
	"forma/internal/store"
)

// extensions are the content types uploads may have, as sniffed from their bytes
// (never as the client declares them), each with the extensions a stored name may
// end with; a name without one of them gets the first.
var extensions = map[string][]string{
	"application/pdf": {".pdf"}, "image/png": {".png"}, "image/jpeg": {".jpg", ".jpeg"}, "image/gif": {".gif"},
	"image/webp": {".webp"}, "text/plain; charset=utf-8": {".txt", ".csv", ".tsv", ".md", ".log"},
	"application/vnd.openxmlformats-officedocument.wordprocessingml.document":   {".docx"},
	"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet":         {".xlsx"},
	"application/vnd.openxmlformats-officedocument.presentationml.presentation": {".pptx"},
	"application/vnd.oasis.opendocument.text":                                   {".odt"},
}

// officeTypes refine a sniffed zip by the file's extension.
var officeTypes = map[string]string{
	".docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
	".xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
	".pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
	".odt":  "application/vnd.oasis.opendocument.text",
}

// upload serves POST /f/{token}/uploads: one file in the multipart field "file".
// A form without a file question takes no files (400, field "file").
func (h *Handler) upload(w http.ResponseWriter, r *http.Request, f *form.Form) {
	if !takesFiles(f) {
		httpx.WriteError(w, r, form.Refuse(form.Invalid, "file", form.NewReason(form.MsgFileNotTaken)))
		return
	}
	if err := h.limiter.allow(r.Context(), h.clientKey(r, f.ID)); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, h.cfg.MaxUploadBytes+64<<10)
	part, err := filePart(r)
	if err != nil {
		httpx.WriteError(w, r, h.uploadError(err))
		return
	}
	defer part.Close()
	u, err := h.storeFile(r.Context(), f, part.FileName(), part)
	if err != nil {
		httpx.WriteError(w, r, h.uploadError(err))
		return
	}
	httpx.WriteJSON(w, http.StatusCreated, map[string]any{"id": u.ID, "name": u.Name, "size": u.Size, "contentType": u.ContentType})
}

// takesFiles reports whether f has a file question.
func takesFiles(f *form.Form) bool {
	return slices.ContainsFunc(f.Questions, func(q form.Question) bool { return q.Type == form.FileUpload })
}

// filePart finds the "file" part of a multipart body.
func filePart(r *http.Request) (*multipart.Part, error) {
	mr, err := r.MultipartReader()
	if err != nil {
		return nil, form.Refuse(form.Invalid, "file", form.NewReason(form.MsgFileMultipart))
	}
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			return nil, form.Refuse(form.Invalid, "file", form.NewReason(form.MsgFileMissing))
		}
		if err != nil {
			return nil, clientError{err}
		}
		if part.FormName() == "file" {
			return part, nil
		}
		part.Close()
	}
}

// uploadError turns what went wrong with an upload into the caller's error: too
// large (413) and unreadable request bodies (400) are the client's; a failure to
// store the file or record it stays an unexpected error, answered 500 without its
// text (which may name server paths) and logged.
func (h *Handler) uploadError(err error) error {
	var tooBig *http.MaxBytesError
	var client clientError
	switch {
	case errors.As(err, &tooBig) || errors.Is(err, errTooLarge):
		return form.Refuse(form.TooLarge, "file", form.NewReason(form.MsgFileTooLarge, strconv.FormatInt(h.cfg.MaxUploadBytes>>20, 10)))
	case errors.As(err, &client):
		return form.Refuse(form.Invalid, "file", form.NewReason(form.MsgFileUnreadable, "the upload was interrupted or is not valid multipart data"))
	}
	return err
}

var errTooLarge = errors.New("file too large")

// clientError is an error reading what the client sent.
type clientError struct{ err error }

func (e clientError) Error() string { return "reading the upload: " + e.err.Error() }
func (e clientError) Unwrap() error { return e.err }

// clientReader marks the read errors of what the client sends as clientError, so
// that they can be told apart from the blob store's errors.
type clientReader struct{ r io.Reader }

func (c clientReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	if err != nil && err != io.EOF {
		err = clientError{err}
	}
	return n, err
}

// storeFile checks the size and sniffed type of a file and stores it under a random
// name; nothing is recorded when a check fails.
func (h *Handler) storeFile(ctx context.Context, f *form.Form, name string, r io.Reader) (*store.Upload, error) {
	r = clientReader{r}
	head := make([]byte, 512)
	n, err := io.ReadFull(r, head)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return nil, err
	}
	head = head[:n]
	if n == 0 {
		return nil, form.Refuse(form.Invalid, "file", form.NewReason(form.MsgFileEmpty))
	}
	name = cleanFileName(name)
	ctype, ok := sniff(head, name)
	if !ok {
		return nil, form.Refuse(form.Invalid, "file", form.NewReason(form.MsgFileType, http.DetectContentType(head)))
	}
	name = withExtension(name, ctype)
	u := &store.Upload{ID: newID(), FormID: f.ID, Name: name, ContentType: ctype, BlobKey: newID()}
	counted := &countingReader{r: io.MultiReader(bytes.NewReader(head), r), limit: h.cfg.MaxUploadBytes}
	if err := h.blobs.Put(ctx, u.BlobKey, counted); err != nil {
		return nil, err
	}
	u.Size = counted.n
	if err := h.store.CreateUpload(ctx, u); err != nil {
		_ = h.blobs.Delete(ctx, u.BlobKey)
		return nil, err
	}
	return u, nil
}

// sniff returns the content type of a file from its first bytes (a zip is an
// office document named by its extension); false when it is not accepted.
func sniff(head []byte, name string) (string, bool) {
	ctype := http.DetectContentType(head)
	if ctype == "application/zip" {
		office, ok := officeTypes[strings.ToLower(path.Ext(name))]
		return office, ok
	}
	_, ok := extensions[ctype]
	return ctype, ok
}

// countingReader counts bytes and fails past limit.
type countingReader struct {
	r     io.Reader
	n     int64
	limit int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	if c.n > c.limit {
		return n, errTooLarge
	}
	return n, err
}

// maxNameRunes bounds a stored file name.
const maxNameRunes = 200

// cleanFileName keeps the base name, without control or format characters (such
// as U+202E, which would make "gpj.exe" read as "exe.jpg"), at most maxNameRunes.
func cleanFileName(name string) string {
	name = path.Base(strings.ReplaceAll(name, `\`, "/"))
	name = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == '"' || r == utf8.RuneError {
			return -1
		}
		return r
	}, name)
	name = strings.TrimSpace(name)
	if name == "" || name == "." || name == "/" {
		name = "file"
	}
	return truncateRunes(name, maxNameRunes)
}

// withExtension makes a file's name end with an extension of its sniffed type, so
// that a downloaded PNG named "x.html" does not open as a page: a short
// extension that does not fit is replaced, and one is added to a name without.
func withExtension(name, ctype string) string {
	exts := extensions[ctype]
	ext := path.Ext(name)
	if slices.Contains(exts, strings.ToLower(ext)) {
		return name
	}
	base := name
	if isExtension(ext) {
		base = strings.TrimSuffix(name, ext)
	}
	if base == "" {
		base = "file"
	}
	return truncateRunes(base, maxNameRunes-len(exts[0])) + exts[0]
}

// isExtension reports whether ext (with its dot) looks like a file extension
// rather than part of a name (in "J. Smith" the ". Smith" is not).
func isExtension(ext string) bool {
	if len(ext) < 2 || len(ext) > 6 {
		return false
	}
	for _, r := range ext[1:] {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			return false
		}
	}
	return true
}

func truncateRunes(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n])
	}
	return s
}

// download serves GET /files/{id}?exp=…&sig=…: the file as an attachment that the
// browser will neither sniff nor run.
func (h *Handler) download(w http.ResponseWriter, r *http.Request) {
	id, q := r.PathValue("id"), r.URL.Query()
	if !h.links.Valid(id, q.Get("exp"), q.Get("sig"), time.Now()) {
		httpx.WriteProblem(w, http.StatusNotFound, "not_found", "File not found, or the link has expired")
		return
	}
	u, err := h.store.GetUpload(r.Context(), id)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	body, err := h.blobs.Open(r.Context(), u.BlobKey)
	if err != nil {
		httpx.WriteError(w, r, fmt.Errorf("open blob of upload %s: %w", u.ID, err))
		return
	}
	defer body.Close()
	hd := w.Header()
	hd.Set("Content-Type", u.ContentType)
	hd.Set("Content-Length", strconv.FormatInt(u.Size, 10))
	hd.Set("Content-Disposition", "attachment; filename*=UTF-8''"+url.PathEscape(u.Name))
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Content-Security-Policy", "default-src 'none'; sandbox")
	hd.Set("Cache-Control", "private, max-age=300")
	_, _ = io.Copy(w, body)
}
