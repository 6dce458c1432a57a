package mcp

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestStoreSetReusesAndBounds(t *testing.T) {
	var s storeSet
	a := s.get("/a")
	if s.get("/a") != a {
		t.Fatal("a second call for the same root opened a new store, losing its read cache")
	}
	if a.Root != "/a" || a.Actor != actor {
		t.Fatalf("store of /a has root %q actor %q", a.Root, a.Actor)
	}
	for i := 0; i < 3*maxStores; i++ {
		s.get(fmt.Sprintf("/r%d", i))
		if n := len(s.stores); n > maxStores {
			t.Fatalf("%d stores kept, want at most %d", n, maxStores)
		}
	}
}

// TestListSeesEveryEditOfTheFile edits state.json behind the server's back
// between list calls, keeping its size and mtime: each list must show the
// file as it is now, and a damaged file must be reported, not the state the
// server read before.
func TestListSeesEveryEditOfTheFile(t *testing.T) {
	root := newProject(t)
	cs := connect(t, Options{Root: root})
	if got := call(t, cs, `{"action":"create","subject":"aaaa"}`); got.IsError {
		t.Fatalf("create: %s", got.Text)
	}
	path := filepath.Join(root, ".planls", "state.json")
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rewrite := func(data []byte) {
		t.Helper()
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(path, info.ModTime(), info.ModTime()); err != nil {
			t.Fatal(err)
		}
	}
	list := func(want string) {
		t.Helper()
		got := call(t, cs, `{"action":"list"}`)
		if got.IsError || !strings.Contains(got.Text, want) {
			t.Fatalf("list: want %q in %+v", want, got)
		}
	}
	list("aaaa")
	list("aaaa")
	rewrite(bytes.Replace(good, []byte(`"aaaa"`), []byte(`"bbbb"`), 1))
	list("bbbb")
	rewrite(good[:len(good)-10])
	for i := 0; i < 2; i++ {
		if got := call(t, cs, `{"action":"list"}`); !got.IsError || !strings.Contains(got.Text, "truncated file") {
			t.Fatalf("list %d of a truncated file: %+v", i, got)
		}
	}
	rewrite(good)
	list("aaaa")
	if got := call(t, cs, `{"action":"update","id":1,"subject":"cccc"}`); got.IsError {
		t.Fatalf("update: %s", got.Text)
	}
	list("cccc")
}
