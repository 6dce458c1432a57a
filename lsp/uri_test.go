package lsp

import "testing"

// URIs are decoded for the file system; the client's spelling is kept
// for publishing (tested in TestURIsKeepClientSpelling).
func TestURIToPath(t *testing.T) {
	tests := []struct {
		uri     string
		windows bool
		want    string
		err     bool
	}{
		{"file:///c%3A/Users/Me/My%20Repo/PLAN.md", true, `c:\Users\Me\My Repo\PLAN.md`, false},
		{"file:///C:/Users/Me/PLAN.md", true, `C:\Users\Me\PLAN.md`, false},
		{"file:///c:", true, `c:\`, false},
		{"file://server/share/PLAN.md", true, `\\server\share\PLAN.md`, false},
		{"file:///home/me/My%20Repo/PLAN.md", false, "/home/me/My Repo/PLAN.md", false},
		{"file:///home/me/a/../PLAN.md", false, "/home/me/PLAN.md", false},
		{"file:///home/me/%E8%AE%A1%E5%88%92.md", false, "/home/me/计划.md", false},
		{"FILE:///x/PLAN.md", false, "/x/PLAN.md", false},
		{"untitled:Untitled-1", false, "", true},
		{"git:/x/PLAN.md?ref=HEAD", false, "", true},
		{"file:", false, "", true},
		{"%%", false, "", true},
		{"", false, "", true},
	}
	for _, tt := range tests {
		got, err := uriToPath(tt.uri, tt.windows)
		if (err != nil) != tt.err || got != tt.want {
			t.Errorf("uriToPath(%q, windows=%v) = %q, %v; want %q, err %v", tt.uri, tt.windows, got, err, tt.want, tt.err)
		}
	}
}

func TestPathKeyAndURI(t *testing.T) {
	if a, b := pathKey(`c:\Users\Me\My Repo`, true), pathKey(`C:\users\me\my repo`, true); a != b {
		t.Errorf("windows keys differ: %q %q", a, b)
	}
	if a, b := pathKey("/x/Repo", false), pathKey("/x/repo", false); a == b {
		t.Error("unix keys must keep case")
	}
	tests := []struct {
		path    string
		windows bool
		want    string
	}{
		{"/home/me/My Repo/PLAN.md", false, "file:///home/me/My%20Repo/PLAN.md"},
		{`C:\Users\Me\PLAN.md`, true, "file:///C:/Users/Me/PLAN.md"},
	}
	for _, tt := range tests {
		if got := pathToURI(tt.path, tt.windows); got != tt.want {
			t.Errorf("pathToURI(%q) = %q, want %q", tt.path, got, tt.want)
		}
		back, err := uriToPath(tt.want, tt.windows)
		if err != nil || back != tt.path {
			t.Errorf("round trip %q → %q, %v", tt.want, back, err)
		}
	}
	if !within("/a/b", "/a/b/c") || within("/a/b", "/a/bc") || !within("/a/b", "/a/b") {
		t.Error("within")
	}
}

// A file under a folder is named with the client's spelling of the folder
// (Neovim and node keep "*" where Go writes "%2A"), so a disk-only plan and
// the buffer the client opens later share one URI.
func TestFileURIKeepsTheClientsSpelling(t *testing.T) {
	if isWindows {
		t.Skip("POSIX paths")
	}
	f := newFolder("/tmp/client [acme] *?", "file:///tmp/client%20%5Bacme%5D%20*%3F/")
	for _, c := range []struct{ path, want string }{
		{"/tmp/client [acme] *?/PLAN.md", "file:///tmp/client%20%5Bacme%5D%20*%3F/PLAN.md"},
		{"/tmp/client [acme] *?/.planls/state.json", "file:///tmp/client%20%5Bacme%5D%20*%3F/.planls/state.json"},
		{"/tmp/client [acme] *?/docs/a #1?.md", "file:///tmp/client%20%5Bacme%5D%20*%3F/docs/a%20%231%3F.md"},
		{"/tmp/elsewhere/PLAN.md", "file:///tmp/elsewhere/PLAN.md"},
		{"/tmp/client [acme] *?", uriOf("/tmp/client [acme] *?")},
	} {
		if got := f.fileURI(c.path); got != c.want {
			t.Errorf("fileURI(%q) = %q, want %q", c.path, got, c.want)
		}
	}
}
