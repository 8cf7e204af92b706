// Package config reads Forma's settings from flags with FORMA_* environment
// equivalents, supplies defaults that run out of the box, and validates them.
//
// Every setting is stated once, in the table of settings(): its flag, its
// environment variable, its default and its help. Defaults, the flags of each
// subcommand and the README's table all follow from it.
package config

import (
	"errors"
	"flag"
	"fmt"
	"net"
	"net/url"
	"os"
	"strconv"
	"strings"
)

// Config is the configuration of a Forma process.
type Config struct {
	Addr        string
	DataDir     string
	DatabaseURL string
	// BlobURL names an S3-compatible bucket for uploaded files
	// (s3://bucket/prefix?endpoint=…&region=…); empty keeps them in DataDir/uploads.
	BlobURL              string
	PublicURL            string
	AllowPrivateWebhooks bool
	// MaxUploadMB bounds one uploaded file.
	MaxUploadMB int
	// SubmitLimit is how many submissions one client address may make to one form
	// per hour (0: no limit).
	SubmitLimit int
	// SessionLimit is how many sessions (multi-step progress) one client address may
	// start on one form per hour (0: no limit).
	SessionLimit int
	// SaveLimit is how many session saves one client address may make to one form
	// per hour (0: no limit).
	SaveLimit int
	// MinFillSeconds is how long the HTML form must be open before it is submitted.
	MinFillSeconds int
	// TrustProxy takes client addresses from X-Forwarded-For.
	TrustProxy bool
	// Signup lets anyone create an account on the free plan at /signup.
	Signup bool
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
	// LogFormat is json or text: how log lines are written to stderr.
	LogFormat string
	// MetricsAddr, when set, is a second listen address that serves only /metrics.
	MetricsAddr string
	// MetricsToken, when set, serves /metrics on the main listener to requests
	// that carry it as a bearer token. With neither, /metrics is 404.
	MetricsToken string
	// SMTPURL is the SMTP server email notifications go through (ParseSMTPURL);
	// empty sends none. MailFrom is their sender address.
	SMTPURL  string
	MailFrom string
	// MailRetrySeconds is the wait before an email that failed is tried again,
	// doubled for each later attempt.
	MailRetrySeconds int

	// envProblems are the malformed environment values met while reading flags'
	// defaults from the environment; Validate reports them.
	envProblems []string
}

// setting is one configurable value.
type setting struct {
	flag  string // the flag's name; "" for a setting read only from the environment
	env   string
	def   string // the default, as it would be written on the command line
	usage string
	// storage settings are taken by every subcommand; the others by serve only.
	storage bool
	set     func(c *Config, v string) error
	// isBool flags take no value on the command line (--trust-proxy).
	isBool bool
}

// settings is the table of Forma's settings.
func settings() []setting {
	return []setting{
		{flag: "data", env: "FORMA_DATA_DIR", def: "./data", storage: true,
			usage: "data folder: the SQLite file and uploads", set: text(func(c *Config) *string { return &c.DataDir })},
		{flag: "database", env: "FORMA_DATABASE_URL", def: "", storage: true,
			usage: "postgres:// URL; empty means SQLite in the data folder", set: text(func(c *Config) *string { return &c.DatabaseURL })},
		{flag: "blob-url", env: "FORMA_BLOB_URL", def: "", storage: true,
			usage: "s3://bucket/prefix?endpoint=https://host&region=… for uploaded files (credentials from AWS_* variables); empty means the data folder", set: text(func(c *Config) *string { return &c.BlobURL })},
		{flag: "addr", env: "FORMA_ADDR", def: ":8080",
			usage: "listen address", set: text(func(c *Config) *string { return &c.Addr })},
		{flag: "public-url", env: "FORMA_PUBLIC_URL", def: "http://localhost:8080",
			usage: "public base URL of form pages and the API", set: text(func(c *Config) *string { return &c.PublicURL })},
		{flag: "allow-private-webhooks", env: "FORMA_ALLOW_PRIVATE_WEBHOOKS", def: "false", isBool: true,
			usage: "allow webhooks to private and loopback addresses; development only", set: boolean(func(c *Config) *bool { return &c.AllowPrivateWebhooks })},
		{flag: "max-upload-mb", env: "FORMA_MAX_UPLOAD_MB", def: "10",
			usage: "largest uploaded file, in MiB", set: integer(func(c *Config) *int { return &c.MaxUploadMB })},
		{flag: "submit-limit", env: "FORMA_SUBMIT_LIMIT", def: "60",
			usage: "submissions per hour one client address may make to one form; 0 = no limit", set: integer(func(c *Config) *int { return &c.SubmitLimit })},
		{flag: "session-limit", env: "FORMA_SESSION_LIMIT", def: "30",
			usage: "sessions (multi-step progress) per hour one client address may start on one form; 0 = no limit", set: integer(func(c *Config) *int { return &c.SessionLimit })},
		{flag: "save-limit", env: "FORMA_SAVE_LIMIT", def: "600",
			usage: "session saves per hour one client address may make to one form; 0 = no limit", set: integer(func(c *Config) *int { return &c.SaveLimit })},
		{flag: "min-fill-seconds", env: "FORMA_MIN_FILL_SECONDS", def: "3",
			usage: "seconds the HTML form must be open before it is submitted", set: integer(func(c *Config) *int { return &c.MinFillSeconds })},
		{flag: "webhook-workers", env: "FORMA_WEBHOOK_WORKERS", def: "16",
			usage: "concurrent webhook deliveries; 0 = deliver none from this process", set: integer(func(c *Config) *int { return &c.WebhookWorkers })},
		{flag: "log-format", env: "FORMA_LOG_FORMAT", def: "json",
			usage: "log lines as json or text", set: text(func(c *Config) *string { return &c.LogFormat })},
		{flag: "metrics-addr", env: "FORMA_METRICS_ADDR", def: "",
			usage: "second listen address serving only /metrics, e.g. 127.0.0.1:9090", set: text(func(c *Config) *string { return &c.MetricsAddr })},
		// Environment only, as a secret.
		{env: "FORMA_METRICS_TOKEN", def: "", set: text(func(c *Config) *string { return &c.MetricsToken })},
		{flag: "trust-proxy", env: "FORMA_TRUST_PROXY", def: "false", isBool: true,
			usage: "take client addresses from X-Forwarded-For; only behind a proxy that sets it", set: boolean(func(c *Config) *bool { return &c.TrustProxy })},
		{flag: "signup", env: "FORMA_SIGNUP", def: "false", isBool: true,
			usage: "let anyone create an account (free plan) at /signup", set: boolean(func(c *Config) *bool { return &c.Signup })},
		{flag: "ai-provider", env: "FORMA_AI_PROVIDER", def: "builtin",
			usage: "AI provider: builtin (offline) or openai (any OpenAI-compatible API)", set: text(func(c *Config) *string { return &c.AIProvider })},
		{flag: "ai-base-url", env: "FORMA_AI_BASE_URL", def: "",
			usage: "base URL of the OpenAI-compatible API, e.g. https://api.openai.com/v1 or http://localhost:11434/v1", set: text(func(c *Config) *string { return &c.AIBaseURL })},
		// Environment only: keys do not belong in process listings.
		{env: "FORMA_AI_API_KEY", def: "", set: text(func(c *Config) *string { return &c.AIAPIKey })},
		{flag: "ai-model", env: "FORMA_AI_MODEL", def: "",
			usage: "model name for the openai provider", set: text(func(c *Config) *string { return &c.AIModel })},
		{flag: "ai-timeout", env: "FORMA_AI_TIMEOUT", def: "60",
			usage: "seconds one model call may take", set: integer(func(c *Config) *int { return &c.AITimeoutSeconds })},
		// Environment only: the URL holds the SMTP password.
		{env: "FORMA_SMTP_URL", def: "", set: text(func(c *Config) *string { return &c.SMTPURL })},
		{flag: "mail-from", env: "FORMA_MAIL_FROM", def: "",
			usage: "sender of email notifications, e.g. \"Forma <forms@example.com>\"; needed with FORMA_SMTP_URL", set: text(func(c *Config) *string { return &c.MailFrom })},
		{flag: "mail-retry-seconds", env: "FORMA_MAIL_RETRY_SECONDS", def: "60",
			usage: "seconds before a failed email is tried again (doubled for the third and last attempt)", set: integer(func(c *Config) *int { return &c.MailRetrySeconds })},
		{flag: "credit-costs", env: "FORMA_CREDIT_COSTS", def: "",
			usage: "credit prices, e.g. forms.generate=5,analytics.generate=10,chat.message=2", set: text(func(c *Config) *string { return &c.CreditCosts })},
		{flag: "credit-allowances", env: "FORMA_CREDIT_ALLOWANCES", def: "",
			usage: "monthly credits per plan, e.g. free=100,builder=1000,scale=5000", set: text(func(c *Config) *string { return &c.Allowances })},
	}
}

func text(field func(*Config) *string) func(*Config, string) error {
	return func(c *Config, v string) error {
		*field(c) = v
		return nil
	}
}

func integer(field func(*Config) *int) func(*Config, string) error {
	return func(c *Config, v string) error {
		n, err := strconv.Atoi(v)
		if err != nil {
			return fmt.Errorf("must be a whole number (got %q)", v)
		}
		*field(c) = n
		return nil
	}
}

func boolean(field func(*Config) *bool) func(*Config, string) error {
	return func(c *Config, v string) error {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return fmt.Errorf("must be true or false (got %q)", v)
		}
		*field(c) = b
		return nil
	}
}

// Defaults returns the configuration `forma serve` has with no flags or
// environment, for tests and embedding.
func Defaults() Config {
	var c Config
	for _, s := range settings() {
		if err := s.set(&c, s.def); err != nil {
			panic(fmt.Sprintf("config: default of %s: %v", s.env, err)) // a mistake in the table
		}
	}
	return c
}

// StorageFlags registers the storage settings every subcommand shares, taking
// their values from the environment where it sets them. Start from Defaults.
func (c *Config) StorageFlags(fs *flag.FlagSet) { c.register(fs, true) }

// ServeFlags registers the settings of `forma serve`, taking their values from
// the environment where it sets them. Start from Defaults.
func (c *Config) ServeFlags(fs *flag.FlagSet) { c.register(fs, false) }

// register gives c the environment's value of every setting it sets (only the
// storage ones when onlyStorage) and defines their flags on fs.
func (c *Config) register(fs *flag.FlagSet, onlyStorage bool) {
	for _, s := range settings() {
		if onlyStorage && !s.storage {
			continue
		}
		if v, ok := os.LookupEnv(s.env); ok {
			if err := s.set(c, v); err != nil {
				c.envProblems = append(c.envProblems, s.env+" "+err.Error())
			}
		}
		if s.flag == "" {
			continue
		}
		usage := s.usage + " (env " + s.env + defaultNote(s) + ")"
		apply := func(v string) error { return s.set(c, v) }
		if s.isBool {
			fs.BoolFunc(s.flag, usage, apply)
		} else {
			fs.Func(s.flag, usage, apply)
		}
	}
}

func defaultNote(s setting) string {
	if s.def == "" || s.isBool {
		return ""
	}
	return ", default " + s.def
}

// ValidateStorage checks the storage settings every subcommand uses, naming every
// bad value, one a line.
func (c *Config) ValidateStorage() error {
	return joinProblems(c.storageProblems())
}

func (c *Config) storageProblems() []string {
	problems := append([]string(nil), c.envProblems...)
	if c.DatabaseURL == "" && c.DataDir == "" {
		problems = append(problems, "--data (FORMA_DATA_DIR) must name a folder when no --database is given")
	}
	if c.DatabaseURL != "" {
		u, err := url.Parse(c.DatabaseURL)
		if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") || u.Host == "" {
			problems = append(problems, "--database (FORMA_DATABASE_URL) must be a postgres://user@host:5432/db URL, or empty for SQLite")
		}
	}
	if c.BlobURL != "" && !strings.HasPrefix(c.BlobURL, "s3://") {
		problems = append(problems, "--blob-url (FORMA_BLOB_URL) must be an s3://bucket/prefix?endpoint=…&region=… URL, or empty for the data folder")
	}
	return problems
}

// Validate checks every setting of `forma serve` and reports each one that cannot
// work, one a line, saying what to change. It reads no file and no network;
// serve checks the data folder and the database when it opens them.
func (c *Config) Validate() error {
	problems := c.storageProblems()
	if c.MaxUploadMB < 1 || c.MaxUploadMB > 1024 {
		problems = append(problems, fmt.Sprintf("--max-upload-mb (FORMA_MAX_UPLOAD_MB) must be from 1 to 1024 (got %d)", c.MaxUploadMB))
	}
	for _, n := range []struct {
		name string
		v    int
	}{{"--submit-limit (FORMA_SUBMIT_LIMIT)", c.SubmitLimit}, {"--session-limit (FORMA_SESSION_LIMIT)", c.SessionLimit},
		{"--save-limit (FORMA_SAVE_LIMIT)", c.SaveLimit}, {"--min-fill-seconds (FORMA_MIN_FILL_SECONDS)", c.MinFillSeconds},
		{"--webhook-workers (FORMA_WEBHOOK_WORKERS)", c.WebhookWorkers}, {"--mail-retry-seconds (FORMA_MAIL_RETRY_SECONDS)", c.MailRetrySeconds}} {
		if n.v < 0 {
			problems = append(problems, fmt.Sprintf("%s must not be negative (got %d)", n.name, n.v))
		}
	}
	problems = append(problems, c.aiProblems()...)
	if err := c.validateMail(); err != nil {
		problems = append(problems, err.Error())
	}
	problems = append(problems, c.listenProblems()...)
	if c.PublicURL != "" {
		u, err := url.Parse(c.PublicURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			problems = append(problems, fmt.Sprintf("--public-url (FORMA_PUBLIC_URL) must be an http(s) URL such as https://forms.example.com (got %q)", c.PublicURL))
		} else {
			c.PublicURL = strings.TrimRight(c.PublicURL, "/")
		}
	}
	if c.LogFormat != "json" && c.LogFormat != "text" {
		problems = append(problems, fmt.Sprintf("--log-format (FORMA_LOG_FORMAT) must be json or text (got %q)", c.LogFormat))
	}
	return joinProblems(problems)
}

// listenProblems checks the listen addresses: host:port with a port from 0 to
// 65535, and not the same address twice.
func (c *Config) listenProblems() []string {
	var problems []string
	if err := checkListen(c.Addr); err != nil {
		problems = append(problems, fmt.Sprintf("--addr (FORMA_ADDR) %v", err))
	}
	if c.MetricsAddr != "" {
		if err := checkListen(c.MetricsAddr); err != nil {
			problems = append(problems, fmt.Sprintf("--metrics-addr (FORMA_METRICS_ADDR) %v", err))
		} else if c.MetricsAddr == c.Addr {
			problems = append(problems, "--metrics-addr (FORMA_METRICS_ADDR) must differ from --addr: it is a second listener")
		}
	}
	if c.MetricsToken != "" && len(c.MetricsToken) < 16 {
		problems = append(problems, "FORMA_METRICS_TOKEN must be at least 16 characters (e.g. openssl rand -hex 16)")
	}
	return problems
}

// checkListen checks a listen address such as :8080 or 127.0.0.1:8080.
func checkListen(addr string) error {
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("must be host:port or :port, e.g. :8080 (got %q)", addr)
	}
	if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
		return fmt.Errorf("must have a port from 0 to 65535 (got %q)", addr)
	}
	return nil
}

// joinProblems is nil for no problems, else an error listing each on its line.
func joinProblems(problems []string) error {
	if len(problems) == 0 {
		return nil
	}
	return errors.New(strings.Join(problems, "\n"))
}

func (c *Config) aiProblems() []string {
	var problems []string
	switch c.AIProvider {
	case "builtin":
	case "openai":
		if c.AIBaseURL == "" || c.AIModel == "" {
			problems = append(problems, "the openai AI provider needs FORMA_AI_BASE_URL (e.g. https://api.openai.com/v1) and FORMA_AI_MODEL (and usually FORMA_AI_API_KEY)")
		}
	default:
		problems = append(problems, fmt.Sprintf("--ai-provider (FORMA_AI_PROVIDER) must be builtin or openai (got %q)", c.AIProvider))
	}
	if c.AIBaseURL != "" {
		u, err := url.Parse(c.AIBaseURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			problems = append(problems, fmt.Sprintf("--ai-base-url (FORMA_AI_BASE_URL) must be an http(s) URL such as https://api.openai.com/v1 (got %q)", c.AIBaseURL))
		}
	}
	if c.AITimeoutSeconds < 1 {
		problems = append(problems, "--ai-timeout (FORMA_AI_TIMEOUT) must be at least 1 second")
	}
	return problems
}
