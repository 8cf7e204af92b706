// Package blob stores uploaded files. The default store keeps them in a folder on
// disk; an S3-compatible store can take its place for several nodes.
package blob

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
)

// Store keeps opaque blobs under keys chosen by the caller.
type Store interface {
	// Put stores the content of r under key, all or nothing.
	Put(ctx context.Context, key string, r io.Reader) error
	// Open returns the content stored under key; ErrNotFound when there is none.
	Open(ctx context.Context, key string) (io.ReadCloser, error)
	// Delete removes key; deleting a missing key is not an error.
	Delete(ctx context.Context, key string) error
}

// ErrNotFound is returned by Open for a missing key.
var ErrNotFound = errors.New("blob not found")

var validKey = regexp.MustCompile(`^[A-Za-z0-9_-]{8,128}$`)

// ValidKey reports whether key is a well-formed blob key: the name of a stored
// file in a Disk folder (backups copy only such files).
func ValidKey(key string) bool { return validKey.MatchString(key) }

// Disk is a Store in a local folder.
type Disk struct{ dir string }

// NewDisk returns a Store in dir, creating the folder if needed.
func NewDisk(dir string) (*Disk, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("create upload folder: %w", err)
	}
	return &Disk{dir: dir}, nil
}

func (d *Disk) path(key string) (string, error) {
	if !validKey.MatchString(key) {
		return "", fmt.Errorf("invalid blob key %q", key)
	}
	return filepath.Join(d.dir, key), nil
}

// Put writes to a temporary file, syncs it and renames it into place, so a reader
// never sees a partial file and a crash leaves no half-written blob.
func (d *Disk) Put(ctx context.Context, key string, r io.Reader) error {
	path, err := d.path(key)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(d.dir, ".tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := io.Copy(tmp, r); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// Open opens the file stored under key.
func (d *Disk) Open(ctx context.Context, key string) (io.ReadCloser, error) {
	path, err := d.path(key)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, ErrNotFound
	}
	return f, err
}

// Delete removes the file stored under key.
func (d *Disk) Delete(ctx context.Context, key string) error {
	path, err := d.path(key)
	if err != nil {
		return err
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}
