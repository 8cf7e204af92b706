// Package backup copies an embedded Forma's data folder (the SQLite database and
// the uploads folder) into one .tar.gz file while the server runs, and restores
// such a file into an empty folder. PostgreSQL deployments back up with pg_dump
// and their bucket's versioning instead (README, Production).
package backup

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"forma/internal/blob"
	"forma/internal/store"
)

// database is the name of the database in the data folder and in the archive;
// uploads is the uploads folder's.
const (
	database = "forma.db"
	uploads  = "uploads"
)

// Options choose what a backup holds.
type Options struct {
	// DatabaseOnly leaves the uploads folder out: the uploaded files are kept
	// elsewhere (an S3 bucket) and protected there.
	DatabaseOnly bool
}

// Create writes a backup of dataDir to the file to, all or nothing: a snapshot of
// the database taken at one moment (store.SnapshotSQLite), then every file of the
// uploads folder (unless opts.DatabaseOnly). A file is uploaded before the
// submission that uses it commits, so every file a snapshot's submission names is
// in the folder by then; files uploaded after the snapshot come along unused,
// which restore keeps and the orphan sweep removes.
func Create(ctx context.Context, dataDir, to string, opts Options) error {
	tmpDir, err := os.MkdirTemp(filepath.Dir(to), ".forma-backup-*")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmpDir)
	snapshot := filepath.Join(tmpDir, database)
	if err := store.SnapshotSQLite(ctx, dataDir, snapshot); err != nil {
		return err
	}
	part := filepath.Join(tmpDir, "backup.tar.gz")
	uploadDir := filepath.Join(dataDir, uploads)
	if opts.DatabaseOnly {
		uploadDir = ""
	}
	if err := writeArchive(part, snapshot, uploadDir); err != nil {
		return err
	}
	return os.Rename(part, to)
}

// writeArchive writes the snapshot and the uploads folder's files (none when
// uploadDir is "") to a new .tar.gz file at path, and syncs it.
func writeArchive(path, snapshot, uploadDir string) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	defer f.Close()
	zw := gzip.NewWriter(f)
	tw := tar.NewWriter(zw)
	if err := addFile(tw, database, snapshot); err != nil {
		return err
	}
	if uploadDir != "" {
		if err := addUploads(tw, uploadDir); err != nil {
			return err
		}
	}
	if err := errors.Join(tw.Close(), zw.Close()); err != nil {
		return err
	}
	return f.Sync()
}

// addUploads adds every stored blob of dir (none when it does not exist); a file
// deleted while the backup runs is left out.
func addUploads(tw *tar.Writer, dir string) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	for _, e := range entries {
		if !e.Type().IsRegular() || !blob.ValidKey(e.Name()) {
			continue // partial writes (.tmp-*) and anything not a blob
		}
		err := addFile(tw, uploads+"/"+e.Name(), filepath.Join(dir, e.Name()))
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return nil
}

// addFile adds the file at path to the archive under name.
func addFile(tw *tar.Writer, name, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return err
	}
	hdr := &tar.Header{Name: name, Mode: 0o600, Size: info.Size(), ModTime: info.ModTime(), Typeflag: tar.TypeReg}
	if err := tw.WriteHeader(hdr); err != nil {
		return err
	}
	_, err = io.CopyN(tw, f, info.Size())
	return err
}

// Restore unpacks the backup file from into dataDir, which must be empty or not
// exist yet: restoring over live data is refused. It takes only the database and
// the uploads' files from the archive, and on failure leaves dataDir empty.
func Restore(from, dataDir string) (err error) {
	if err := emptyFolder(dataDir); err != nil {
		return err
	}
	f, err := os.Open(from)
	if err != nil {
		return err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return fmt.Errorf("%s is not a forma backup (.tar.gz): %w", from, err)
	}
	defer func() {
		if err != nil {
			emptyOut(dataDir)
		}
	}()
	if err := os.MkdirAll(filepath.Join(dataDir, uploads), 0o700); err != nil {
		return err
	}
	return unpack(tar.NewReader(zr), dataDir, from)
}

// unpack writes the archive's files into dataDir.
func unpack(tr *tar.Reader, dataDir, from string) error {
	sawDatabase := false
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return fmt.Errorf("read %s: %w", from, err)
		}
		name, ok := strings.CutPrefix(hdr.Name, uploads+"/")
		switch {
		case hdr.Typeflag != tar.TypeReg || (hdr.Name != database && !(ok && blob.ValidKey(name))):
			return fmt.Errorf("%s is not a forma backup: it holds %q", from, hdr.Name)
		case hdr.Name == database:
			sawDatabase = true
		}
		if err := writeFile(filepath.Join(dataDir, filepath.FromSlash(hdr.Name)), tr); err != nil {
			return err
		}
	}
	if !sawDatabase {
		return fmt.Errorf("%s is not a forma backup: it holds no %s", from, database)
	}
	return nil
}

// writeFile writes r to a new file at path and syncs it.
func writeFile(path string, r io.Reader) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	_, err = io.Copy(f, r)
	return errors.Join(err, f.Sync(), f.Close())
}

// emptyFolder refuses a dataDir that holds anything.
func emptyFolder(dataDir string) error {
	entries, err := os.ReadDir(dataDir)
	if errors.Is(err, fs.ErrNotExist) {
		return os.MkdirAll(dataDir, 0o700)
	}
	if err != nil {
		return err
	}
	if len(entries) > 0 {
		return fmt.Errorf("%s is not empty: restore only into an empty or new folder, never over live data", dataDir)
	}
	return nil
}

// emptyOut removes what a failed restore wrote into dataDir, leaving it empty.
func emptyOut(dataDir string) {
	entries, _ := os.ReadDir(dataDir)
	for _, e := range entries {
		os.RemoveAll(filepath.Join(dataDir, e.Name()))
	}
}
