package store

import (
	"bytes"
	"errors"
	"testing"
)

// FuzzDecodeState: any bytes give a state or a *StateError (never a panic),
// positions stay inside the file, and a state that decodes is written back
// in a form that decodes to the same bytes again.
func FuzzDecodeState(f *testing.F) {
	for _, s := range []string{
		"", "{}", `{"version":1,"nextId":1,"tasks":[]}`, "\xEF\xBB\xBF{}", "\xFF\xFE{\x00}\x00",
		"{\n<<<<<<< a\n=======\n>>>>>>> b\n}", `{"tasks":[{"id":1,"subject":"a","status":"pending"}],"nextId":2}`,
		`{"tasks":[{"id":"1"}]}`, `{"revision":1.5}`, "[1]", `{"version":1,"tasks":[{"id":1,"sub`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		st, err := decodeState("S", data)
		if err != nil {
			var serr *StateError
			if !errors.As(err, &serr) {
				t.Fatalf("%T is not a *StateError", err)
			}
			lines := bytes.Count(data, []byte("\n")) + 1
			if serr.Line < 0 || serr.Line > lines || serr.Col < 0 || (serr.Line > 0 && serr.Col == 0) {
				t.Fatalf("position %d:%d outside a file of %d lines", serr.Line, serr.Col, lines)
			}
			return
		}
		out, err := encodeState(st)
		if err != nil {
			t.Fatal(err)
		}
		st2, err := decodeState("S", out)
		if err != nil {
			t.Fatalf("re-read of written state: %v\n%s", err, out)
		}
		out2, _ := encodeState(st2)
		if !bytes.Equal(out, out2) {
			t.Fatalf("not stable:\n%s\n%s", out, out2)
		}
	})
}
