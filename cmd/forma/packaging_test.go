package main

import (
	"bytes"
	"debug/elf"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// No container engine runs on the test machines, so the image itself is not
// built here; what it runs is. These tests check that the Dockerfile builds the
// binary the way the process tests build theirs, that this binary is static (the
// distroless image has no C library), and that the image's HEALTHCHECK command
// tells a serving process from a missing one.

// TestDockerfileBuildsWhatTheTestsRun: the Dockerfile's build line uses exactly
// the flags of buildBinary, and the image runs as non-root with a /data volume
// and a health check.
func TestDockerfileBuildsWhatTheTestsRun(t *testing.T) {
	b, err := os.ReadFile("../../Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	df := string(b)
	want := "RUN " + strings.Join(dockerBuild, " ") + " -o /out/forma ./cmd/forma"
	if !strings.Contains(df, want) {
		t.Errorf("the Dockerfile does not build with %q", want)
	}
	for _, line := range []string{"USER 65532:65532", "VOLUME /data", `CMD ["/usr/local/bin/forma", "healthcheck"]`, "FROM gcr.io/distroless/static"} {
		if !strings.Contains(df, line) {
			t.Errorf("the Dockerfile lacks %q", line)
		}
	}
}

// TestBinaryIsStatic: the binary has no ELF interpreter and needs no shared
// library, so it runs in an image without a C library.
func TestBinaryIsStatic(t *testing.T) {
	f, err := elf.Open(buildBinary(t))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			t.Error("the binary has an ELF interpreter: it is dynamically linked")
		}
	}
	if libs, _ := f.ImportedLibraries(); len(libs) > 0 {
		t.Errorf("the binary needs shared libraries %v", libs)
	}
}

// TestHealthcheckCommand: `forma healthcheck` succeeds against a serving
// process and fails, with a message, when nothing listens.
func TestHealthcheckCommand(t *testing.T) {
	s := &formaServer{bin: buildBinary(t), data: t.TempDir()}
	s.start(t)
	out, err := exec.Command(s.bin, "healthcheck", "--addr", s.addr).CombinedOutput()
	if err != nil || !bytes.Contains(out, []byte("healthy")) {
		t.Errorf("healthcheck of a serving process: %v, %s", err, out)
	}
	s.stop(t)
	out, err = exec.Command(s.bin, "healthcheck", "--addr", s.addr).CombinedOutput()
	if err == nil || !bytes.Contains(out, []byte("not healthy")) {
		t.Errorf("healthcheck with nothing listening: %v, %s", err, out)
	}
	cmd := exec.Command(s.bin, "healthcheck")
	cmd.Env = append(os.Environ(), "FORMA_ADDR="+s.addr)
	if out, err := cmd.CombinedOutput(); err == nil {
		t.Errorf("healthcheck through FORMA_ADDR with nothing listening succeeded: %s", out)
	}
}
