package store

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// TestDecodeGolden runs testdata/store/decode/*.txtar: state.json is the
// file on disk; error is the exact StateError text (STATE stands for the
// path), error-prefix its start, want the state as the store writes it back.
func TestDecodeGolden(t *testing.T) {
	files, err := filepath.Glob("../testdata/store/decode/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(f)
			if err != nil {
				t.Fatal(err)
			}
			sections := map[string]string{}
			for _, af := range ar.Files {
				sections[af.Name] = string(af.Data)
			}
			const path = "/p/.planls/state.json"
			st, err := decodeState(path, []byte(sections["state.json"]))
			got := ""
			if err != nil {
				if _, ok := err.(*StateError); !ok {
					t.Fatalf("error %T %v is not a *StateError", err, err)
				}
				got = strings.ReplaceAll(err.Error(), path, "STATE")
			}
			switch {
			case sections["error"] != "":
				if want := strings.TrimSuffix(sections["error"], "\n"); got != want {
					t.Errorf("error\n got: %s\nwant: %s", got, want)
				}
			case sections["error-prefix"] != "":
				if want := strings.TrimSuffix(sections["error-prefix"], "\n"); !strings.HasPrefix(got, want) {
					t.Errorf("error\n got: %s\nwant prefix: %s", got, want)
				}
			default:
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				out, err := encodeState(st)
				if err != nil {
					t.Fatal(err)
				}
				if string(out) != sections["want"] {
					t.Errorf("written back as\n%s\nwant\n%s", out, sections["want"])
				}
			}
		})
	}
}

// TestDecodeEncodings: a UTF-8 BOM is accepted,
// UTF-16 and UTF-32 are refused with a re-save hint, never a cryptic error.
func TestDecodeEncodings(t *testing.T) {
	const state = `{"version":1,"nextId":1,"tasks":[]}`
	utf16le := func(s string) string {
		var b strings.Builder
		for _, r := range s {
			b.WriteByte(byte(r))
			b.WriteByte(0)
		}
		return b.String()
	}
	utf16be := func(s string) string {
		var b strings.Builder
		for _, r := range s {
			b.WriteByte(0)
			b.WriteByte(byte(r))
		}
		return b.String()
	}
	for _, tc := range []struct {
		name, data, want string
	}{
		{"utf8 bom", "\xEF\xBB\xBF" + state, ""},
		{"utf16le bom", "\xFF\xFE" + utf16le(state), "STATE: unsupported encoding UTF-16LE; re-save the file as UTF-8 (without BOM)"},
		{"utf16be bom", "\xFE\xFF" + utf16be(state), "STATE: unsupported encoding UTF-16BE; re-save the file as UTF-8 (without BOM)"},
		{"utf16le no bom", utf16le(state), "STATE: unsupported encoding UTF-16LE; re-save the file as UTF-8 (without BOM)"},
		{"utf32le bom", "\xFF\xFE\x00\x00{\x00\x00\x00", "STATE: unsupported encoding UTF-32LE; re-save the file as UTF-8 (without BOM)"},
		{"utf32be no bom", "\x00\x00\x00{", "STATE: unsupported encoding UTF-32BE; re-save the file as UTF-8 (without BOM)"},
		{"latin1 byte", `{"version":1,"nextId":1,"tasks":[],"x":"caf` + "\xE9" + `"}`, "STATE:1:44: invalid UTF-8; re-save the file as UTF-8 (without BOM)"},
		{"bom then error", "\xEF\xBB\xBF{,}", "STATE:1:5: invalid JSON: invalid character ',' looking for beginning of object key string"},
		{"bom then conflict", "\xEF\xBB\xBF{\n=======\n}", "STATE:2:1: merge conflict in .planls/state.json at line 2 (git merged it without the planls merge driver); planls doctor --rebuild --move-aside merges both sides from the journal (keeping one side of the block would drop the other side's changes)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := decodeState("STATE", []byte(tc.data))
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tc.want {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
}

// TestReadMissingCreatesNothing: a missing state is the empty state, and
// reading never creates .planls/.
func TestReadMissingCreatesNothing(t *testing.T) {
	root := t.TempDir()
	s := Open(root, "test")
	st, err := s.Read()
	if err != nil {
		t.Fatal(err)
	}
	if st.NextID != 1 || len(st.Tasks) != 0 || st.Revision != 0 {
		t.Errorf("missing state read as %+v", st)
	}
	if _, err := s.Check(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, DirName)); !os.IsNotExist(err) {
		t.Errorf("Read created %s (stat err %v)", DirName, err)
	}
}
