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
	"strconv"
	"strings"
	"time"
	"unicode"

	"forma/internal/form"
	"forma/internal/httpx"
	"forma/internal/store"
)

// allowedTypes are the content types uploads may have, as sniffed from their bytes
// (never as the client declares them).
var allowedTypes = map[string]bool{
	"application/pdf": true, "image/png": true, "image/jpeg": true, "image/gif": true, "image/webp": true,
	"text/plain; charset=utf-8": true, "application/zip": true,
}

// officeTypes refine a sniffed zip by the file's extension.
var officeTypes = map[string]string{
	".docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
	".xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
	".pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
	".odt":  "application/vnd.oasis.opendocument.text",
}

// upload serves POST /f/{token}/uploads: one file in the multipart field "file".
func (h *Handler) upload(w http.ResponseWriter, r *http.Request, f *form.Form) {
	if err := h.limiter.allow(h.clientKey(r, f.ID)); err != nil {
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

func sniff(head []byte, name string) (string, bool) {
	ctype := http.DetectContentType(head)
	if !allowedTypes[ctype] {
		return "", false
	}
	if ctype == "application/zip" {
		office, ok := officeTypes[strings.ToLower(path.Ext(name))]
		return office, ok
	}
	return ctype, true
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

// cleanFileName keeps the base name, without control characters, at most 200 runes.
func cleanFileName(name string) string {
	name = path.Base(strings.ReplaceAll(name, `\`, "/"))
	name = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == '"' {
			return -1
		}
		return r
	}, name)
	if r := []rune(name); len(r) > 200 {
		name = string(r[:200])
	}
	if name == "" || name == "." || name == "/" {
		name = "file"
	}
	return name
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
