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
	// MaxUploadMB bounds one uploaded file.
	MaxUploadMB int
	// SubmitLimit is how many submissions one client address may make to one form
	// per hour (0: no limit).
	SubmitLimit int
	// MinFillSeconds is how long the HTML form must be open before it is submitted.
	MinFillSeconds int
	// TrustProxy takes client addresses from X-Forwarded-For.
	TrustProxy bool
	// AIProvider is builtin (offline, the default) or openai (any OpenAI-compatible
	// endpoint, with AIBaseURL, AIAPIKey and AIModel).
	AIProvider string
	AIBaseURL  string
	AIAPIKey   string
	AIModel    string
	// AITimeoutSeconds bounds one call to the model.
	AITimeoutSeconds int
	// CreditCosts overrides operation prices ("chat.message=2,…"); Allowances the
	// monthly credit allowances ("free=100,…").
	CreditCosts string
	Allowances  string
	// WebhookWorkers bounds concurrent webhook deliveries; 0 runs no delivery workers
	// in this process (jobs wait in the outbox for a process that does).
	WebhookWorkers int
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
	fs.BoolVar(&c.AllowPrivateWebhooks, "allow-private-webhooks", envBool("FORMA_ALLOW_PRIVATE_WEBHOOKS"), "allow webhooks to private and loopback addresses; development only (env FORMA_ALLOW_PRIVATE_WEBHOOKS=true)")
	fs.IntVar(&c.MaxUploadMB, "max-upload-mb", envInt("FORMA_MAX_UPLOAD_MB", 10), "largest uploaded file, in MiB (env FORMA_MAX_UPLOAD_MB)")
	fs.IntVar(&c.SubmitLimit, "submit-limit", envInt("FORMA_SUBMIT_LIMIT", 60), "submissions per hour one client address may make to one form; 0 = no limit (env FORMA_SUBMIT_LIMIT)")
	fs.IntVar(&c.MinFillSeconds, "min-fill-seconds", envInt("FORMA_MIN_FILL_SECONDS", 3), "seconds the HTML form must be open before it is submitted (env FORMA_MIN_FILL_SECONDS)")
	fs.IntVar(&c.WebhookWorkers, "webhook-workers", envInt("FORMA_WEBHOOK_WORKERS", 16), "concurrent webhook deliveries; 0 = deliver none from this process (env FORMA_WEBHOOK_WORKERS)")
	fs.StringVar(&c.AIProvider, "ai-provider", env("FORMA_AI_PROVIDER", "builtin"), "AI provider: builtin (offline) or openai (any OpenAI-compatible API) (env FORMA_AI_PROVIDER)")
	fs.StringVar(&c.AIBaseURL, "ai-base-url", env("FORMA_AI_BASE_URL", ""), "base URL of the OpenAI-compatible API, e.g. https://api.openai.com/v1 or http://localhost:11434/v1 (env FORMA_AI_BASE_URL)")
	c.AIAPIKey = env("FORMA_AI_API_KEY", "") // environment only: keys do not belong in process listings
	fs.StringVar(&c.AIModel, "ai-model", env("FORMA_AI_MODEL", ""), "model name for the openai provider (env FORMA_AI_MODEL)")
	fs.IntVar(&c.AITimeoutSeconds, "ai-timeout", envInt("FORMA_AI_TIMEOUT", 60), "seconds one model call may take (env FORMA_AI_TIMEOUT)")
	fs.StringVar(&c.CreditCosts, "credit-costs", env("FORMA_CREDIT_COSTS", ""), "credit prices, e.g. forms.generate=5,analytics.generate=10,chat.message=2 (env FORMA_CREDIT_COSTS)")
	fs.StringVar(&c.Allowances, "credit-allowances", env("FORMA_CREDIT_ALLOWANCES", ""), "monthly credits per plan, e.g. free=100,builder=1000,scale=5000 (env FORMA_CREDIT_ALLOWANCES)")
	fs.BoolVar(&c.TrustProxy, "trust-proxy", envBool("FORMA_TRUST_PROXY"), "take client addresses from X-Forwarded-For; only behind a proxy that sets it (env FORMA_TRUST_PROXY=true)")
}

// Defaults returns the configuration `forma serve` has with no flags or
// environment, for tests and embedding.
func Defaults() Config {
	return Config{Addr: ":8080", DataDir: "./data", PublicURL: "http://localhost:8080", MaxUploadMB: 10, SubmitLimit: 60, MinFillSeconds: 3, WebhookWorkers: 16, AIProvider: "builtin", AITimeoutSeconds: 60}
}

// ValidateStorage checks the storage settings every subcommand uses.
func (c *Config) ValidateStorage() error {
	if c.DatabaseURL == "" && c.DataDir == "" {
		return fmt.Errorf("--data (FORMA_DATA_DIR) must name a folder when no --database is given")
	}
	if c.DatabaseURL != "" && !strings.HasPrefix(c.DatabaseURL, "postgres://") && !strings.HasPrefix(c.DatabaseURL, "postgresql://") {
		return fmt.Errorf("--database (FORMA_DATABASE_URL) must be a postgres:// URL, or empty for SQLite")
	}
	return nil
}

// Validate reports the first setting of `forma serve` that cannot work, saying what
// to change.
func (c *Config) Validate() error {
	if len(envErrors) > 0 {
		return fmt.Errorf("%s", strings.Join(envErrors, "; "))
	}
	if err := c.ValidateStorage(); err != nil {
		return err
	}
	if c.MaxUploadMB < 1 || c.MaxUploadMB > 1024 {
		return fmt.Errorf("--max-upload-mb (FORMA_MAX_UPLOAD_MB) must be from 1 to 1024 (got %d)", c.MaxUploadMB)
	}
	if c.SubmitLimit < 0 || c.MinFillSeconds < 0 || c.WebhookWorkers < 0 {
		return fmt.Errorf("--submit-limit, --min-fill-seconds and --webhook-workers must not be negative")
	}
	if err := c.validateAI(); err != nil {
		return err
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

// envErrors collects malformed numeric and boolean environment values for Validate.
var envErrors []string

func envBool(name string) bool {
	v := os.Getenv(name)
	if v == "" {
		return false
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		envErrors = append(envErrors, fmt.Sprintf("%s must be true or false (got %q)", name, v))
	}
	return b
}

func envInt(name string, def int) int {
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		envErrors = append(envErrors, fmt.Sprintf("%s must be a whole number (got %q)", name, v))
		return def
	}
	return n
}

func env(name, def string) string {
	if v, ok := os.LookupEnv(name); ok {
		return v
	}
	return def
}

func (c *Config) validateAI() error {
	switch c.AIProvider {
	case "builtin":
	case "openai":
		if c.AIBaseURL == "" || c.AIModel == "" {
			return fmt.Errorf("the openai AI provider needs FORMA_AI_BASE_URL (e.g. https://api.openai.com/v1) and FORMA_AI_MODEL (and usually FORMA_AI_API_KEY)")
		}
	default:
		return fmt.Errorf("--ai-provider (FORMA_AI_PROVIDER) must be builtin or openai (got %q)", c.AIProvider)
	}
	if c.AITimeoutSeconds < 1 {
		return fmt.Errorf("--ai-timeout (FORMA_AI_TIMEOUT) must be at least 1 second")
	}
	return nil
}
