package report

import "testing"

func TestParseRemote(t *testing.T) {
	for _, tc := range []struct{ remote, kind, base string }{
		{"https://github.com/acme/widgets.git", "GitHub", "https://github.com/acme/widgets"},
		{"https://github.com/acme/widgets", "GitHub", "https://github.com/acme/widgets"},
		{"https://user:token@github.com/acme/widgets.git/", "GitHub", "https://github.com/acme/widgets"},
		{"git@github.com:acme/widgets.git", "GitHub", "https://github.com/acme/widgets"},
		{"github.com:acme/widgets", "GitHub", "https://github.com/acme/widgets"},
		{"ssh://git@github.com/acme/widgets.git", "GitHub", "https://github.com/acme/widgets"},
		{"ssh://git@ssh.github.com:443/acme/widgets.git", "GitHub", "https://github.com/acme/widgets"},
		{"git+ssh://git@github.com/acme/widgets", "GitHub", "https://github.com/acme/widgets"},
		{"git://github.com/acme/widgets.git", "GitHub", "https://github.com/acme/widgets"},
		{"https://GitHub.com/Acme/Widgets.git", "GitHub", "https://github.com/Acme/Widgets"},
		{"git@github.example.com:team/app.git", "GitHub", "https://github.example.com/team/app"},
		{"https://gitlab.com/group/sub/project.git", "GitLab", "https://gitlab.com/group/sub/project"},
		{"git@gitlab.com:group/sub/project.git", "GitLab", "https://gitlab.com/group/sub/project"},
		{"ssh://git@gitlab.example.com:2222/group/project.git", "GitLab", "https://gitlab.example.com/group/project"},
		{"ssh://git@altssh.gitlab.com:443/group/project.git", "GitLab", "https://gitlab.com/group/project"},
		{"https://codeberg.org/owner/repo.git", "Gitea", "https://codeberg.org/owner/repo"},
		{"git@gitea.com:owner/repo.git", "Gitea", "https://gitea.com/owner/repo"},
		{"ssh://git@gitea.example.org:2222/owner/repo.git", "Gitea", "https://gitea.example.org/owner/repo"},
		{"https://forgejo.example.org/owner/my%20repo.git", "Gitea", "https://forgejo.example.org/owner/my%20repo"},
		// Not a forge: a local path, file://, an unknown host, too short a path.
		{"/srv/git/widgets.git", "", ""},
		{"../widgets", "", ""},
		{"./a:b", "", ""},
		{"file:///srv/git/widgets.git", "", ""},
		{"https://git.example.com/acme/widgets.git", "", ""},
		{"git@github.com:widgets.git", "", ""},
		{"https://github.com/", "", ""},
		{"javascript:alert(1)//github.com/a/b", "", ""},
		{"", "", ""},
	} {
		f, ok := ParseRemote(tc.remote)
		if ok != (tc.kind != "") || f.Kind != tc.kind || f.Base != tc.base {
			t.Errorf("ParseRemote(%q) = %+v, %v; want %q %q", tc.remote, f, ok, tc.kind, tc.base)
		}
	}
}

func TestForgeURLs(t *testing.T) {
	rev := "0123456789abcdef0123456789abcdef01234567"
	for _, tc := range []struct {
		kind, commit, file, lines string
	}{
		{"GitHub", "https://h/o/r/commit/abc", "https://h/o/r/blob/" + rev + "/docs/Design%20Notes.md#L4", "https://h/o/r/blob/" + rev + "/a.go#L10-L20"},
		{"GitLab", "https://h/o/r/-/commit/abc", "https://h/o/r/-/blob/" + rev + "/docs/Design%20Notes.md#L4", "https://h/o/r/-/blob/" + rev + "/a.go#L10-20"},
		{"Gitea", "https://h/o/r/commit/abc", "https://h/o/r/src/commit/" + rev + "/docs/Design%20Notes.md#L4", "https://h/o/r/src/commit/" + rev + "/a.go#L10-L20"},
	} {
		f := Forge{Kind: tc.kind, Base: "https://h/o/r"}
		if got := f.Commit("abc"); got != tc.commit {
			t.Errorf("%s commit: %s, want %s", tc.kind, got, tc.commit)
		}
		if got := f.File(rev, "docs/Design Notes.md", 4, 0); got != tc.file {
			t.Errorf("%s file: %s, want %s", tc.kind, got, tc.file)
		}
		if got := f.File(rev, "a.go", 10, 20); got != tc.lines {
			t.Errorf("%s range: %s, want %s", tc.kind, got, tc.lines)
		}
	}
}
