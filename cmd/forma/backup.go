package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"path/filepath"

	"forma/internal/backup"
	"forma/internal/config"
)

// backupData writes a backup of the SQLite data folder to --to while a server may
// be running on it.
func backupData(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	cfg := config.Defaults()
	fs := newFlagSet("backup", stderr)
	cfg.StorageFlags(fs)
	to := fs.String("to", "", "the backup file to write (.tar.gz)")
	dbOnly := fs.Bool("database-only", false, "back up the database without the uploaded files; required with --blob-url, whose files stay in the bucket")
	if err := parseStorage(fs, &cfg, args); err != nil {
		return err
	}
	if *to == "" {
		return errors.New("--to must name the backup file to write, e.g. --to forma-backup.tar.gz")
	}
	if cfg.DatabaseURL != "" {
		return errors.New("forma backup copies the SQLite data folder; with PostgreSQL, back up with pg_dump " +
			"and keep the uploads with the blob store's own versioning (README, Production)")
	}
	if cfg.BlobURL != "" && !*dbOnly {
		return fmt.Errorf("the uploaded files are in the bucket %s, not in %s, so this backup cannot hold them: "+
			"protect the bucket with versioning or replication, and back up the database alone with --database-only (README, Backup and restore)",
			bucketOf(cfg.BlobURL), cfg.DataDir)
	}
	if err := backup.Create(ctx, cfg.DataDir, *to, backup.Options{DatabaseOnly: *dbOnly}); err != nil {
		return err
	}
	switch {
	case !*dbOnly:
		fmt.Fprintf(stdout, "backed up %s to %s\n", cfg.DataDir, *to)
	case cfg.BlobURL != "":
		fmt.Fprintf(stdout, "backed up the database of %s to %s, WITHOUT the uploaded files: they are in the bucket %s, "+
			"which must be protected by its own versioning or replication; restore with the same --blob-url\n", cfg.DataDir, *to, bucketOf(cfg.BlobURL))
	default:
		fmt.Fprintf(stdout, "backed up the database of %s to %s, WITHOUT the uploaded files of %s\n", cfg.DataDir, *to, filepath.Join(cfg.DataDir, "uploads"))
	}
	return nil
}

// bucketOf names the bucket and prefix of an s3:// blob URL, without its query
// or anything else it may hold.
func bucketOf(blobURL string) string {
	u, err := url.Parse(blobURL)
	if err != nil {
		return "of --blob-url"
	}
	return "s3://" + u.Host + u.Path
}

// restoreData unpacks a backup into an empty data folder.
func restoreData(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	cfg := config.Defaults()
	fs := newFlagSet("restore", stderr)
	cfg.StorageFlags(fs)
	from := fs.String("from", "", "the backup file to restore (.tar.gz)")
	if err := parseStorage(fs, &cfg, args); err != nil {
		return err
	}
	if *from == "" {
		return errors.New("--from must name the backup file to restore")
	}
	if cfg.DatabaseURL != "" {
		return errors.New("forma restore restores a SQLite data folder; with PostgreSQL, restore with pg_restore (README, Production)")
	}
	if err := backup.Restore(*from, cfg.DataDir); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "restored %s into %s; start it with: forma serve --data %s\n", *from, cfg.DataDir, cfg.DataDir)
	return nil
}
