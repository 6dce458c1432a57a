//lint:file-ignore SA1019 the tests act as a client that announces roots

package mcp

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

func fileURI(path string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}).String()
}

// outsideProject moves the test into a fresh directory that is in no
// project and clears $PLANLS_ROOT, as a client started in an unrelated
// directory would.
func outsideProject(t *testing.T) string {
	t.Helper()
	t.Setenv("PLANLS_ROOT", "")
	dir := t.TempDir()
	t.Chdir(dir)
	return dir
}

func TestRootFromClientRoots(t *testing.T) {
	outsideProject(t)
	proj := newProject(t)
	cs := connect(t, Options{}, fileURI(proj))
	if got := call(t, cs, `{"action":"create","subject":"a"}`); got.IsError {
		t.Fatalf("create with a client root: %s", got.Text)
	}
	if st := readState(t, proj); len(st.Tasks) != 1 {
		t.Fatalf("state in the client's root has %d tasks", len(st.Tasks))
	}
}

func TestClientRootInsideProjectUsesProject(t *testing.T) {
	outsideProject(t)
	proj := newProject(t)
	sub := filepath.Join(proj, "pkg", "sub")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	cs := connect(t, Options{}, "https://example.invalid/not-a-dir", fileURI(sub))
	call(t, cs, `{"action":"create","subject":"a"}`)
	if _, err := os.Stat(filepath.Join(proj, ".planls", "state.json")); err != nil {
		t.Fatalf("state not at the project root: %v", err)
	}
	if _, err := os.Stat(filepath.Join(sub, ".planls")); !os.IsNotExist(err) {
		t.Fatalf("state created in the sub folder: %v", err)
	}
}

func TestNoRootNamesWhereItLooked(t *testing.T) {
	cwd := outsideProject(t)
	for _, roots := range [][]string{nil, {"file:///"}} {
		cs := connect(t, Options{}, roots...)
		for _, args := range []string{`{"action":"list"}`, `{"action":"create","subject":"a"}`} {
			got := call(t, cs, args)
			if !got.IsError {
				t.Fatalf("roots %v: %s answered without a project: %s", roots, args, got.Text)
			}
			for _, want := range []string{"no planls project found", "--root", "$PLANLS_ROOT", "MCP roots", cwd} {
				if !strings.Contains(got.Text, want) {
					t.Errorf("roots %v: error %q does not name %q", roots, got.Text, want)
				}
			}
		}
	}
	if entries, _ := os.ReadDir(cwd); len(entries) != 0 {
		t.Fatalf("the server wrote into the working directory: %v", entries)
	}
}

func TestRootFromEnv(t *testing.T) {
	outsideProject(t)
	proj := newProject(t)
	t.Setenv("PLANLS_ROOT", proj)
	other := newProject(t)
	cs := connect(t, Options{}, fileURI(other)) // $PLANLS_ROOT wins over client roots
	call(t, cs, `{"action":"create","subject":"a"}`)
	if st := readState(t, proj); len(st.Tasks) != 1 {
		t.Fatalf("$PLANLS_ROOT project has %d tasks", len(st.Tasks))
	}
	if _, err := os.Stat(filepath.Join(other, ".planls")); !os.IsNotExist(err) {
		t.Fatal("client root used although $PLANLS_ROOT was set")
	}
}

func TestRootFlagWins(t *testing.T) {
	outsideProject(t)
	flag, env := newProject(t), newProject(t)
	t.Setenv("PLANLS_ROOT", env)
	cs := connect(t, Options{Root: flag})
	call(t, cs, `{"action":"create","subject":"a"}`)
	if st := readState(t, flag); len(st.Tasks) != 1 {
		t.Fatalf("--root project has %d tasks", len(st.Tasks))
	}
}

func TestRootsChangedReResolves(t *testing.T) {
	outsideProject(t)
	a, b := newProject(t), newProject(t)
	ctx := t.Context()
	srv := newServer(Options{}, testLogger(t))
	st, ct := sdk.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	client := sdk.NewClient(&sdk.Implementation{Name: "t", Version: "0"}, nil)
	client.AddRoots(&sdk.Root{URI: fileURI(a)})
	cs, err := client.Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { cs.Close(); ss.Wait() }()
	call(t, cs, `{"action":"create","subject":"in a"}`)
	client.RemoveRoots(fileURI(a))
	client.AddRoots(&sdk.Root{URI: fileURI(b)})
	// The list_changed notification is asynchronous; poll until the server
	// serves b (an empty list) instead of a.
	deadline := time.Now().Add(5 * time.Second)
	for {
		if got := call(t, cs, `{"action":"list"}`); got.Text == "No tasks" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("server kept the old root after roots/list_changed")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestFileURIPath(t *testing.T) {
	for _, tc := range []struct {
		uri  string
		want string
		ok   bool
	}{
		{"file:///work/proj", "/work/proj", true},
		{"file:///work/proj/", "/work/proj", true},
		{"file://localhost/work/proj", "/work/proj", true},
		{"file:///work/my%20proj", "/work/my proj", true},
		{"file:///work/a/../b", "/work/b", true},
		{"file://server/share", "", false},
		{"https://example.com/x", "", false},
		{"file:relative/path", "", false},
		{"", "", false},
		{"%zz", "", false},
	} {
		got, ok := fileURIPath(tc.uri)
		if got != tc.want || ok != tc.ok {
			t.Errorf("fileURIPath(%q) = %q, %v; want %q, %v", tc.uri, got, ok, tc.want, tc.ok)
		}
	}
}
