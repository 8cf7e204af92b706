package bench

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// child is the Forma server under test: `forma serve` in its own process, so
// that its memory is measured apart from the load generator's.
type child struct {
	cmd  *exec.Cmd
	url  string
	log  string
	done chan struct{}
	err  error
}

// startServer runs `exe serve` on a free loopback port over the data folder dir
// (and databaseURL when set): webhooks to loopback allowed (the receiver is
// local), no per-client submission limit (all load comes from one address). Its
// output goes to server.log in dir. The FORMA_* environment is not passed on, so
// that only these settings apply.
func startServer(ctx context.Context, exe, dir, databaseURL string) (*child, error) {
	addr, err := freeAddr()
	if err != nil {
		return nil, err
	}
	args := []string{"serve", "--addr", addr, "--data", dir, "--public-url", "http://" + addr,
		"--allow-private-webhooks", "--submit-limit", "0", "--session-limit", "0", "--save-limit", "0"}
	if databaseURL != "" {
		args = append(args, "--database", databaseURL)
	}
	c := &child{url: "http://" + addr, log: filepath.Join(dir, "server.log"), done: make(chan struct{})}
	out, err := os.Create(c.log)
	if err != nil {
		return nil, err
	}
	defer out.Close()
	c.cmd = exec.Command(exe, args...)
	c.cmd.Stdout, c.cmd.Stderr, c.cmd.Env = out, out, environment()
	if err := c.cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s serve: %w", exe, err)
	}
	go func() { c.err = c.cmd.Wait(); close(c.done) }()
	if err := c.waitReady(ctx); err != nil {
		c.stop()
		return nil, err
	}
	return c, nil
}

// environment is this process's environment without Forma's settings.
func environment() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "FORMA_") {
			env = append(env, kv)
		}
	}
	return env
}

// freeAddr finds a loopback address with a free port.
func freeAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

// waitReady waits until the server answers /healthz.
func (c *child) waitReady(ctx context.Context) error {
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case <-c.done:
			return fmt.Errorf("the server stopped at start (%v):\n%s", c.err, c.logTail())
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
		resp, err := http.Get(c.url + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
	}
	return fmt.Errorf("the server did not answer /healthz within 30 s:\n%s", c.logTail())
}

// logTail is the end of the server's output, for error messages.
func (c *child) logTail() string {
	b, _ := os.ReadFile(c.log)
	if len(b) > 2000 {
		b = b[len(b)-2000:]
	}
	return string(bytes.TrimSpace(b))
}

// stop shuts the server down: SIGTERM, then SIGKILL after 20 s.
func (c *child) stop() error {
	_ = c.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-c.done:
		if c.err != nil {
			return fmt.Errorf("the server exited with %v:\n%s", c.err, c.logTail())
		}
		return nil
	case <-time.After(20 * time.Second):
		_ = c.cmd.Process.Kill()
		<-c.done
		return errors.New("the server did not stop within 20 s of SIGTERM, and was killed")
	}
}

// memory reads the server's resident set size now and its peak so far, in
// bytes, from /proc/<pid>/status (VmRSS, VmHWM); -1 where it is not available
// (outside Linux).
func (c *child) memory() (now, peak int64) {
	now, peak = -1, -1
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", c.cmd.Process.Pid))
	if err != nil {
		return now, peak
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		name, value, _ := strings.Cut(sc.Text(), ":")
		kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(value), " kB"), 10, 64)
		switch {
		case err != nil:
		case name == "VmRSS":
			now = kb << 10
		case name == "VmHWM":
			peak = kb << 10
		}
	}
	return now, peak
}
