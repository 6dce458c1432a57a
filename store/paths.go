package store

import "path/filepath"

// Names inside a workspace root.
const (
	// DirName is the state directory under the root.
	DirName = ".planls"
	// StateName is the state file inside DirName.
	StateName = "state.json"
	// JournalName is the append-only journal inside DirName.
	JournalName = "journal.jsonl"
	// LockName is the lock file inside DirName; git ignores it.
	LockName = "state.lock"
)

// ReportName is the plan report planls report writes inside DirName; git
// ignores it (it is made from the files that are history).
const ReportName = "report.html"

// gitignoreBody keeps the lock, any temp file a killed writer left (of the
// state, the journal's tail and its sealed segments), the files doctor
// --move-aside set aside and the plan report out of git.
const gitignoreBody = gitignoreV4 + "." + JournalName + "*\n" + SealDirName + "/.*\n"

// gitignoreV4 is the body before the journal was sealed into segments.
const gitignoreV4 = gitignoreV3 + ReportName + "\n"

// gitignoreV3 is the body before planls report wrote into .planls/.
const gitignoreV3 = gitignoreV2 + JournalName + ".corrupt-*\n"

// gitignoreV2 is the body before doctor could move a conflicted journal aside.
const gitignoreV2 = gitignoreV1 + StateName + ".corrupt-*\n"

// gitignoreV1 is the body earlier versions wrote; EnsureDir upgrades a file
// holding exactly it (anything else is a person's edit and is kept).
const gitignoreV1 = "# written by planls: the lock and temporary files are not history\n" + LockName + "\n." + StateName + "*\n"

// Dir returns Root/.planls.
func (s *Store) Dir() string { return filepath.Join(s.Root, DirName) }

// StatePath returns Root/.planls/state.json.
func (s *Store) StatePath() string { return filepath.Join(s.Root, DirName, StateName) }

// JournalPath returns Root/.planls/journal.jsonl.
func (s *Store) JournalPath() string { return filepath.Join(s.Root, DirName, JournalName) }

// LockPath returns Root/.planls/state.lock.
func (s *Store) LockPath() string { return filepath.Join(s.Root, DirName, LockName) }

// relState is the state path as users see it in messages.
func relState() string { return DirName + "/" + StateName }
