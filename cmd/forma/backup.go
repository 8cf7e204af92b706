package main

import (
	"context"
	"errors"
	"fmt"
	"io"

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
	if err := backup.Create(ctx, cfg.DataDir, *to); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "backed up %s to %s\n", cfg.DataDir, *to)
	return nil
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
