package lsp

import (
	"errors"
	"fmt"
	"net/url"
	"path"
	"path/filepath"
	"runtime"
	"strings"
)

// errNotFile is returned for URIs whose scheme is not "file" (untitled:,
// git:, vscode-notebook-cell:, ...): planls only tracks files on disk. It
// replaces go.lsp.dev/uri's Filename, which panics on such URIs.
var errNotFile = errors.New("not a file: URI")

// uriToPath decodes a file URI into an OS path. windows selects Windows rules
// ("file:///c%3A/x" → `c:\x`, UNC hosts → `\\host\share`); the drive letter and
// every other byte keep the client's spelling so the path reaches the same file
// the CLI uses. Errors: errNotFile for another scheme, or a malformed URI.
func uriToPath(u string, windows bool) (string, error) {
	parsed, err := url.Parse(u)
	if err != nil {
		return "", fmt.Errorf("bad URI %q: %w", u, err)
	}
	if !strings.EqualFold(parsed.Scheme, "file") {
		return "", fmt.Errorf("%w: %q", errNotFile, u)
	}
	p := parsed.Path
	if p == "" && parsed.Opaque != "" {
		if p, err = url.PathUnescape(parsed.Opaque); err != nil {
			return "", fmt.Errorf("bad URI %q: %w", u, err)
		}
	}
	if !windows {
		if p == "" {
			return "", fmt.Errorf("bad URI %q: empty path", u)
		}
		return path.Clean(p), nil
	}
	if parsed.Host != "" && !strings.EqualFold(parsed.Host, "localhost") {
		return `\\` + parsed.Host + strings.ReplaceAll(path.Clean(p), "/", `\`), nil
	}
	// "/c:/x" → "c:/x"
	if len(p) >= 3 && p[0] == '/' && p[2] == ':' {
		p = p[1:]
	}
	p = path.Clean(p)
	if len(p) == 2 && p[1] == ':' {
		p += "/"
	}
	return strings.ReplaceAll(p, "/", `\`), nil
}

// pathToURI builds the file URI of an absolute OS path, percent-encoding what
// RFC 3986 requires. It is used only for files the client never named; a file
// the client opened is always published under the client's own URI.
func pathToURI(p string, windows bool) string {
	if windows {
		p = strings.ReplaceAll(p, `\`, "/")
		if len(p) >= 2 && p[1] == ':' {
			p = "/" + p
		}
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
}

// pathKey is the identity of a path inside the server: cleaned, and folded to
// lower case on Windows where the file system ignores case.
func pathKey(p string, windows bool) string {
	if windows {
		return strings.ToLower(strings.ReplaceAll(p, "/", `\`))
	}
	return path.Clean(p)
}

const isWindows = runtime.GOOS == "windows"

func fileOf(u string) (string, error) { return uriToPath(u, isWindows) }

func uriOf(p string) string { return pathToURI(filepath.Clean(p), isWindows) }

func keyOf(p string) string { return pathKey(filepath.Clean(p), isWindows) }

// within reports whether path p is root or inside it (both keys).
func within(rootKey, pKey string) bool {
	sep := string(filepath.Separator)
	return rootKey == pKey || strings.HasPrefix(pKey, strings.TrimSuffix(rootKey, sep)+sep)
}

// fileURI is the URI of p, a file inside f, spelled the way the client
// spells f's root: the client's folder URI, then p's path below the root,
// percent-encoded. Encoders differ on characters RFC 3986 allows either way
// (Neovim and node keep "*", Go writes "%2A"); a client that compares URIs
// as strings, or one whose buffer URI differs from ours only in spelling,
// must see the same URI for a file it has not opened as for one it has,
// or a clearing of one spelling can wipe the other's list. Paths
// outside f's root get uriOf.
func (f *folder) fileURI(p string) string {
	rel, err := filepath.Rel(f.root, filepath.Clean(p))
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return uriOf(p)
	}
	return strings.TrimSuffix(f.uri, "/") + "/" + (&url.URL{Path: filepath.ToSlash(rel)}).EscapedPath()
}
