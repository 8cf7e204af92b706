package api

import (
	"encoding/base64"
	"encoding/binary"
	"net/http"
	"regexp"

	"forma/internal/form"
)

// A cursor is the opaque position that a page of a list gives as nextCursor and
// a client passes back as ?cursor= to read the page that follows: the unpadded
// base64url of a version byte, the list (with its order), the form's id
// (uvarint), and the key of the page's last row — a varint (a response's
// completion time in Unix milliseconds; a delivery's id) and, for responses, the
// submission id as the remaining bytes. Only the canonical encoding of a cursor
// of the same list and form is accepted, so that an altered cursor, or one of
// another list, order or form, is refused rather than read somewhere else.
type cursor struct {
	list   cursorList
	formID int64
	at     int64
	id     string
}

// cursorVersion is the first byte of every cursor; a new layout takes a new one.
const cursorVersion = 1

// cursorList is the list, in its order, that a cursor walks.
type cursorList byte

const (
	newestResponses cursorList = iota + 1
	oldestResponses
	newestDeliveries
)

// responsesList is the cursor list of the responses in the given order.
func responsesList(ascending bool) cursorList {
	if ascending {
		return oldestResponses
	}
	return newestResponses
}

// submissionID matches the submission ids the store issues (URL-safe base64,
// at most 64 characters), the only ones a response cursor may carry.
var submissionID = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// String encodes c.
func (c cursor) String() string {
	b := []byte{cursorVersion, byte(c.list)}
	b = binary.AppendUvarint(b, uint64(c.formID))
	b = binary.AppendVarint(b, c.at)
	return base64.RawURLEncoding.EncodeToString(append(b, c.id...))
}

// parseCursor reads the cursor query parameter of a page of list on form
// formID: nil when there is none. Invalid, naming cursor, when it comes with
// offset or is not a cursor of that list and form.
func parseCursor(r *http.Request, list cursorList, formID int64) (*cursor, error) {
	q := r.URL.Query()
	if !q.Has("cursor") {
		return nil, nil
	}
	if q.Has("offset") {
		return nil, form.FieldInvalid("cursor", "cannot be combined with offset: the cursor says where the page starts")
	}
	c, ok := decodeCursor(q.Get("cursor"))
	if !ok || c.list != list || c.formID != formID {
		return nil, form.FieldInvalid("cursor", "is not a nextCursor of this list: pass one back unchanged, with the same order")
	}
	return &c, nil
}

// decodeCursor decodes s; ok only when s is the canonical encoding of a
// well-formed cursor.
func decodeCursor(s string) (c cursor, ok bool) {
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil || len(b) < 2 || b[0] != cursorVersion {
		return c, false
	}
	c.list, b = cursorList(b[1]), b[2:]
	formID, n := binary.Uvarint(b)
	if n <= 0 {
		return c, false
	}
	at, m := binary.Varint(b[n:])
	if m <= 0 {
		return c, false
	}
	c.formID, c.at, c.id = int64(formID), at, string(b[n+m:])
	if c.formID <= 0 || c.String() != s {
		return c, false
	}
	switch c.list {
	case newestResponses, oldestResponses:
		return c, submissionID.MatchString(c.id)
	case newestDeliveries:
		return c, c.at > 0 && c.id == ""
	}
	return c, false
}
