// The roots feature is deprecated from protocol 2026-07-28 on (SEP-2577) but
// stays for at least a year, and it is how current clients (Claude Code, VS
// Code) say which workspace they run in, so this file uses it on purpose.
//
//lint:file-ignore SA1019 client roots locate the project of a server started outside it

package mcp

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/planls/planls/store"
)

// rootsTimeout bounds the wait for a client's answer to roots/list, so a
// client that never answers costs one slow first call, not a hung session.
const rootsTimeout = 3 * time.Second

// rootsInputKey names the roots/list input request of a multi round-trip
// tools/call (SEP-2322); the client echoes it in inputResponses.
const rootsInputKey = "planls-roots"

// protocolMRTR is the first protocol version where a server may not send
// roots/list itself and must ask through the tool result's inputRequests.
const protocolMRTR = "2026-07-28"

// rootError is the in-band error of a call made before a project root is
// known. It names every place looked so the user can fix
// the server's configuration instead of finding an empty store.
type rootError struct{ looked []string }

// Each place is named once, with what was found there.
func (e *rootError) Error() string {
	return "no planls project found: " + strings.Join(e.looked, ", ") +
		". Start the server with --root DIR, set PLANLS_ROOT, or start it inside a project"
}

// fixedRoot applies the two sources that need no client: the --root flag,
// then $PLANLS_ROOT. decided is false when neither is set.
func fixedRoot(flagRoot string) (root string, decided bool, err error) {
	if flagRoot == "" && os.Getenv("PLANLS_ROOT") == "" {
		return "", false, nil
	}
	root, err = store.FindRoot(flagRoot, workDir())
	if err != nil {
		return "", true, &rootError{looked: []string{err.Error()}} // names --root or $PLANLS_ROOT and the value
	}
	return root, true, nil
}

// rootFromClient picks the project from the client's roots (file:// URIs
// only), else the nearest project above the working directory. note says
// what the client answered, for the error. It never falls back to an
// unrelated directory: with nothing found it returns a *rootError.
func rootFromClient(roots []*sdk.Root, note string) (string, error) {
	var uris []string
	for _, r := range roots {
		if r == nil {
			continue
		}
		uris = append(uris, r.URI)
		dir, ok := fileURIPath(r.URI)
		if !ok {
			continue
		}
		if dir == string(filepath.Separator) {
			// A client rooted at "/" named no project; state there would be
			// the "all tasks vanished" store of a server started in the wrong directory.
			note += " (/ skipped)"
			continue
		}
		// A client root is usually the project itself; when it is a folder
		// inside one, the project above it wins so every client of the same
		// repository shares one state file.
		if root, err := store.FindRoot("", dir); err == nil {
			return root, nil
		}
		root, err := store.FindRoot(dir, dir)
		if err == nil {
			return root, nil
		}
		note = fmt.Sprintf("%s (%s: %v)", note, dir, err)
	}
	if note == "" {
		if len(uris) == 0 {
			note = "(client sent an empty list)"
		} else {
			note = "[" + strings.Join(uris, ", ") + "]"
		}
	}
	looked := []string{"--root not given", "$PLANLS_ROOT not set", "MCP roots " + note}
	cwd := workDir()
	root, err := store.FindRoot("", cwd)
	var none *store.NoRootError
	switch {
	case errors.As(err, &none):
		looked = append(looked, fmt.Sprintf("and no %s/ or .git in the working directory %s or above it", store.DirName, none.Looked[0]))
		return "", &rootError{looked: looked}
	case err != nil:
		looked = append(looked, fmt.Sprintf("and the working directory %s: %v", cwd, err))
		return "", &rootError{looked: looked}
	}
	return root, nil
}

// askRoots sends roots/list on a session of a protocol before 2026-07-28
// (newer ones go through inputRequests). A client without roots support
// answers with an error, which only means "no roots".
func askRoots(ctx context.Context, ss *sdk.ServerSession) ([]*sdk.Root, string) {
	ctx, cancel := context.WithTimeout(ctx, rootsTimeout)
	defer cancel()
	res, err := ss.ListRoots(ctx, nil)
	if err != nil {
		return nil, fmt.Sprintf("(client gave none: %v)", err)
	}
	return res.Roots, ""
}

// offersRoots reports whether the client declared the roots capability in
// initialize (MCP "Roots": servers ask only clients that offer it).
func offersRoots(ss *sdk.ServerSession) bool {
	p := ss.InitializeParams()
	return p != nil && p.Capabilities != nil && p.Capabilities.RootsV2 != nil
}

// usesInputRequests reports whether the session's protocol forbids
// server-initiated requests (SEP-2322), as the SDK decides it.
func usesInputRequests(ss *sdk.ServerSession) bool {
	p := ss.InitializeParams()
	return p == nil || p.ProtocolVersion >= protocolMRTR
}

func workDir() string {
	cwd, err := os.Getwd()
	if err != nil {
		return "(unknown working directory)"
	}
	return cwd
}

// fileURIPath turns a file:// URI into a clean absolute local path; other
// schemes, remote hosts and relative paths are not local directories and
// give false.
func fileURIPath(uri string) (string, bool) {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" || (u.Host != "" && u.Host != "localhost") {
		return "", false
	}
	p := filepath.FromSlash(u.Path)
	if !filepath.IsAbs(p) {
		return "", false
	}
	return filepath.Clean(p), true
}

// rootFor returns the session's workspace root, resolving it on first use
// (client roots need an initialized session, so it cannot happen earlier).
// On a 2026-07-28 session the roots come through the multi round-trip of
// SEP-2322: ask is then the input-required result to return, and the
// client retries the call with the answer. A failure is not cached: the
// user may fix it while the session lives.
func (h *handler) rootFor(ctx context.Context, req *sdk.CallToolRequest) (root string, ask *sdk.CallToolResult, err error) {
	ss := req.Session
	h.rootsMu.Lock()
	root, ok := h.roots[ss]
	h.rootsMu.Unlock()
	if ok {
		return root, nil, nil
	}
	root, decided, err := fixedRoot(h.opts.Root)
	if !decided {
		var roots []*sdk.Root
		var note string
		switch {
		case ss == nil:
			note = "(no session)"
		case !offersRoots(ss):
			// Asking a client that declared no roots capability only waits
			// out rootsTimeout on every first call.
			note = "(the client offers no roots)"
		case usesInputRequests(ss):
			answer, asked := req.Params.InputResponses[rootsInputKey]
			if !asked {
				return "", &sdk.CallToolResult{InputRequests: sdk.InputRequestMap{rootsInputKey: &sdk.ListRootsParams{}}}, nil
			}
			if lr, ok := answer.(*sdk.ListRootsResult); ok && lr != nil {
				roots = lr.Roots
			} else {
				note = "(client gave none)"
			}
		default:
			roots, note = askRoots(ctx, ss)
		}
		root, err = rootFromClient(roots, note)
	}
	if err != nil {
		return "", nil, err
	}
	h.rootsMu.Lock()
	h.roots[ss] = root
	h.rootsMu.Unlock()
	h.log.Info("project root", "root", root)
	return root, nil, nil
}

// rootsChanged forgets a session's root so the next call asks again.
func (h *handler) rootsChanged(_ context.Context, req *sdk.RootsListChangedRequest) {
	h.rootsMu.Lock()
	delete(h.roots, req.Session)
	h.rootsMu.Unlock()
}

// trackRoots makes the server forget a session's root when the client
// says its roots changed.
func (h *handler) trackRoots(so *sdk.ServerOptions) { so.RootsListChangedHandler = h.rootsChanged }
