package lsp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// clientCaps is the part of ClientCapabilities planls acts on. It is decoded
// by hand because go.lsp.dev/protocol v0.12.0 lacks positionEncodings (3.17).
type clientCaps struct {
	General struct {
		PositionEncodings []string `json:"positionEncodings"`
	} `json:"general"`
	Window struct {
		ShowMessage *json.RawMessage `json:"showMessage"`
	} `json:"window"`
	Workspace struct {
		DidChangeWatchedFiles struct {
			DynamicRegistration bool `json:"dynamicRegistration"`
		} `json:"didChangeWatchedFiles"`
		CodeLens struct {
			RefreshSupport bool `json:"refreshSupport"`
		} `json:"codeLens"`
		// Configuration: the client answers workspace/configuration (3.6).
		Configuration lenientBool `json:"configuration"`
	} `json:"workspace"`
}

// initializeParams is LSP InitializeParams, the fields planls reads.
type initializeParams struct {
	RootURI               string                     `json:"rootUri"`
	RootPath              string                     `json:"rootPath"`
	WorkspaceFolders      []protocol.WorkspaceFolder `json:"workspaceFolders"`
	Capabilities          clientCaps                 `json:"capabilities"`
	InitializationOptions json.RawMessage            `json:"initializationOptions"`
}

// decodeInitialize decodes each field on its own so that one field of an
// unexpected shape (clients vary) loses only that field, never the session.
func (s *server) decodeInitialize(raw json.RawMessage) initializeParams {
	var p initializeParams
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		s.log.Warn("initialize params unreadable", "err", err)
		return p
	}
	var caps map[string]json.RawMessage
	_ = json.Unmarshal(fields["capabilities"], &caps)
	try := func(name string, data json.RawMessage, v any) {
		if len(data) == 0 {
			return
		}
		if err := json.Unmarshal(data, v); err != nil {
			s.log.Warn("initialize field ignored", "field", name, "err", err)
		}
	}
	try("rootUri", fields["rootUri"], &p.RootURI)
	try("rootPath", fields["rootPath"], &p.RootPath)
	try("workspaceFolders", fields["workspaceFolders"], &p.WorkspaceFolders)
	try("capabilities.general", caps["general"], &p.Capabilities.General)
	try("capabilities.window", caps["window"], &p.Capabilities.Window)
	try("capabilities.workspace", caps["workspace"], &p.Capabilities.Workspace)
	p.InitializationOptions = fields["initializationOptions"]
	return p
}

// serverCapabilities extends v0.12.0's ServerCapabilities with 3.17's
// positionEncoding and inlayHintProvider (JSON flattens the embedded struct).
type serverCapabilities struct {
	PositionEncoding  string `json:"positionEncoding"`
	InlayHintProvider bool   `json:"inlayHintProvider"`
	protocol.ServerCapabilities
}

type initializeResult struct {
	Capabilities serverCapabilities   `json:"capabilities"`
	ServerInfo   *protocol.ServerInfo `json:"serverInfo,omitempty"`
}

// commands are the workspace/executeCommand ids (docs/PROTOCOL.md). They are
// advertised once per server, never per folder (B27).
var commands = []string{"planls.complete", "planls.defer", "planls.start", "planls.reopen", "planls.approve", "planls.todo"}

// Version is the server version reported in initialize's serverInfo.
var Version = "dev"

func (s *server) initialize(r *request) (any, error) {
	p := s.decodeInitialize(r.params)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.state != created {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "initialize sent twice")
	}
	s.caps = p.Capabilities
	s.ecaps = decodeEditorCaps(r.params)
	s.watchClientProcess(s.ecaps.processID)
	if slices.Contains(p.Capabilities.General.PositionEncodings, "utf-8") {
		s.enc = utf8Enc
	}
	s.settings = parseSettings(p.InitializationOptions, defaultSettings(), s.log)
	for _, wf := range p.WorkspaceFolders {
		s.addFolder(wf.URI)
	}
	if len(p.WorkspaceFolders) == 0 {
		switch {
		case p.RootURI != "":
			s.addFolder(p.RootURI)
		case p.RootPath != "":
			s.addFolder(uriOf(p.RootPath))
		}
	}
	s.state = initialized
	res := initializeResult{
		Capabilities: serverCapabilities{
			PositionEncoding:  s.enc.String(),
			InlayHintProvider: true,
			ServerCapabilities: protocol.ServerCapabilities{
				TextDocumentSync: protocol.TextDocumentSyncOptions{
					OpenClose: true,
					Change:    protocol.TextDocumentSyncKindIncremental,
					Save:      &protocol.SaveOptions{IncludeText: false},
				},
				HoverProvider:           true,
				CodeActionProvider:      &protocol.CodeActionOptions{CodeActionKinds: advertisedKinds},
				CodeLensProvider:        &protocol.CodeLensOptions{},
				DocumentSymbolProvider:  true,
				WorkspaceSymbolProvider: true,
				ExecuteCommandProvider:  &protocol.ExecuteCommandOptions{Commands: commands},
				Workspace: &protocol.ServerCapabilitiesWorkspace{
					WorkspaceFolders: &protocol.ServerCapabilitiesWorkspaceFolders{
						Supported:           true,
						ChangeNotifications: true,
					},
				},
			},
		},
		ServerInfo: &protocol.ServerInfo{Name: "planls", Version: Version},
	}
	return res, nil
}

// initializedNote starts watching: fsnotify at once, and through the client
// too when it offers dynamic registration of workspace/didChangeWatchedFiles
// (once the client accepts, fsnotify keeps only the state directories, see
// watch.go). Then it pulls the settings of every folder (config.go) when the
// client answers workspace/configuration.
func (s *server) initializedNote(r *request) (any, error) {
	s.mu.Lock()
	dyn := s.caps.Workspace.DidChangeWatchedFiles.DynamicRegistration
	s.startFSWatch()
	s.mu.Unlock()
	if dyn {
		s.grp.goFn(s.registerWatchers)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, f := range s.folders {
		s.refresh(f, true)
	}
	s.pulls.ready = true
	s.pullSettings(s.folders)
	return nil, nil
}

// addFolder adds a workspace folder (caller holds mu) and, once the session
// is initialized, pulls its settings. Non-file URIs are logged and skipped.
func (s *server) addFolder(u string) *folder {
	p, err := fileOf(u)
	if err != nil {
		s.log.Warn("workspace folder skipped", "uri", u, "err", err)
		return nil
	}
	if abs, err := filepath.Abs(p); err == nil {
		p = abs
	}
	k := keyOf(p)
	for _, f := range s.folders {
		if f.key == k {
			return f
		}
	}
	f := newFolder(p, u)
	s.folders = append(s.folders, f)
	s.pullSettings([]*folder{f})
	return f
}

// folderFor returns the innermost folder holding path p (caller holds mu). A
// file outside every folder gets an implicit folder at the nearest ancestor
// holding .planls/ or .git/, else its own directory (single-file mode).
func (s *server) folderFor(p string, create bool) *folder {
	k := keyOf(p)
	var best *folder
	for _, f := range s.folders {
		if within(f.key, k) && (best == nil || len(f.key) > len(best.key)) {
			best = f
		}
	}
	if best != nil || !create {
		return best
	}
	root := implicitRoot(filepath.Dir(p))
	f := newFolder(root, uriOf(root))
	f.implicit = true
	s.folders = append(s.folders, f)
	s.pullSettings([]*folder{f})
	if s.watcher != nil {
		s.watcher.sync(s)
	}
	s.watchFoldersChanged()
	return f
}

func implicitRoot(dir string) string {
	for d := dir; ; {
		for _, marker := range []string{".planls", ".git"} {
			if _, err := os.Stat(filepath.Join(d, marker)); err == nil {
				return d
			}
		}
		parent := filepath.Dir(d)
		if parent == d {
			return dir
		}
		d = parent
	}
}
