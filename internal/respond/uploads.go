package respond

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
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
			return nil, err
		}
		if part.FormName() == "file" {
			return part, nil
		}
		part.Close()
	}
}

func (h *Handler) uploadError(err error) error {
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) || errors.Is(err, errTooLarge) {
		return form.Refuse(form.TooLarge, "file", form.NewReason(form.MsgFileTooLarge, strconv.FormatInt(h.cfg.MaxUploadBytes>>20, 10)))
	}
	if form.ErrorCode(err) == form.Internal && !errors.Is(err, context.Canceled) {
		return form.Refuse(form.Invalid, "file", form.NewReason(form.MsgFileUnreadable, err.Error()))
	}
	return err
}

var errTooLarge = errors.New("file too large")

// storeFile checks the size and sniffed type of a file and stores it under a random
// name; nothing is recorded when a check fails.
func (h *Handler) storeFile(ctx context.Context, f *form.Form, name string, r io.Reader) (*store.Upload, error) {
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

// Links signs and checks expiring download links for uploaded files, so that a
// file URL in a response or webhook works for whoever holds it, for a while.
type Links struct {
	secret    []byte
	publicURL string
	// TTL is how long a link works.
	TTL time.Duration
}

// NewLinks returns a signer with the server secret.
func NewLinks(secret, publicURL string) *Links {
	return &Links{secret: []byte(secret), publicURL: strings.TrimRight(publicURL, "/"), TTL: 7 * 24 * time.Hour}
}

// FileURL is a signed link to an upload, valid for TTL from now.
func (l *Links) FileURL(uploadID string, now time.Time) string {
	exp := strconv.FormatInt(now.Add(l.TTL).Unix(), 10)
	return fmt.Sprintf("%s/files/%s?exp=%s&sig=%s", l.publicURL, url.PathEscape(uploadID), exp, l.sign("file", uploadID, exp))
}

func (l *Links) sign(kind, id, exp string) string {
	m := hmac.New(sha256.New, l.secret)
	fmt.Fprintf(m, "%s|%s|%s", kind, id, exp)
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// valid checks a signature and that exp is still in the future.
func (l *Links) valid(kind, id, exp, sig string, now time.Time) bool {
	e, err := strconv.ParseInt(exp, 10, 64)
	if err != nil || now.Unix() > e {
		return false
	}
	return l.validSig(kind, id, exp, sig)
}

func (l *Links) validSig(kind, id, value, sig string) bool {
	return hmac.Equal([]byte(sig), []byte(l.sign(kind, id, value)))
}

// download serves GET /files/{id}?exp=…&sig=…: the file as an attachment that the
// browser will neither sniff nor run.
func (h *Handler) download(w http.ResponseWriter, r *http.Request) {
	id, q := r.PathValue("id"), r.URL.Query()
	if !h.links.valid("file", id, q.Get("exp"), q.Get("sig"), time.Now()) {
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
