package core

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/planls/planls/internal/lazy"
)

// RefKind is what a piece of evidence names (README "Evidence that names
// things").
type RefKind string

// The kinds of reference ParseEvidence recognises.
const (
	RefCommit  RefKind = "commit"  // a git commit id, 7–40 hex digits
	RefFile    RefKind = "file"    // a file path, optionally with a line
	RefTest    RefKind = "test"    // a test function, optionally with its file
	RefCommand RefKind = "command" // a command with the result it gave
	RefURL     RefKind = "url"     // an http(s) URL
)

// ExpectNonZero is EvidenceRef.Exit for a command whose stated result is a
// failure without a code ("fails", "2 failed").
const ExpectNonZero = -1

// EvidenceRef is one thing an evidence string names. Start and End are byte
// offsets into the evidence (End exclusive) of the whole reference as
// written, backticks included.
type EvidenceRef struct {
	Kind       RefKind
	Start, End int
	Text       string // evidence[Start:End]
	Backticked bool   // written inside backticks

	// Commit: the id as written, lower-cased.
	Commit string
	// File, and a test's file when it names one: the path as written
	// (backslashes kept, so a Windows path reads as typed). Line is 1-based,
	// 0 when none is given; EndLine is the end of a range (path:10-20),
	// else 0.
	Path          string
	Line, EndLine int
	// Test: the function name, with a subtest path when written
	// (TestParse/empty_input).
	Test string
	// Command: the command line (without backticks) and the stated result
	// text that followed it ("" when none). Exit is the exit status the
	// result states: 0 (passes, ok, N passed), a code ("exit 2"), or
	// ExpectNonZero ("fails").
	Command string
	Result  string
	Exit    int
	// URL: the address.
	URL string
}

// ParseEvidence lists what evidence names, in order of position: commits,
// file paths (with :line, :line:col, :from-to or #Lline), test names
// (TestFoo, pkg/foo_test.go:TestBar), commands with their stated result
// (`go test ./...` passes; npm test: 42 passed), and URLs. Backticked spans
// are read whole, so a path with spaces is written in backticks; outside
// them only ASCII tokens are read, so text in any language around them is
// skipped. Pure; never fails: text naming nothing gives nil.
func ParseEvidence(evidence string) []EvidenceRef {
	refs, _ := parseEvidence(evidence, false)
	return refs
}

// ParseEvidenceCandidates is ParseEvidence(evidence) and, apart, the
// tokens that could be a commit id though ParseEvidence does not read them
// as one: 7–40 hex digits outside backticks that are all digits (1234567)
// or all letters (deadbee) with no word like "commit" before them, so
// usually a number or a word. Each candidate is a RefCommit reference; it
// names a commit only when the repository has a commit whose id starts
// with it, which verification looks up (package verify: a short hash is
// all digits about 1 time in 27). Pure.
func ParseEvidenceCandidates(evidence string) (refs, candidates []EvidenceRef) {
	return parseEvidence(evidence, true)
}

// parseEvidence is ParseEvidence, and the commit candidates when asked.
func parseEvidence(evidence string, wantCandidates bool) (refs, candidates []EvidenceRef) {
	taken := make([]bool, len(evidence)) // bytes already part of a reference or a backtick span
	for _, sp := range backtickSpans(evidence) {
		mark(taken, sp.start, sp.end)
		if ref, ok := classifySpan(evidence, sp); ok {
			refs = append(refs, ref)
		}
	}
	for _, m := range urlRe().FindAllStringIndex(evidence, -1) {
		start, end := m[0], trimURLEnd(evidence, m[0], m[1])
		if anyTaken(taken, start, end) {
			continue
		}
		mark(taken, start, end)
		refs = append(refs, EvidenceRef{Kind: RefURL, Start: start, End: end, Text: evidence[start:end], URL: evidence[start:end]})
	}
	refs = append(refs, bareCommands(evidence, taken)...)
	for _, m := range tokenRe().FindAllStringIndex(evidence, -1) {
		start, end := m[0], trimTokenEnd(evidence, m[0], m[1])
		// ./... is a Go package pattern, never a file.
		if start >= end || strings.Contains(evidence[m[0]:m[1]], "...") || anyTaken(taken, start, end) {
			continue
		}
		ref, ok, candidate := classifyToken(evidence, start, end)
		if ok {
			mark(taken, start, end)
			refs = append(refs, ref)
		} else if candidate && wantCandidates {
			candidates = append(candidates, ref)
		}
	}
	slices.SortStableFunc(refs, func(a, b EvidenceRef) int { return cmp.Compare(a.Start, b.Start) })
	// A stated result runs up to the next reference at most:
	// "`go test` passes, abc1234" states "passes".
	for i := range refs {
		if refs[i].Kind != RefCommand {
			continue
		}
		next := len(evidence)
		if i+1 < len(refs) {
			next = refs[i+1].Start
		}
		refs[i].Result = statedResult(evidence[refs[i].End:next])
		refs[i].Exit = expectedExit(refs[i].Result)
	}
	return refs, candidates
}

// WeakEvidence reports whether non-blank evidence names nothing checkable:
// "done", "ok", "fixed", "works now". Such evidence still completes an item
// (rpiv-todo: any non-blank evidence does); planls warns about it
// (weak-evidence). Blank evidence is not weak: it is missing.
func WeakEvidence(evidence string) bool {
	return strings.TrimSpace(evidence) != "" && len(ParseEvidence(evidence)) == 0
}

// WeakEvidenceCode is the rule id of the weak-evidence warning in every
// view (diagnostic code, check rule, notice code).
const WeakEvidenceCode = "weak-evidence"

// WeakEvidenceMessage is the warning for task id completed with evidence
// that names nothing checkable. The evidence is quoted on one line.
func WeakEvidenceMessage(id int, evidence string) string {
	return "plan item #" + strconv.Itoa(id) + " is completed with weak evidence " + strconv.Quote(sanitize(evidence)) +
		": it names no commit, file, test, command with its result or URL that can be checked"
}

type span struct{ start, end int } // a backtick span's bytes, backticks included

// backtickSpans finds code spans as markdown writes them: a run of n
// backticks up to the next run of exactly n. An unclosed run is text. Runs
// are indexed by length first, so text full of unmatched runs stays linear.
func backtickSpans(s string) []span {
	type run struct{ at, n int }
	var runs []run
	for i := 0; i < len(s); {
		if s[i] != '`' {
			i++
			continue
		}
		n := runLen(s, i)
		runs = append(runs, run{i, n})
		i += n
	}
	byLen := map[int][]int{} // run length → indexes into runs, in order
	for k, r := range runs {
		byLen[r.n] = append(byLen[r.n], k)
	}
	next := map[int]int{} // run length → position in byLen of the next candidate
	var out []span
	for k := 0; k < len(runs); k++ {
		r := runs[k]
		list := byLen[r.n]
		for next[r.n] < len(list) && list[next[r.n]] <= k {
			next[r.n]++
		}
		if next[r.n] == len(list) {
			continue // unclosed: text
		}
		closer := list[next[r.n]]
		out = append(out, span{r.at, runs[closer].at + r.n})
		k = closer // runs inside the span are its content
	}
	return out
}

func runLen(s string, i int) int {
	n := 0
	for i+n < len(s) && s[i+n] == '`' {
		n++
	}
	return n
}

// classifySpan reads one backtick span: a URL, a commit, a test, a path, or
// else a command (with the result stated after it).
func classifySpan(s string, sp span) (EvidenceRef, bool) {
	n := runLen(s, sp.start)
	inner := strings.TrimSpace(s[sp.start+n : sp.end-n])
	ref := EvidenceRef{Start: sp.start, End: sp.end, Text: s[sp.start:sp.end], Backticked: true}
	if inner == "" {
		return ref, false
	}
	if !strings.ContainsAny(inner, " \t") {
		if r, ok := classifyWord(inner, true); ok {
			r.Start, r.End, r.Text, r.Backticked = ref.Start, ref.End, ref.Text, true
			return r, true
		}
	} else if looksLikeSpacedPath(inner) {
		if r, ok := classifyPath(inner, true); ok {
			r.Start, r.End, r.Text, r.Backticked = ref.Start, ref.End, ref.Text, true
			return r, true
		}
	}
	if !isCommandLine(inner) {
		return ref, false
	}
	ref.Kind, ref.Command = RefCommand, inner
	ref.Result = statedResult(s[sp.end:])
	ref.Exit = expectedExit(ref.Result)
	return ref, true
}

// isCommandLine reports whether backticked text reads as a command: several
// words, or one known tool, or a script path (./x, x.sh).
func isCommandLine(inner string) bool {
	fields := strings.Fields(inner)
	if len(fields) == 0 {
		return false
	}
	if len(fields) > 1 {
		return true
	}
	w := fields[0]
	return knownTools[w] || strings.HasPrefix(w, "./") || strings.HasSuffix(w, ".sh")
}

// statedResult is the result written after a command: up to the end of the
// clause (a sentence end, ';', a newline or the next backtick), without a
// leading ':', '→', '->', '=>', '—', '-' or ','.
func statedResult(rest string) string {
	r := strings.TrimLeft(rest, " \t")
	for _, sep := range []string{":", "→", "->", "=>", "—", "–", "-", ","} {
		if strings.HasPrefix(r, sep) {
			r = r[len(sep):]
			break
		}
	}
	r = strings.TrimLeft(r, " \t")
	end := len(r)
	for i := 0; i < len(r); i++ {
		c := r[i]
		if c == ';' || c == '\n' || c == '`' || (c == '.' && (i+1 == len(r) || r[i+1] == ' ')) {
			end = i
			break
		}
	}
	if i := strings.Index(r[:end], "。"); i >= 0 {
		end = i
	}
	return strings.TrimRight(strings.TrimSpace(r[:end]), ",:")
}

var (
	exitCodeRe  = lazy.Regexp(`(?i)\bexit(?:s|ed)?(?:\s+with)?(?:\s+(?:status|code))?\s*(?:=|:)?\s*(\d+)`)
	failCountRe = lazy.Regexp(`(?i)\b(\d+)\s+(?:failed|failures?|failing|errors?)\b`)
	failWordRe  = lazy.Regexp(`(?i)\b(?:fail|fails|failed|failing|non-?zero)\b`)
)

// expectedExit reads the exit status a stated result claims (see
// EvidenceRef.Exit): an explicit code wins, then failure counts ("0 failed"
// is a success), then failure words; anything else claims success.
func expectedExit(result string) int {
	if m := exitCodeRe().FindStringSubmatch(result); m != nil {
		if n, err := strconv.Atoi(m[1]); err == nil {
			return n
		}
	}
	counted := false
	for _, m := range failCountRe().FindAllStringSubmatch(result, -1) {
		counted = true
		if m[1] != "0" && strings.TrimLeft(m[1], "0") != "" {
			return ExpectNonZero
		}
	}
	if !counted && failWordRe().MatchString(result) {
		return ExpectNonZero
	}
	return 0
}

// knownTools are first words that make a clause a command even without
// backticks ("npm test: 42 passed", rpiv-todo's example).
// commandArgs reports whether a clause that starts with a known tool reads
// as a command line: its second word is a common subcommand, or a word is
// an option (-x) or a path (./..., a/b), so "go is great" is not one.
func commandArgs(clause string) bool {
	f := strings.Fields(trimSentenceEnd(clause))
	if len(f) < 2 {
		return false
	}
	if subcommands[f[1]] {
		return true
	}
	return slices.ContainsFunc(f[1:], func(w string) bool { return strings.HasPrefix(w, "-") || strings.Contains(w, "/") })
}

// trimSentenceEnd drops trailing spaces and a sentence's final '.' or '!'
// (not the dots of "./...").
func trimSentenceEnd(s string) string {
	s = strings.TrimRight(s, " \t")
	if strings.HasSuffix(s, "!") || (strings.HasSuffix(s, ".") && !strings.HasSuffix(s, "..")) {
		s = s[:len(s)-1]
	}
	return strings.TrimRight(s, " \t")
}

// subcommands are second words that make "<tool> <word>" a command line.
var subcommands = map[string]bool{
	"test": true, "build": true, "vet": true, "run": true, "lint": true, "check": true, "install": true,
	"ci": true, "fmt": true, "tidy": true, "verify": true, "typecheck": true, "e2e": true, "all": true,
}

// resultWords end a bare command clause as its result ("go build ok").
var resultWords = map[string]bool{
	"ok": true, "pass": true, "passes": true, "passed": true, "passing": true, "clean": true, "green": true,
	"succeeds": true, "succeeded": true, "fails": true, "failed": true, "failing": true, "works": true,
}

var knownTools = map[string]bool{
	"go": true, "gofmt": true, "staticcheck": true, "golangci-lint": true, "npm": true, "npx": true,
	"pnpm": true, "yarn": true, "node": true, "deno": true, "bun": true, "tsc": true, "eslint": true,
	"prettier": true, "jest": true, "vitest": true, "make": true, "cmake": true, "ctest": true,
	"ninja": true, "bazel": true, "cargo": true, "rustc": true, "pytest": true, "python": true,
	"python3": true, "tox": true, "ruff": true, "mypy": true, "flake8": true, "mvn": true,
	"gradle": true, "./gradlew": true, "dotnet": true, "bundle": true, "rake": true, "rspec": true,
	"mix": true, "phpunit": true, "composer": true, "swift": true, "xcodebuild": true, "git": true,
	"docker": true, "kubectl": true, "terraform": true, "helm": true, "planls": true, "sh": true,
	"bash": true, "shellcheck": true, "curl": true, "nvim": true,
}

// clauseSepRe ends a clause of evidence: a ';', a newline, a sentence
// end or a comma followed by a space, or their full-width forms.
var clauseSepRe = lazy.Regexp(`;|\n|\.\s|,\s|。|，|；`)

// clauses are the byte ranges between clause separators.
func clauses(s string) [][2]int {
	var out [][2]int
	at := 0
	for _, m := range clauseSepRe().FindAllStringIndex(s, -1) {
		if s[m[0]] == '.' && m[0] > 0 && s[m[0]-1] == '.' {
			continue // the end of "./... ", not of a sentence
		}
		out = append(out, [2]int{at, m[0]})
		at = m[1]
	}
	return append(out, [2]int{at, len(s)})
}

// bareCommands finds commands written without backticks: a clause whose
// first word is a known tool followed by a result after ':', '→' or '->'
// ("npm test: 42 passed", "go vet ./... → clean").
func bareCommands(s string, taken []bool) []EvidenceRef {
	var out []EvidenceRef
	for _, c := range clauses(s) {
		start, end := c[0], c[1]
		for start < end && (s[start] == ' ' || s[start] == '\t') {
			start++
		}
		clause := s[start:end]
		first := clause
		if i := strings.IndexAny(clause, " :"); i >= 0 {
			first = clause[:i]
		}
		if !knownTools[first] || anyTaken(taken, start, start+len(first)) {
			continue
		}
		cut, sepLen := -1, 0
		for _, sep := range []string{": ", " → ", " -> ", " => "} {
			if i := strings.Index(clause, sep); i > 0 && (cut < 0 || i < cut) {
				cut, sepLen = i, len(sep)
			}
		}
		if cut < 0 {
			// "go build ok", "make test passes": the result is the last word.
			if i := strings.LastIndexByte(strings.TrimRight(clause, " \t.!"), ' '); i > 0 &&
				resultWords[strings.ToLower(strings.Trim(clause[i+1:], " \t.!"))] {
				cut, sepLen = i, 1
			}
		}
		if cut < 0 && commandArgs(clause) {
			// "go test ./...", "npm test": a command line with no result
			// stated, read as run and passing.
			cmdEnd := start + len(trimSentenceEnd(clause))
			if !anyTaken(taken, start, cmdEnd) {
				mark(taken, start, cmdEnd)
				out = append(out, EvidenceRef{Kind: RefCommand, Start: start, End: cmdEnd, Text: s[start:cmdEnd],
					Command: s[start:cmdEnd]})
			}
			continue
		}
		if cut < 0 || anyTaken(taken, start, start+cut) {
			continue
		}
		result := statedResult(clause[cut+sepLen:])
		if result == "" {
			continue
		}
		cmdEnd := start + cut
		mark(taken, start, cmdEnd)
		out = append(out, EvidenceRef{Kind: RefCommand, Start: start, End: cmdEnd, Text: s[start:cmdEnd],
			Command: strings.TrimSpace(clause[:cut]), Result: result, Exit: expectedExit(result)})
	}
	return out
}

// DriveRe returns the regexp of a Windows drive at the start of a path (C:\ or c:/),
// compiled on first use.
var DriveRe = lazy.Regexp(`^[A-Za-z]:[\\/]`)

var (
	urlRe = lazy.Regexp(`https?://[^\s<>"'` + "`" + `]+`)
	// tokenRe is an ASCII word that may be a path, a commit or a test name.
	tokenRe = lazy.Regexp(`[A-Za-z0-9_.\-/\\:~@+#]+`)
	hexRe   = lazy.Regexp(`^[0-9a-fA-F]{7,40}$`)
	testRe  = lazy.Regexp(`^(?:Test|Benchmark|Fuzz|Example)(?:[A-Z0-9_][A-Za-z0-9_]*)?(?:/[^\s/]+)*$`)
	lineRe  = lazy.Regexp(`(?::(\d+)(?:[:-](\d+))?|#L(\d+)(?:-L?(\d+))?)$`)
	extRe   = lazy.Regexp(`\.([A-Za-z][A-Za-z0-9]{0,9})$`)
)

// trimURLEnd drops sentence punctuation and an unbalanced ')' after a URL.
func trimURLEnd(s string, start, end int) int {
	for end > start {
		c := s[end-1]
		if strings.IndexByte(".,;:!?'\"", c) >= 0 {
			end--
			continue
		}
		if c == ')' && strings.Count(s[start:end], "(") < strings.Count(s[start:end], ")") {
			end--
			continue
		}
		break
	}
	return end
}

// trimTokenEnd drops sentence punctuation after a token.
func trimTokenEnd(s string, start, end int) int {
	for end > start && strings.IndexByte(".:#-", s[end-1]) >= 0 {
		end--
	}
	return end
}

// classifyToken reads one ASCII token outside backticks. A commit id must
// mix digits and letters unless a word like "commit" stands before it, so
// a number or a word such as "defaced" is not read as one: such a token
// is not ok but a candidate, returned as the commit reference it would be
// (ParseEvidenceCandidates).
func classifyToken(s string, start, end int) (ref EvidenceRef, ok, candidate bool) {
	if start > 0 && (s[start-1] >= 0x80) {
		// Glued to a non-ASCII word (邮件abc1234): a token may still follow
		// CJK text directly, which writes no spaces.
		if r, _ := utf8.DecodeLastRuneInString(s[:start]); !cjkRune(r) {
			return EvidenceRef{}, false, false
		}
	}
	if r, _ := utf8.DecodeRuneInString(s[end:]); end < len(s) && s[end] >= 0x80 && !cjkRune(r) {
		return EvidenceRef{}, false, false
	}
	word := s[start:end]
	if hexRe().MatchString(word) && !MixedHex(word) && !commitWordBefore(s[:start]) {
		return EvidenceRef{Kind: RefCommit, Start: start, End: end, Text: word, Commit: strings.ToLower(word)}, false, true
	}
	ref, ok = classifyWord(word, false)
	if ok {
		ref.Start, ref.End, ref.Text = start, end, word
	}
	return ref, ok, false
}

// classifyWord reads one word (no spaces) as a commit, a test, a test in a
// file, or a path. loose (inside backticks) accepts any path with a
// separator and all-letter or all-digit commit ids.
func classifyWord(w string, loose bool) (EvidenceRef, bool) {
	if hexRe().MatchString(w) {
		return EvidenceRef{Kind: RefCommit, Commit: strings.ToLower(w)}, true
	}
	if strings.HasPrefix(w, "http://") || strings.HasPrefix(w, "https://") {
		return EvidenceRef{Kind: RefURL, URL: w}, true
	}
	if testRe().MatchString(w) {
		return EvidenceRef{Kind: RefTest, Test: w}, true
	}
	// pkg/foo_test.go:TestBar, foo_test.go::TestBar, foo_test.go#TestBar
	for _, sep := range []string{"::", ":", "#"} {
		if file, name, ok := strings.Cut(w, sep); ok && testRe().MatchString(name) && strings.HasSuffix(file, ".go") {
			return EvidenceRef{Kind: RefTest, Test: name, Path: file}, true
		}
	}
	return classifyPath(w, loose)
}

// classifyPath reads a path with an optional line suffix. Outside
// backticks a path needs an extension, a leading ./ ../ / ~/, a drive
// letter or a trailing separator, so "and/or" and "e.g." are not paths.
func classifyPath(w string, loose bool) (EvidenceRef, bool) {
	ref := EvidenceRef{Kind: RefFile}
	p := w
	if m := lineRe().FindStringSubmatchIndex(w); m != nil && m[0] > 0 {
		a, b := groupAt(w, m, 1), groupAt(w, m, 2)
		if a == "" {
			a, b = groupAt(w, m, 3), groupAt(w, m, 4)
		}
		ref.Line, _ = strconv.Atoi(a)
		if b != "" && strings.Contains(w[m[0]:], "-") {
			ref.EndLine, _ = strconv.Atoi(b)
		}
		p = w[:m[0]]
	}
	if p == "" || strings.Contains(p, "://") || strings.Contains(p, "...") || strings.ContainsAny(p, "|&;<>$*?\"'") {
		return EvidenceRef{}, false
	}
	ref.Path = p
	hasSep := strings.ContainsAny(p, `/\`)
	rooted := DriveRe().MatchString(p) || strings.HasPrefix(p, "./") || strings.HasPrefix(p, "../") ||
		strings.HasPrefix(p, `.\`) || strings.HasPrefix(p, `..\`) || strings.HasPrefix(p, "~/") ||
		(strings.HasPrefix(p, "/") && len(p) > 1)
	ext := extRe().FindStringSubmatch(p)
	base := p[strings.LastIndexAny(p, `/\`)+1:]
	switch {
	case rooted, hasSep && strings.HasSuffix(p, "/") && len(p) > 1:
	case hasSep && ext != nil && len(base) > len(ext[0]):
	case hasSep && loose && !strings.HasPrefix(p, "-"):
	case !hasSep && knownFileNames[base]:
	case !hasSep && ext != nil && len(base) > len(ext[0]) && fileExts[strings.ToLower(ext[1])] && !techName(base):
	default:
		return EvidenceRef{}, false
	}
	if strings.Count(p, ".") == len(p) || strings.HasPrefix(base, "-") {
		return EvidenceRef{}, false
	}
	return ref, true
}

func groupAt(s string, m []int, g int) string {
	if m[2*g] < 0 {
		return ""
	}
	return s[m[2*g]:m[2*g+1]]
}

// looksLikeSpacedPath reports whether backticked text with spaces is a
// path (docs/Design Notes.md, C:\Users\Me\My Project\main.go:12) rather
// than a command: it has a separator, its last part has an extension, no
// word is an option or a known tool, and no shell syntax appears.
func looksLikeSpacedPath(inner string) bool {
	if !strings.ContainsAny(inner, `/\`) || strings.ContainsAny(inner, "|&;<>$=\"'") {
		return false
	}
	fields := strings.Fields(inner)
	if knownTools[fields[0]] {
		return false
	}
	for _, f := range fields {
		if strings.HasPrefix(f, "-") {
			return false
		}
	}
	p := lineRe().ReplaceAllString(inner, "")
	base := p[strings.LastIndexAny(p, `/\`)+1:]
	return extRe().MatchString(base) || DriveRe().MatchString(inner)
}

// fileExts are extensions that make a bare name (no directory) a file.
var fileExts = map[string]bool{
	"go": true, "mod": true, "sum": true, "md": true, "markdown": true, "txt": true, "txtar": true,
	"json": true, "jsonl": true, "yaml": true, "yml": true, "toml": true, "ini": true, "cfg": true,
	"conf": true, "xml": true, "html": true, "css": true, "scss": true, "js": true, "mjs": true,
	"cjs": true, "ts": true, "tsx": true, "jsx": true, "vue": true, "svelte": true, "py": true,
	"rb": true, "rs": true, "c": true, "h": true, "cc": true, "cpp": true, "hpp": true, "java": true,
	"kt": true, "swift": true, "m": true, "cs": true, "fs": true, "php": true, "lua": true, "sh": true,
	"bash": true, "zsh": true, "ps1": true, "bat": true, "sql": true, "proto": true, "graphql": true,
	"lock": true, "csv": true, "tsv": true, "svg": true, "png": true, "jpg": true, "gif": true,
	"pdf": true, "rst": true, "adoc": true, "tex": true, "el": true, "vim": true, "ex": true,
	"exs": true, "erl": true, "hs": true, "ml": true, "scala": true, "clj": true, "dart": true,
	"r": true, "pl": true, "tf": true, "nix": true, "dockerfile": true, "env": true, "gradle": true,
	"properties": true, "plist": true, "patch": true, "diff": true, "log": true,
}

// knownFileNames are extensionless names that are files.
var knownFileNames = map[string]bool{
	"Makefile": true, "Dockerfile": true, "LICENSE": true, "Jenkinsfile": true, "Gemfile": true,
	"Rakefile": true, "Procfile": true, "Vagrantfile": true, "CODEOWNERS": true, "Containerfile": true,
}

// techName reports a product name written like a file: Node.js, Vue.js.
func techName(base string) bool {
	return strings.HasSuffix(base, ".js") && base[0] >= 'A' && base[0] <= 'Z'
}

// MixedHex reports whether a hex word has both a digit and a letter:
// evidence reads a commit id written alone as one only then (an
// all-digit or all-letter id needs the word "commit" before it).
func MixedHex(w string) bool {
	return strings.ContainsAny(w, "0123456789") && strings.ContainsAny(strings.ToLower(w), "abcdef")
}

// commitWordBefore reports whether the text before a token ends with a
// word that announces a commit ("commit", "sha", "rev", "提交").
func commitWordBefore(before string) bool {
	// Only the end matters; lower-casing all of a long evidence string for
	// each token would make a huge one quadratic.
	if len(before) > 32 {
		before = before[len(before)-32:]
	}
	b := strings.ToLower(strings.TrimRight(before, " \t:#"))
	return slices.ContainsFunc([]string{"commit", "commits", "sha", "rev", "revision", "hash", "提交", "コミット"},
		func(w string) bool { return strings.HasSuffix(b, w) })
}

// cjkRune reports whether c is CJK (or full-width punctuation), text that
// writes no spaces between words.
func cjkRune(c rune) bool {
	return (c >= 0x2E80 && c <= 0x9FFF) || (c >= 0xAC00 && c <= 0xD7AF) || (c >= 0xF900 && c <= 0xFAFF) ||
		(c >= 0xFF00 && c <= 0xFFEF) || (c >= 0x3000 && c <= 0x303F)
}

func anyTaken(taken []bool, start, end int) bool {
	for i := start; i < end; i++ {
		if taken[i] {
			return true
		}
	}
	return false
}

func mark(taken []bool, start, end int) {
	for i := start; i < end; i++ {
		taken[i] = true
	}
}
