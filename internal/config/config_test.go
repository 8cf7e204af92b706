package config

import (
	"flag"
	"io"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestDefaults: the defaults a server starts with when nothing is configured.
func TestDefaults(t *testing.T) {
	c := Defaults()
	want := Config{Addr: ":8080", DataDir: "./data", PublicURL: "http://localhost:8080", MaxUploadMB: 10, SubmitLimit: 60,
		SessionLimit: 30, SaveLimit: 600, MinFillSeconds: 3, WebhookWorkers: 16, AIProvider: "builtin", AITimeoutSeconds: 60, LogFormat: "json", MailRetrySeconds: 60}
	if !reflect.DeepEqual(c, want) {
		t.Errorf("Defaults() = %+v\nwant %+v", c, want)
	}
	if err := c.Validate(); err != nil {
		t.Errorf("the defaults do not validate: %v", err)
	}
}

// TestFlagsEnvironmentAndDefaults: a flag beats the environment, which beats the
// default; a malformed environment value is reported by Validate, naming it.
func TestFlagsEnvironmentAndDefaults(t *testing.T) {
	t.Setenv("FORMA_SUBMIT_LIMIT", "7")
	t.Setenv("FORMA_ADDR", ":9000")
	t.Setenv("FORMA_TRUST_PROXY", "true")
	t.Setenv("FORMA_AI_API_KEY", "sk-test")
	c := Defaults()
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	c.ServeFlags(fs)
	if err := fs.Parse([]string{"--addr", ":9100", "--max-upload-mb=20"}); err != nil {
		t.Fatal(err)
	}
	if c.Addr != ":9100" || c.SubmitLimit != 7 || c.MaxUploadMB != 20 || !c.TrustProxy || c.AIAPIKey != "sk-test" || c.MinFillSeconds != 3 {
		t.Errorf("got %+v", c)
	}
	if fs.Lookup("ai-api-key") != nil {
		t.Error("the model API key must not be a flag (it would show in process listings)")
	}

	t.Setenv("FORMA_WEBHOOK_WORKERS", "many")
	bad := Defaults()
	bad.ServeFlags(flag.NewFlagSet("serve", flag.ContinueOnError))
	if err := bad.Validate(); err == nil || !strings.Contains(err.Error(), "FORMA_WEBHOOK_WORKERS") {
		t.Errorf("Validate() = %v, want an error naming FORMA_WEBHOOK_WORKERS", err)
	}
	if bad.WebhookWorkers != 16 {
		t.Errorf("a malformed value replaced the default: %d", bad.WebhookWorkers)
	}
}

// TestNegativeLimitsRefused: a limit below 0 is a mistake Validate names.
func TestNegativeLimitsRefused(t *testing.T) {
	for name, set := range map[string]func(*Config){
		"--session-limit": func(c *Config) { c.SessionLimit = -1 },
		"--save-limit":    func(c *Config) { c.SaveLimit = -1 },
	} {
		c := Defaults()
		set(&c)
		if err := c.Validate(); err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("Validate() = %v, want an error naming %s", err, name)
		}
	}
}

// TestStorageFlagsOnly: the administration subcommands take only the storage
// settings.
func TestStorageFlagsOnly(t *testing.T) {
	c := Defaults()
	fs := flag.NewFlagSet("migrate", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	c.StorageFlags(fs)
	if err := fs.Parse([]string{"--data", "/tmp/x"}); err != nil || c.DataDir != "/tmp/x" {
		t.Errorf("--data: %v, %q", err, c.DataDir)
	}
	if err := fs.Parse([]string{"--addr", ":1"}); err == nil {
		t.Error("migrate accepted --addr")
	}
}

// TestREADMEListsEverySetting: the README's table of settings names every flag
// with its environment variable and default, as the table in settings() has them.
func TestREADMEListsEverySetting(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]string{}
	for _, line := range strings.Split(string(readme), "\n") {
		if strings.HasPrefix(line, "| `--") || strings.HasPrefix(line, "| | `FORMA_") {
			rows[strings.Split(line, "|")[1]] = line
		}
	}
	for _, s := range settings() {
		if s.flag == "" {
			if !strings.Contains(string(readme), "`"+s.env+"`") {
				t.Errorf("README does not mention %s", s.env)
			}
			continue
		}
		row, ok := rows[" `--"+s.flag+"` "]
		switch {
		case !ok:
			t.Errorf("README has no row for --%s", s.flag)
		case !strings.Contains(row, "`"+s.env):
			t.Errorf("README's row for --%s does not name %s: %s", s.flag, s.env, row)
		case s.def != "" && !s.isBool && !strings.Contains(row, "`"+s.def+"`"):
			t.Errorf("README's row for --%s does not give the default %s: %s", s.flag, s.def, row)
		}
	}
}

// TestEveryBadValueNamed: Validate names each bad setting on its own line, not
// only the first: ports, URLs, the log format, the metrics listener and token.
func TestEveryBadValueNamed(t *testing.T) {
	c := Defaults()
	c.Addr, c.MetricsAddr, c.MetricsToken = ":99999", "localhost", "short"
	c.PublicURL, c.AIBaseURL, c.DatabaseURL = "ftp://x", "not a url", "mysql://db"
	c.LogFormat, c.MaxUploadMB = "xml", 0
	err := c.Validate()
	if err == nil {
		t.Fatal("Validate accepted bad values")
	}
	lines := strings.Split(err.Error(), "\n")
	for _, want := range []string{"--addr (FORMA_ADDR) must have a port from 0 to 65535", "--metrics-addr (FORMA_METRICS_ADDR) must be host:port",
		"FORMA_METRICS_TOKEN must be at least 16", "--public-url (FORMA_PUBLIC_URL)", "--ai-base-url (FORMA_AI_BASE_URL)",
		"--database (FORMA_DATABASE_URL) must be a postgres://", "--log-format (FORMA_LOG_FORMAT) must be json or text", "--max-upload-mb"} {
		if !slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(l, want) }) {
			t.Errorf("no line starts with %q:\n%s", want, err)
		}
	}
	if len(lines) != 8 {
		t.Errorf("%d lines, want one per bad value (8):\n%s", len(lines), err)
	}
	same := Defaults()
	same.MetricsAddr = same.Addr
	if err := same.Validate(); err == nil || !strings.Contains(err.Error(), "must differ from --addr") {
		t.Errorf("the same address twice: %v", err)
	}
}
