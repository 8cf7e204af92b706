// Package s3test starts a real S3-compatible server (versitygw, over a temporary
// folder) for tests of the S3 blob store, or skips the test with a message saying
// how to install it.
package s3test

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"
)

// Version is the versitygw release the tests are run against.
const Version = "v1.8.0"

const (
	accessKey = "forma-test-access"
	secretKey = "forma-test-secret-key"
	bucket    = "forma-test"
)

// binary finds versitygw: $FORMA_TEST_VERSITYGW, the PATH, or GOPATH/bin.
func binary() string {
	if p := os.Getenv("FORMA_TEST_VERSITYGW"); p != "" {
		return p
	}
	if p, err := exec.LookPath("versitygw"); err == nil {
		return p
	}
	if out, err := exec.Command("go", "env", "GOPATH").Output(); err == nil {
		p := filepath.Join(string(out[:len(out)-1]), "bin", "versitygw")
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return ""
}

// Start runs versitygw for the rest of the test, makes a bucket, sets the AWS_*
// credentials in the environment, and returns a blob URL for that bucket under
// prefix. Several Stores (one per node) may open the same URL.
func Start(t testing.TB, prefix string) string {
	t.Helper()
	bin := binary()
	if bin == "" {
		t.Skip("S3 tests need versitygw: go install github.com/versity/versitygw/cmd/versitygw@" + Version +
			" (or set FORMA_TEST_VERSITYGW to its path)")
	}
	addr := freeAddr(t)
	root := t.TempDir()
	cmd := exec.Command(bin, "--access", accessKey, "--secret", secretKey, "--port", addr, "posix", "--sidecar", t.TempDir(), root)
	var out bytes.Buffer // its access log, shown when the test fails
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatalf("start versitygw: %v", err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		if t.Failed() {
			t.Logf("versitygw said:\n%s", out.String())
		}
	})
	t.Setenv("AWS_ACCESS_KEY_ID", accessKey)
	t.Setenv("AWS_SECRET_ACCESS_KEY", secretKey)
	makeBucket(t, addr)
	return fmt.Sprintf("s3://%s/%s?endpoint=http://%s&region=us-east-1", bucket, prefix, addr)
}

// makeBucket waits for the server to answer, then creates the bucket.
func makeBucket(t testing.TB, addr string) {
	client, err := minio.New(addr, &minio.Options{Creds: credentials.NewStaticV4(accessKey, secretKey, ""), Region: "us-east-1"})
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(15 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		err = client.MakeBucket(ctx, bucket, minio.MakeBucketOptions{Region: "us-east-1"})
		cancel()
		if err == nil || time.Now().After(deadline) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err != nil {
		t.Fatalf("make bucket on versitygw at %s: %v", addr, err)
	}
}

func freeAddr(t testing.TB) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}
