//go:build windows

package store

import (
	"fmt"
	"os"
	"path/filepath"
)

// writeAtomic replaces path with data. renameio does not support Windows;
// this does the same steps it can there: a temp file in the same directory
// (named as renameio names them, so removeTemps finds leftovers), fsync,
// and os.Rename, which is MoveFileEx with MOVEFILE_REPLACE_EXISTING.
// Windows has no directory fsync.
func writeAtomic(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+"*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	tmp := f.Name()
	defer os.Remove(tmp) // fails harmlessly once renamed
	if _, err := f.Write(data); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
