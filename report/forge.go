package report

import (
	"net/url"
	"strconv"
	"strings"
)

// Forge is a repository on a known forge, where evidence links point.
type Forge struct {
	Kind string // "GitHub", "GitLab" or "Gitea"
	Base string // https://host/owner/repo (no trailing slash, no .git)
}

// ParseRemote reads a git remote URL in any of the forms git accepts —
// https://host/owner/repo(.git), scp-like [user@]host:owner/repo(.git),
// ssh://[user@]host[:port]/owner/repo(.git) (also git+ssh://, ssh+git://),
// git://host/owner/repo — and returns the forge's web address for it. ok
// is false for a local path, a file:// URL, or a host that is not a known
// forge: github.com or a host named github.* (GitHub Enterprise), gitlab.com
// or gitlab.* hosts, gitea.com, codeberg.org and gitea.* or forgejo.*
// hosts. Ports and user names are dropped (the web interface is on https's
// port); GitLab's nested groups are kept.
func ParseRemote(remote string) (Forge, bool) {
	remote = strings.TrimSpace(remote)
	host, path := "", ""
	switch {
	case strings.Contains(remote, "://"):
		u, err := url.Parse(remote)
		if err != nil {
			return Forge{}, false
		}
		switch strings.ToLower(u.Scheme) {
		case "https", "http", "ssh", "git+ssh", "ssh+git", "git":
		default:
			return Forge{}, false
		}
		host, path = u.Hostname(), u.Path
	default:
		// scp-like syntax: [user@]host:path, with no slash before the colon
		// (git reads "./a:b" or "a/b:c" as a local path).
		colon := strings.IndexByte(remote, ':')
		if colon <= 0 || strings.ContainsRune(remote[:colon], '/') {
			return Forge{}, false
		}
		host, path = remote[:colon], remote[colon+1:]
		if at := strings.LastIndexByte(host, '@'); at >= 0 {
			host = host[at+1:]
		}
		host = strings.Trim(host, "[]")
	}
	host = strings.ToLower(host)
	path = strings.Trim(path, "/")
	path = strings.TrimSuffix(path, ".git")
	path = strings.TrimSuffix(path, "/")
	if host == "" || strings.Count(path, "/") < 1 || strings.Contains(path, "..") {
		return Forge{}, false
	}
	kind := forgeKind(host)
	if kind == "" {
		return Forge{}, false
	}
	if host == "ssh.github.com" {
		host = "github.com" // GitHub's ssh-over-443 host
	}
	if kind == "GitLab" && strings.HasPrefix(host, "altssh.") {
		host = strings.TrimPrefix(host, "altssh.")
	}
	segs := strings.Split(path, "/")
	for i, s := range segs {
		if s == "" {
			return Forge{}, false
		}
		segs[i] = url.PathEscape(s)
	}
	return Forge{Kind: kind, Base: "https://" + host + "/" + strings.Join(segs, "/")}, true
}

// forgeKind names the forge a host is, "" when unknown.
func forgeKind(host string) string {
	first, _, _ := strings.Cut(host, ".")
	switch {
	case host == "github.com" || host == "ssh.github.com" || first == "github":
		return "GitHub"
	case host == "gitlab.com" || host == "altssh.gitlab.com" || first == "gitlab":
		return "GitLab"
	case host == "gitea.com" || host == "codeberg.org" || first == "gitea" || first == "forgejo" || first == "codeberg":
		return "Gitea"
	}
	return ""
}

// Commit is the web page of a commit.
func (f Forge) Commit(id string) string {
	if f.Kind == "GitLab" {
		return f.Base + "/-/commit/" + url.PathEscape(id)
	}
	return f.Base + "/commit/" + url.PathEscape(id)
}

// File is the web page of a file at revision rev (a commit id, for a link
// that keeps pointing at what the report saw), at line (1-based; 0 for the
// whole file) through end (0 when not a range). path is slash-separated,
// relative to the repository's root.
func (f Forge) File(rev, path string, line, end int) string {
	var b strings.Builder
	b.WriteString(f.Base)
	switch f.Kind {
	case "GitLab":
		b.WriteString("/-/blob/")
	case "Gitea":
		b.WriteString("/src/commit/")
	default:
		b.WriteString("/blob/")
	}
	b.WriteString(url.PathEscape(rev))
	for _, s := range strings.Split(path, "/") {
		b.WriteByte('/')
		b.WriteString(url.PathEscape(s))
	}
	if line > 0 {
		b.WriteString("#L" + strconv.Itoa(line))
		if end > line {
			if f.Kind == "GitLab" {
				b.WriteString("-" + strconv.Itoa(end))
			} else {
				b.WriteString("-L" + strconv.Itoa(end))
			}
		}
	}
	return b.String()
}
