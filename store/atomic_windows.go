//go:build windows

package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// WriteFile replaces the file at path with data (mode 0644), as the store
// writes its own files. renameio does not support Windows;
// this does the same steps it can there: a temp file in the same directory
// (named as renameio names them, so removeTemps finds leftovers), fsync,
// and a rename over path (MoveFileEx with MOVEFILE_REPLACE_EXISTING),
// retried while another process has path open. Windows has no directory
// fsync.
func WriteFile(path string, data []byte) error {
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
	if err := shared(func() error { return os.Rename(tmp, path) }); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// readShared is os.ReadFile, retried while a rename over path is under way.
func readShared(path string) ([]byte, error) {
	var data []byte
	err := shared(func() (err error) {
		data, err = os.ReadFile(path)
		return err
	})
	return data, err
}

// errSharingViolation is Windows' ERROR_SHARING_VIOLATION.
const errSharingViolation syscall.Errno = 32

// shareWait bounds how long shared retries: a reader holds the file for a
// read's time, a rename for a rename's.
const shareWait = 2 * time.Second

// shared runs op until it stops failing because another process has the
// file open: Go opens files without FILE_SHARE_DELETE, so while any reader
// (the language server, another planls) reads state.json, a rename over it
// is refused (ERROR_ACCESS_DENIED), and while a rename is under way, an open
// of it is (ERROR_SHARING_VIOLATION). Other errors, and the last one after
// shareWait, are returned as they are.
func shared(op func() error) error {
	deadline := time.Now().Add(shareWait)
	for delay := time.Millisecond; ; delay = min(2*delay, 50*time.Millisecond) {
		err := op()
		if !errors.Is(err, syscall.ERROR_ACCESS_DENIED) && !errors.Is(err, errSharingViolation) || time.Now().After(deadline) {
			return err
		}
		time.Sleep(delay)
	}
}
