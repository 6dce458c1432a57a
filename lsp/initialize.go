package lsp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// clientCaps is what planls adapts to per client (LSP 3.17 capabilities
// that change what is sent or the shape of an answer, and the client's
// process id), derived from initializeParams. A missing or malformed field
// takes the conservative value (the 3.0 shape).
type clientCaps struct {
	showMessage   bool // window.showMessage is declared (readyevidence.go)
	dynamicWatch  bool // workspace.didChangeWatchedFiles.dynamicRegistration
	configuration bool // the client answers workspace/configuration (3.6)
	lensRefresh   bool // workspace.codeLens.refreshSupport (3.16)
	inlayRefresh  bool // workspace.inlayHint.refreshSupport (3.17)
	// pullDiags: the client pulls diagnostics (textDocument.diagnostic,
	// 3.17) and can be told to pull again
	// (workspace.diagnostics.refreshSupport): open documents' diagnostics
	// are then answered (pulldiag.go), not pushed.
	pullDiags        bool
	relativePatterns bool // workspace.didChangeWatchedFiles.relativePatternSupport (3.17)
	// hoverPlain: textDocument.hover.contentFormat lists formats and
	// "markdown" is not among them (or comes after "plaintext").
	hoverPlain bool
	// flatSymbols: the client lacks
	// textDocument.documentSymbol.hierarchicalDocumentSymbolSupport, so
	// documentSymbol answers SymbolInformation[] (LSP 3.17 §documentSymbol).
	flatSymbols bool
	// commandsOnly: the client lacks
	// textDocument.codeAction.codeActionLiteralSupport, so codeAction
	// answers Command[] (LSP 3.17 §codeAction).
	commandsOnly bool
}

// initializeParams is LSP InitializeParams, the fields planls reads. It is
// declared here because go.lsp.dev/protocol v0.12.0 lacks the 3.17 fields
// (positionEncodings, inlay hints, relative patterns). encoding/json skips a
// field of the wrong type and decodes the rest, so one odd field (clients
// vary) loses only itself, never its siblings or the session.
type initializeParams struct {
	ProcessID             int                        `json:"processId"` // 0 when null or absent
	Trace                 string                     `json:"trace"`
	RootURI               string                     `json:"rootUri"`
	RootPath              string                     `json:"rootPath"`
	WorkspaceFolders      []protocol.WorkspaceFolder `json:"workspaceFolders"`
	InitializationOptions json.RawMessage            `json:"initializationOptions"`
	Capabilities          struct {
		General struct {
			PositionEncodings []string `json:"positionEncodings"`
		} `json:"general"`
		Window struct {
			ShowMessage json.RawMessage `json:"showMessage"`
		} `json:"window"`
		Workspace struct {
			Configuration         bool           `json:"configuration"`
			CodeLens              refreshSupport `json:"codeLens"`
			InlayHint             refreshSupport `json:"inlayHint"`
			Diagnostics           refreshSupport `json:"diagnostics"`
			DidChangeWatchedFiles struct {
				DynamicRegistration    bool `json:"dynamicRegistration"`
				RelativePatternSupport bool `json:"relativePatternSupport"`
			} `json:"didChangeWatchedFiles"`
		} `json:"workspace"`
		TextDocument struct {
			Hover struct {
				ContentFormat []string `json:"contentFormat"`
			} `json:"hover"`
			DocumentSymbol struct {
				Hierarchical bool `json:"hierarchicalDocumentSymbolSupport"`
			} `json:"documentSymbol"`
			CodeAction struct {
				Literal json.RawMessage `json:"codeActionLiteralSupport"`
			} `json:"codeAction"`
			Diagnostic json.RawMessage `json:"diagnostic"`
		} `json:"textDocument"`
	} `json:"capabilities"`
}

type refreshSupport struct {
	RefreshSupport bool `json:"refreshSupport"`
}

// decodeInitialize reads initialize's params and the client capabilities
// they declare.
func (s *server) decodeInitialize(raw json.RawMessage) (initializeParams, clientCaps) {
	var p initializeParams
	if err := decode(raw, &p); err != nil {
		s.log.Warn("initialize params partly ignored", "err", err)
	}
	pc, ws, td := &p.Capabilities, &p.Capabilities.Workspace, &p.Capabilities.TextDocument
	declared := func(raw json.RawMessage) bool { return len(raw) > 0 && string(raw) != "null" }
	c := clientCaps{
		showMessage:      declared(pc.Window.ShowMessage),
		dynamicWatch:     ws.DidChangeWatchedFiles.DynamicRegistration,
		configuration:    ws.Configuration,
		lensRefresh:      ws.CodeLens.RefreshSupport,
		inlayRefresh:     ws.InlayHint.RefreshSupport,
		relativePatterns: ws.DidChangeWatchedFiles.RelativePatternSupport,
		flatSymbols:      !td.DocumentSymbol.Hierarchical,
		commandsOnly:     !declared(td.CodeAction.Literal),
		pullDiags:        declared(td.Diagnostic) && ws.Diagnostics.RefreshSupport,
	}
	if formats := td.Hover.ContentFormat; len(formats) > 0 {
		md, plain := slices.Index(formats, "markdown"), slices.Index(formats, "plaintext")
		c.hoverPlain = md < 0 || (plain >= 0 && plain < md)
	}
	return p, c
}

// serverCapabilities extends v0.12.0's ServerCapabilities with 3.17's
// positionEncoding and inlayHintProvider (JSON flattens the embedded struct).
type serverCapabilities struct {
	PositionEncoding   string             `json:"positionEncoding"`
	InlayHintProvider  bool               `json:"inlayHintProvider"`
	DiagnosticProvider *diagnosticOptions `json:"diagnosticProvider,omitempty"`
	protocol.ServerCapabilities
}

type initializeResult struct {
	Capabilities serverCapabilities   `json:"capabilities"`
	ServerInfo   *protocol.ServerInfo `json:"serverInfo,omitempty"`
}

// commands are the workspace/executeCommand ids (docs/PROTOCOL.md). They are
// advertised once per server, never per folder.
var commands = []string{"planls.complete", "planls.defer", "planls.start", "planls.reopen", "planls.approve", "planls.todo"}

// Version is the server version reported in initialize's serverInfo.
var Version = "dev"

func (s *server) initialize(r *request) (any, error) {
	p, caps := s.decodeInitialize(r.params)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.phase() != created {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "initialize sent twice")
	}
	s.caps = caps
	if validTrace(p.Trace) {
		s.trace.Store(p.Trace)
	}
	s.watchClientProcess(p.ProcessID)
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
	s.state.Store(int32(initialized))
	s.publishView() // the client's capabilities, for the queries
	return initializeResult{
		Capabilities: serverCapabilities{
			PositionEncoding:   s.enc.String(),
			InlayHintProvider:  true,
			DiagnosticProvider: diagnosticProviderFor(caps),
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
	}, nil
}

// initializedNote starts watching: fsnotify at once, and through the client
// too when it offers dynamic registration of workspace/didChangeWatchedFiles
// (once the client accepts, fsnotify keeps only the state directories, see
// watch.go). Then it pulls the settings of every folder (config.go) when the
// client answers workspace/configuration.
func (s *server) initializedNote(r *request) (any, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.startFSWatch()
	if s.caps.dynamicWatch {
		s.grp.goFn(s.registerWatchers)
	}
	for _, f := range s.folders {
		s.reload(f, true)
	}
	s.pullReady = true
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
	if i := s.folderIndex(keyOf(p)); i >= 0 {
		return s.folders[i]
	}
	f := newFolder(p, u)
	s.folders = append(s.folders, f)
	s.pullSettings([]*folder{f})
	return f
}

// folderIndex is the index in s.folders of the folder whose key is k, or
// -1 (caller holds mu).
func (s *server) folderIndex(k string) int {
	return slices.IndexFunc(s.folders, func(f *folder) bool { return f.key == k })
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
	s.folders = append(s.folders, f)
	s.pullSettings([]*folder{f})
	s.rewatch()
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
