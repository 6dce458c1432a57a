//go:build !windows

package store

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/google/renameio/v2"
)

// WriteFile replaces the file at path with data (mode 0644), as the store
// writes its own files: temp file in the same directory, fsync, rename,
// fsync of the directory. Readers see the old or the new file, never a mix,
// and a crash at any point leaves one of them.
func WriteFile(path string, data []byte) error {
	dir := filepath.Dir(path)
	pf, err := renameio.NewPendingFile(path, renameio.WithTempDir(dir), renameio.WithPermissions(0o644))
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer pf.Cleanup()
	if _, err := pf.Write(data); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := pf.CloseAtomicallyReplace(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	return nil
}

// readShared is os.ReadFile: on Unix a rename over the file never gets in
// a reader's way (see atomic_windows.go for where it does).
func readShared(path string) ([]byte, error) { return os.ReadFile(path) }
