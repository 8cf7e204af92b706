package form

import (
	"bytes"
	"encoding/json"
	"io"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// This file holds the checks DecodeStrict makes before encoding/json decodes: what
// encoding/json lets through and a strict API must not. It refuses, naming the
// field by its path (questions[0].text, settings.foo):
//
//   - data after the JSON value;
//   - a key that appears twice in one object (encoding/json keeps the last);
//   - a key the target struct does not name exactly (encoding/json matches keys
//     case-insensitively, so "Title" would set Title);
//   - invalid UTF-8 and escaped lone surrogates (encoding/json turns both into
//     U+FFFD without a word);
//   - null for the whole body, or for a string, number, boolean or object field
//     (encoding/json leaves the zero value, as if the field said "", 0 or false).
//
// The walk follows the target type through struct fields, slices, arrays, maps and
// pointers. Where the target is an `any`, a map or json.RawMessage, or a type with
// its own UnmarshalJSON, any key is accepted, but duplicates and UTF-8 are still
// checked below; a type whose UnmarshalJSON decodes strictly into another type
// says so with strictTarget, and the walk checks the keys of that type.

// decodesInto is implemented by types whose UnmarshalJSON decodes strictly into
// another type; strictTarget returns a pointer to a zero value of that type.
type decodesInto interface{ strictTarget() any }

func (*ConditionalLogic) strictTarget() any { return new(logicFields) }

func (*Optional[T]) strictTarget() any { return new(T) }

// maxDepth bounds the nesting the walk follows, as encoding/json does (its limit
// is the same): a megabyte of brackets must not become a megabyte of stack frames.
const maxDepth = 10000

// checkStrict checks the JSON in b, meant to be decoded into a value of type t.
// Malformed JSON returns encoding/json's error; every other problem an Invalid
// *Error naming the field.
func checkStrict(b []byte, t reflect.Type) error {
	c := &checker{b: b, dec: json.NewDecoder(bytes.NewReader(b))}
	c.dec.UseNumber() // numbers are not converted: 1e400 is for the decoder to judge
	if err := c.value(t); err != nil {
		return err
	}
	if _, err := c.dec.Token(); err != io.EOF {
		return FieldInvalid("body", "has data after the JSON value")
	}
	return nil
}

// checker walks one JSON document token by token.
type checker struct {
	b    []byte
	dec  *json.Decoder
	path []segment // where the walk is; rendered only for an error
}

// segment is a step of a path: an object member's key (index -1), or an array
// index.
type segment struct {
	key   string
	index int
}

// refuse returns the error saying what is wrong with the value the walk is at.
func (c *checker) refuse(format string, args ...any) error {
	var b strings.Builder
	for _, s := range c.path {
		switch {
		case s.index >= 0:
			b.WriteString("[" + strconv.Itoa(s.index) + "]")
		case b.Len() > 0:
			b.WriteString("." + s.key)
		default:
			b.WriteString(s.key)
		}
	}
	if b.Len() == 0 {
		b.WriteString("body")
	}
	return FieldInvalid(b.String(), format, args...)
}

// value checks the next value, decoded into t (nil: unknown).
func (c *checker) value(t reflect.Type) error {
	if len(c.path) > maxDepth {
		return c.refuse("is nested more than %d levels deep", maxDepth)
	}
	tok, ok, err := c.token()
	switch {
	case err != nil:
		return err
	case !ok:
		return c.refuse("is not valid UTF-8")
	case tok == nil && !nullable(t, len(c.path) == 0):
		if len(c.path) == 0 {
			return c.refuse("must be a JSON object, not null")
		}
		return c.refuse("must not be null")
	case tok == json.Delim('{'):
		return c.object(t)
	case tok == json.Delim('['):
		return c.array(t)
	}
	return nil
}

// nullable reports whether null may stand for a value of type t: where t is
// unknown, a pointer, an interface, a slice or a map (empty), or has its own
// UnmarshalJSON (which decides) — but never for the whole body. encoding/json
// would leave a string, number, boolean or struct at its zero value, so a null
// there would be taken silently as "", 0, false or {}.
func nullable(t reflect.Type, whole bool) bool {
	if whole {
		return false
	}
	if t == nil || reflect.PointerTo(t).Implements(unmarshalerType) {
		return true
	}
	switch t.Kind() {
	case reflect.Pointer, reflect.Interface, reflect.Slice, reflect.Map:
		return true
	}
	return false
}

// object checks the members of an object whose '{' was read, up to its '}'.
func (c *checker) object(t reflect.Type) error {
	s := shapeOf(t)
	seen := map[string]bool{}
	for c.dec.More() {
		tok, ok, err := c.token()
		if err != nil {
			return err
		}
		key := tok.(string)
		c.path = append(c.path, segment{key: key, index: -1})
		known, typ := s.member(key)
		switch {
		case !ok:
			return c.refuse("is not valid UTF-8")
		case seen[key]:
			return c.refuse("appears more than once")
		case !known:
			return c.refuse("is not a known field")
		}
		seen[key] = true
		if err := c.value(typ); err != nil {
			return err
		}
		c.path = c.path[:len(c.path)-1]
	}
	_, _, err := c.token() // the closing delimiter
	return err
}

// array checks the items of an array whose '[' was read, up to its ']'.
func (c *checker) array(t reflect.Type) error {
	elem := shapeOf(t).elem
	for i := 0; c.dec.More(); i++ {
		c.path = append(c.path, segment{index: i})
		if err := c.value(elem); err != nil {
			return err
		}
		c.path = c.path[:len(c.path)-1]
	}
	_, _, err := c.token() // the closing delimiter
	return err
}

// token reads the next token of the value; ok is false for a string whose bytes,
// as sent, are not valid UTF-8 or escape a lone surrogate. The end of the input is
// io.ErrUnexpectedEOF, as encoding/json reports it.
func (c *checker) token() (tok json.Token, ok bool, err error) {
	start := c.dec.InputOffset()
	tok, err = c.dec.Token()
	if _, isString := tok.(string); isString && err == nil {
		return tok, wellFormed(c.b[start:c.dec.InputOffset()]), nil
	}
	if err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	return tok, true, err
}

// wellFormed reports whether a string token, as sent, is valid UTF-8 and its \u
// escapes pair every surrogate. The decoder has checked its syntax: every
// backslash starts an escape, and \u has four hexadecimal digits.
func wellFormed(raw []byte) bool {
	if !utf8.Valid(raw) {
		return false
	}
	for i := 0; i < len(raw); i++ {
		if raw[i] != '\\' {
			continue
		}
		i++ // the escaped character
		if raw[i] != 'u' {
			continue
		}
		r := hex4(raw[i+1:])
		i += 4
		switch {
		case 0xDC00 <= r && r <= 0xDFFF:
			return false
		case 0xD800 <= r && r <= 0xDBFF:
			if !bytes.HasPrefix(raw[i+1:], []byte(`\u`)) {
				return false
			}
			if low := hex4(raw[i+3:]); low < 0xDC00 || low > 0xDFFF {
				return false
			}
			i += 6
		}
	}
	return true
}

// hex4 returns the value of the four hexadecimal digits b starts with.
func hex4(b []byte) int {
	n, _ := strconv.ParseUint(string(b[:4]), 16, 16)
	return int(n)
}

// shape is what JSON decoded into a type may hold.
type shape struct {
	fields map[string]reflect.Type // struct members by exact JSON name; nil: any key
	elem   reflect.Type            // type of array items and of map values (nil: unknown)
}

// member reports whether key may appear in an object of this shape, and the type
// its value decodes into.
func (s *shape) member(key string) (bool, reflect.Type) {
	if s.fields == nil {
		return true, s.elem
	}
	t, ok := s.fields[key]
	return ok, t
}

var (
	anything        = &shape{}
	shapes          sync.Map // reflect.Type → *shape
	unmarshalerType = reflect.TypeFor[json.Unmarshaler]()
)

// shapeOf returns the shape of t, computed once per type; nil t (unknown) accepts
// anything.
func shapeOf(t reflect.Type) *shape {
	if t == nil {
		return anything
	}
	if s, ok := shapes.Load(t); ok {
		return s.(*shape)
	}
	s := &shape{}
	switch u := target(t); {
	case u == nil:
	case u.Kind() == reflect.Struct:
		s.fields = structFields(u)
	case u.Kind() == reflect.Map, u.Kind() == reflect.Slice, u.Kind() == reflect.Array:
		s.elem = u.Elem()
	}
	shapes.Store(t, s)
	return s
}

// target is the type t's JSON is checked against: pointers are followed, and a type
// with its own UnmarshalJSON becomes the type it decodes into strictly
// (decodesInto), or nil when it does not say.
func target(t reflect.Type) reflect.Type {
	t = indirect(t)
	if !reflect.PointerTo(t).Implements(unmarshalerType) {
		return t
	}
	if d, ok := reflect.New(t).Interface().(decodesInto); ok {
		return target(reflect.TypeOf(d.strictTarget()))
	}
	return nil
}

// structFields maps the JSON names of t's fields, as encoding/json names them, to
// their types; the fields of embedded structs are promoted.
func structFields(t reflect.Type) map[string]reflect.Type {
	fields := map[string]reflect.Type{}
	for _, f := range reflect.VisibleFields(t) {
		tag := f.Tag.Get("json")
		name, _, _ := strings.Cut(tag, ",")
		promoted := f.Anonymous && name == "" && indirect(f.Type).Kind() == reflect.Struct
		if !f.IsExported() || tag == "-" || promoted {
			continue
		}
		if name == "" {
			name = f.Name
		}
		fields[name] = f.Type
	}
	return fields
}

// indirect follows pointer types to the type they point to.
func indirect(t reflect.Type) reflect.Type {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}
