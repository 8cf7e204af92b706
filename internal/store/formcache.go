package store

import (
	"context"
	"database/sql"
	"sync"

	"forma/internal/form"
)

// The form cache keeps forms with their questions in memory: every respondent
// request (the page, its definition, each session save and submission) and every
// GET /api/v1/forms/{id} needs one, and loading it (a form row, then a row per
// question with four JSON columns to decode) was most of their cost.
//
// Invalidation. Every change of a form or of its questions is a method of this
// package (UpdateForm, AddQuestion, UpdateQuestion, DeleteQuestion, DeleteForm:
// see changeForm). Each one raises the form's version column in its transaction
// and evicts the form from this process's cache when the transaction ends, so no
// caller can forget to.
//
//   - SQLite: one process serves a database file (several nodes need
//     PostgreSQL, and the CLI's subcommands change accounts and keys, never
//     forms), so this process sees every change, and a cached form is served
//     with no query at all.
//   - PostgreSQL: another node may have changed the form. Each lookup of a
//     cached form first reads its version (one indexed single-row read) and
//     reloads the form when the version moved.
//
// Staleness bound: none, on either database. A request that begins after a
// change was committed (on any node) sees the change; only a request that
// overlaps the change may see the form as it was before. An unpublished or
// deleted form stops being served the same way. LISTEN/NOTIFY would spare
// PostgreSQL the version read, but a notification arrives after the commit and
// can be lost across a reconnect; a TTL serves edits late by design.
//
// A load that overlaps an eviction is answered but not kept (epoch), so a form
// read before a change is never cached after it. The cache holds at most
// maxCachedForms forms; when it is full, an arbitrary one makes room.
type formCache struct {
	mu      sync.RWMutex
	byID    map[int64]*CachedForm
	byToken map[string]*CachedForm
	// epoch counts evictions: a load keeps its result only if none happened
	// since it began.
	epoch uint64
}

// maxCachedForms bounds the cache: a 20-question form with what respond and api
// derive from it takes about 50 KB, so a full cache stays near 50 MB.
const maxCachedForms = 1000

// CachedForm is a form with its questions as the form cache holds it: shared by
// every request until the form changes, so neither it nor its Form may be
// modified.
type CachedForm struct {
	// Form is the form with its questions in order.
	Form    *form.Form
	version int64
	derived sync.Map // key → what Derived built for it
}

// Derived returns what build makes of c's form for key: built on first use and
// kept with c, so once per version of the form. key must be comparable and
// distinguish everything besides the form that the result depends on (such as
// the handler that renders it); the result is shared and must not be modified.
// A build error is returned and nothing is kept.
func Derived[T any](c *CachedForm, key any, build func(f *form.Form) (T, error)) (T, error) {
	if v, ok := c.derived.Load(key); ok {
		return v.(T), nil
	}
	v, err := build(c.Form)
	if err != nil {
		return v, err
	}
	actual, _ := c.derived.LoadOrStore(key, v)
	return actual.(T), nil
}

func newFormCache() *formCache {
	return &formCache{byID: map[int64]*CachedForm{}, byToken: map[string]*CachedForm{}}
}

// lookup returns the cached form of id, or of token when id is 0 (nil when it
// is not cached), and the epoch a load of it must be kept under.
func (c *formCache) lookup(id int64, token string) (*CachedForm, uint64) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if id != 0 {
		return c.byID[id], c.epoch
	}
	return c.byToken[token], c.epoch
}

// put keeps f unless an eviction happened since epoch.
func (c *formCache) put(f *CachedForm, epoch uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.epoch != epoch {
		return
	}
	if old := c.byID[f.Form.ID]; old != nil {
		delete(c.byToken, old.Form.ShareToken)
	} else if len(c.byID) >= maxCachedForms {
		for id, victim := range c.byID {
			delete(c.byID, id)
			delete(c.byToken, victim.Form.ShareToken)
			break
		}
	}
	c.byID[f.Form.ID], c.byToken[f.Form.ShareToken] = f, f
}

// evict forgets the form id, and makes loads that began before forget theirs.
func (c *formCache) evict(id int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.epoch++
	if f := c.byID[id]; f != nil {
		delete(c.byID, id)
		delete(c.byToken, f.Form.ShareToken)
	}
}

// cachedForm returns the form id, or the form of share token when id is 0: the
// cached one while it is current, else the form loaded afresh.
func (s *Store) cachedForm(ctx context.Context, id int64, token string) (*CachedForm, error) {
	column, arg := "id", any(id)
	if id == 0 {
		column, arg = "share_token", token
	}
	cached, epoch := s.forms.lookup(id, token)
	if cached != nil && s.current(ctx, cached, column, arg) {
		return cached, nil
	}
	f := &CachedForm{}
	var err error
	f.Form, err = scanForm(s.read.QueryRowContext(ctx,
		`SELECT `+formColumns+`, version FROM forms WHERE `+column+` = $1`, arg), &f.version)
	if err == nil {
		// Read after the version, so that an edit in between leaves the version
		// older than the questions, never newer: the next lookup reloads.
		f.Form.Questions, err = listQuestions(ctx, s.read, f.Form.ID)
	}
	if err != nil {
		if cached != nil && form.ErrorCode(err) == form.NotFound {
			s.forms.evict(cached.Form.ID) // deleted by another node
		}
		return nil, err
	}
	s.forms.put(f, epoch)
	return f, nil
}

// current reports whether cached is the form's current version: always on
// SQLite, whose changes this process makes itself; on PostgreSQL when the
// stored version is still cached's. Any failure reports false, and the caller's
// reload reports it.
func (s *Store) current(ctx context.Context, cached *CachedForm, column string, arg any) bool {
	if s.dialect == SQLite {
		return true
	}
	var v int64
	err := s.read.QueryRowContext(ctx, `SELECT version FROM forms WHERE `+column+` = $1`, arg).Scan(&v)
	return err == nil && v == cached.version
}

// changeForm runs change in a write transaction that also raises the form's
// version, and then evicts the form from the cache, committed or not.
func (s *Store) changeForm(ctx context.Context, formID int64, change func(tx *sql.Tx) error) error {
	defer s.forms.evict(formID)
	return s.inTx(ctx, func(tx *sql.Tx) error {
		if err := change(tx); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `UPDATE forms SET version = version + 1 WHERE id = $1`, formID)
		return err
	})
}
