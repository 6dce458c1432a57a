// Package floor is the disk's floor for one durable commit, for benchmarks
// to be judged against: the same system calls a store commit
// needs and nothing else.
package floor

import (
	"os"
	"path/filepath"
	"slices"
	"time"
)

// Commit writes state to dir/state.json durably and appends journalLine to
// dir/journal.jsonl durably: temp file, write, fsync, rename over the file,
// fsync of dir, then append and fsync of the journal. dir must exist. The
// error is the first failed system call's.
func Commit(dir string, state, journalLine []byte) error {
	tmp := filepath.Join(dir, ".state.json.floor")
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	if err := writeSync(f, state); err != nil {
		return err
	}
	if err := os.Rename(tmp, filepath.Join(dir, "state.json")); err != nil {
		return err
	}
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	d.Close()
	if err != nil {
		return err
	}
	j, err := os.OpenFile(filepath.Join(dir, "journal.jsonl"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	return writeSync(j, journalLine)
}

// writeSync writes data to f, fsyncs and closes it.
func writeSync(f *os.File, data []byte) error {
	_, err := f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// JournalLine is a journal line of the size a one-field update writes.
var JournalLine = []byte(`{"revision":1,"time":"2026-01-02T03:04:05Z","actor":"bench","kind":"call","params":{"action":"update","id":1,"status":"in_progress"},"result":"Updated #1 (pending → in_progress)","diff":[{"op":"replace","path":"/tasks/0/status","value":"in_progress"}]}` + "\n")

// Times are the medians and minimums of n interleaved runs of Commit and of
// an operation measured against it.
type Times struct {
	Floor, Op       time.Duration // medians
	FloorMin, OpMin time.Duration
}

// Ratio is Op ÷ Floor, the medians' ratio.
func (t Times) Ratio() float64 { return float64(t.Op) / float64(t.Floor) }

// MinRatio is OpMin ÷ FloorMin: the best case of each, what a quiet
// machine gives.
func (t Times) MinRatio() float64 { return float64(t.OpMin) / float64(t.FloorMin) }

// Interleave runs Commit(dir, state, JournalLine) and then op, n times in
// turn, so a busy machine's drift reaches both alike. The first error, of
// either, ends it.
func Interleave(n int, dir string, state []byte, op func(i int) error) (Times, error) {
	floors := make([]time.Duration, 0, n)
	ops := make([]time.Duration, 0, n)
	for i := 0; i < n; i++ {
		t0 := time.Now()
		if err := Commit(dir, state, JournalLine); err != nil {
			return Times{}, err
		}
		t1 := time.Now()
		if err := op(i); err != nil {
			return Times{}, err
		}
		ops = append(ops, time.Since(t1))
		floors = append(floors, t1.Sub(t0))
	}
	if n == 0 {
		return Times{}, nil
	}
	slices.Sort(floors)
	slices.Sort(ops)
	return Times{Floor: floors[n/2], Op: ops[n/2], FloorMin: floors[0], OpMin: ops[0]}, nil
}
