package blob

import (
	"context"
	"errors"
	"io"
	"os"
	"strings"
	"testing"
)

func TestDiskRoundTrip(t *testing.T) {
	ctx := context.Background()
	d, err := NewDisk(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Put(ctx, "abcdefgh123", strings.NewReader("hello")); err != nil {
		t.Fatal(err)
	}
	r, err := d.Open(ctx, "abcdefgh123")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(r)
	r.Close()
	if string(b) != "hello" {
		t.Errorf("read %q", b)
	}
	if err := d.Delete(ctx, "abcdefgh123"); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Open(ctx, "abcdefgh123"); !errors.Is(err, ErrNotFound) {
		t.Errorf("after delete: %v", err)
	}
	if err := d.Delete(ctx, "abcdefgh123"); err != nil {
		t.Errorf("deleting a missing blob: %v", err)
	}
}

func TestDiskRefusesPathTricksAndLeavesNoPartialFile(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	d, _ := NewDisk(dir)
	for _, key := range []string{"../../etc/passwd", "a/b/cdefgh", "short", ""} {
		if err := d.Put(ctx, key, strings.NewReader("x")); err == nil {
			t.Errorf("key %q accepted", key)
		}
	}
	failing := io.MultiReader(strings.NewReader("part"), errReader{})
	if err := d.Put(ctx, "partial-file-1", failing); err == nil {
		t.Fatal("failed read did not fail Put")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 0 {
		t.Errorf("left behind: %v", entries)
	}
}

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, errors.New("connection reset") }
