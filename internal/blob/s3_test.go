package blob_test

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"forma/internal/blob"
	"forma/internal/blob/s3test"
)

// TestS3AgainstRealServer stores, reads, shares and deletes files in a bucket of a
// real S3-compatible server (versitygw).
func TestS3AgainstRealServer(t *testing.T) {
	ctx := context.Background()
	url := s3test.Start(t, "uploads")
	nodeA, err := blob.Open(url, "")
	if err != nil {
		t.Fatal(err)
	}
	nodeB, _ := blob.Open(url, "")
	if err := nodeA.(*blob.S3).Check(ctx); err != nil {
		t.Fatalf("check: %v", err)
	}
	big := strings.Repeat("forma ", 2<<20) // 12 MiB: several parts of unknown length
	if err := nodeA.Put(ctx, "file-from-node-a", strings.NewReader(big)); err != nil {
		t.Fatal(err)
	}
	r, err := nodeB.Open(ctx, "file-from-node-a")
	if err != nil {
		t.Fatalf("node B cannot open node A's file: %v", err)
	}
	got, err := io.ReadAll(r)
	r.Close()
	if err != nil || string(got) != big {
		t.Fatalf("node B read %d bytes (%v), want %d", len(got), err, len(big))
	}
	if _, err := nodeB.Open(ctx, "never-stored-key"); !errors.Is(err, blob.ErrNotFound) {
		t.Errorf("missing key: %v, want ErrNotFound", err)
	}
	if err := nodeB.Delete(ctx, "file-from-node-a"); err != nil {
		t.Fatal(err)
	}
	if _, err := nodeA.Open(ctx, "file-from-node-a"); !errors.Is(err, blob.ErrNotFound) {
		t.Errorf("after delete: %v, want ErrNotFound", err)
	}
	if err := nodeA.Delete(ctx, "file-from-node-a"); err != nil {
		t.Errorf("deleting a missing object: %v", err)
	}
	if err := nodeA.Put(ctx, "../escape", strings.NewReader("x")); err == nil {
		t.Error("a key with a path was accepted")
	}
}

// TestS3FailedUploadLeavesNothing: a read that fails half-way stores no object.
func TestS3FailedUploadLeavesNothing(t *testing.T) {
	ctx := context.Background()
	s, err := blob.Open(s3test.Start(t, ""), "")
	if err != nil {
		t.Fatal(err)
	}
	failing := io.MultiReader(strings.NewReader("part"), failingReader{})
	if err := s.Put(ctx, "partial-object", failing); err == nil {
		t.Fatal("a failed read did not fail Put")
	}
	if _, err := s.Open(ctx, "partial-object"); !errors.Is(err, blob.ErrNotFound) {
		t.Errorf("after a failed Put: %v, want ErrNotFound", err)
	}
}

// TestBlobURLErrors: a bad blob URL is refused with a message saying its form.
func TestBlobURLErrors(t *testing.T) {
	for _, u := range []string{"http://bucket", "s3://", "s3://b?endpoint=ftp://x", "s3://b?endpoint=http://h/path", "s3://b?color=red"} {
		if _, err := blob.Open(u, ""); err == nil {
			t.Errorf("%q accepted", u)
		}
	}
}

type failingReader struct{}

func (failingReader) Read([]byte) (int, error) { return 0, errors.New("connection reset") }
