package store_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"forma/internal/store"
)

// TestDataFolderWithURICharacters: the SQLite file goes into the data folder even
// when its name has characters that mean something in a URI (a '#' made SQLite
// open a file named by the path before it).
func TestDataFolderWithURICharacters(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a#b?c%20d")
	st, err := store.Open(context.Background(), "", dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := os.Stat(filepath.Join(dir, "forma.db")); err != nil {
		t.Errorf("no forma.db in %s: %v", dir, err)
	}
}
