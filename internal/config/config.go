// Package config reads Forma's settings from flags with FORMA_* environment
// equivalents, supplies defaults that run out of the box, and validates them.
package config

import (
	"flag"
	"fmt"
	"net/url"
	"os"
	"strconv"
	"strings"
)

// Config is the configuration of a Forma process.
type Config struct {
	Addr                 string
	DataDir              string
	DatabaseURL          string
	PublicURL            string
	AllowPrivateWebhooks bool
}

// StorageFlags registers the storage settings every subcommand shares.
func (c *Config) StorageFlags(fs *flag.FlagSet) {
	fs.StringVar(&c.DataDir, "data", env("FORMA_DATA_DIR", "./data"), "data folder: the SQLite file and uploads (env FORMA_DATA_DIR)")
	fs.StringVar(&c.DatabaseURL, "database", env("FORMA_DATABASE_URL", ""), "postgres:// URL; empty means SQLite in the data folder (env FORMA_DATABASE_URL)")
}

// ServeFlags registers the settings of `forma serve`.
func (c *Config) ServeFlags(fs *flag.FlagSet) {
	c.StorageFlags(fs)
	fs.StringVar(&c.Addr, "addr", env("FORMA_ADDR", ":8080"), "listen address (env FORMA_ADDR)")
	fs.StringVar(&c.PublicURL, "public-url", env("FORMA_PUBLIC_URL", "http://localhost:8080"), "public base URL of form pages and the API (env FORMA_PUBLIC_URL)")
	allow, _ := strconv.ParseBool(env("FORMA_ALLOW_PRIVATE_WEBHOOKS", "false"))
	fs.BoolVar(&c.AllowPrivateWebhooks, "allow-private-webhooks", allow, "allow webhooks to private and loopback addresses; development only (env FORMA_ALLOW_PRIVATE_WEBHOOKS=true)")
}

// Validate reports the first setting that cannot work, saying what to change.
func (c *Config) Validate() error {
	if v := os.Getenv("FORMA_ALLOW_PRIVATE_WEBHOOKS"); v != "" {
		if _, err := strconv.ParseBool(v); err != nil {
			return fmt.Errorf("FORMA_ALLOW_PRIVATE_WEBHOOKS must be true or false (got %q)", v)
		}
	}
	if c.DatabaseURL == "" && c.DataDir == "" {
		return fmt.Errorf("--data (FORMA_DATA_DIR) must name a folder when no --database is given")
	}
	if c.DatabaseURL != "" && !strings.HasPrefix(c.DatabaseURL, "postgres://") && !strings.HasPrefix(c.DatabaseURL, "postgresql://") {
		return fmt.Errorf("--database (FORMA_DATABASE_URL) must be a postgres:// URL, or empty for SQLite")
	}
	if c.PublicURL != "" {
		u, err := url.Parse(c.PublicURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("--public-url (FORMA_PUBLIC_URL) must be an http(s) URL such as https://forms.example.com (got %q)", c.PublicURL)
		}
		c.PublicURL = strings.TrimRight(c.PublicURL, "/")
	}
	return nil
}

func env(name, def string) string {
	if v, ok := os.LookupEnv(name); ok {
		return v
	}
	return def
}
