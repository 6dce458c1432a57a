package core

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/planls/planls/planparse"
)

// Analysis is what is wrong with a plan, computed once from the state and
// the plan file: the parsed plan, every plan item matched to its task, the
// plan-level facts and one list of findings for every rule. The language
// server, `planls check` (each format), `status`, `verify`, the stop hook
// and the sidebars render it; none of them decides a rule of its own. It
// is immutable once Analyze returns.
type Analysis struct {
	State *State
	// Src is the plan file's bytes (nil when Exists is false); every byte
	// range of Items and Findings is into it.
	Src    []byte
	Exists bool
	Plan   *planparse.Plan // parsed Src: an empty plan titled "plan" when there is no file
	// Approved: the state has an approved plan. NeedsReapproval: Src is not
	// the approved plan's bytes. TextDrift: Src differs from the approved
	// plan only outside its items (every item the same, none missing).
	Approved, NeedsReapproval, TextDrift bool
	// Items are the plan items of Src in document order, then the approved
	// items missing from it (ordered by id).
	Items    []Item
	Findings []Finding
	// Open and Total count plan items as the sidebars do: the open tracked
	// items, and every tracked item (or, before approval, every draft).
	Open, Total int

	tasks    map[int]*Task
	byTask   map[int]int // task id → index into Items (the first)
	memo     *memo
	verdicts map[int]Verdict // Input.Verdicts
	// kept is how many items at the start and at the end are those of the
	// analysis before, with the same texts and tasks (subjects).
	kept [2]int
}

// Item is one plan item of the file, or an approved plan item missing from
// it.
type Item struct {
	Plan *planparse.Item // nil for an approved item missing from the file
	Task *Task           // nil for a draft (no approved plan) or a new item
	// Drift relates the item to the approved plan.
	Drift Drift
	// Subject is what people read: the file's item (its whole first
	// paragraph, planparse.Display) or, when missing, the approved one.
	Subject string
	// TaskSubject is the approved item's subject as people read it (""
	// without a task): what the findings about its status quote.
	TaskSubject string
}

// Drift says how an item of the file relates to the approved plan.
type Drift string

// The drift of an item, and DriftText for a plan-drift finding about an
// edit outside every item.
const (
	DriftSame    Drift = "same"
	DriftChanged Drift = "changed"
	DriftNew     Drift = "new" // not in the approved plan (every item before approval)
	DriftMissing Drift = "missing"
	DriftText    Drift = "text"
)

// Severity is a finding's severity; its values are LSP's
// DiagnosticSeverity numbers.
type Severity int

// Severities, most severe first.
const (
	SeverityError Severity = iota + 1
	SeverityWarning
	SeverityInfo
	SeverityHint
)

// Rule ids: the LSP diagnostic code, the `planls check` rule (json rule,
// SARIF ruleId, GitHub title) and the hook's wording all use them.
const (
	RuleOpen         = "open-item"
	RuleInProgress   = "in-progress"
	RuleBlocked      = "blocked"
	RuleNotApproved  = "plan-not-approved"
	RuleDrift        = "plan-drift"
	RuleEmpty        = planparse.CodeEmptyItem
	RuleDuplicate    = planparse.CodeDuplicateItem
	RuleStateInvalid = "state-invalid"
	RuleNoProof      = "closed-without-proof"
	RuleWeak         = WeakEvidenceCode
	RuleFailed       = "evidence-failed"
	RuleUnverifiable = "evidence-unverifiable"
	RuleVerified     = "evidence-verified"
	// RuleTicked is declared with its message (ticked.go).
)

// Finding is one thing wrong with the plan.
type Finding struct {
	Rule     string
	Severity Severity
	TaskID   int // the plan item it is about; 0 for the plan as a whole
	Item     int // index into Analysis.Items; -1 for the plan as a whole
	// Range is where it is, in bytes of Analysis.Src: the item's subject
	// line (planparse.Item.Line), the parser's problem, the title line for
	// the plan as a whole, and for an approved item no longer in the file
	// (Gone) an empty range where it used to be (goneRanges), or the title
	// when no item of the approved plan is left in the file or there is no
	// file.
	Range   planparse.Range
	Gone    bool   // about an item that is not in the plan file
	Message string // the finding's text in every rendering
	// Drift is the kind of a plan-drift finding.
	Drift Drift
	// Blockers are the open plan items that block a blocked item.
	Blockers []int
}

// Verdict is the verification of one completed item's evidence (package
// verify): State is "verified", "unverifiable" or "failed"; Reason says
// why for the last two, Held what was found for a verified item.
type Verdict struct {
	State  string
	Reason string
	Held   []string
}

// Input is what Analyze reads. State nil reads as Empty(); StateErr is why
// the state file cannot be used (the last good State still applies); Src
// is the plan file (Exists false: there is none); Verdicts, when set, is
// the verification of completed items by id; Prev, when set, is the
// analysis of the same folder before this change, whose per-text results
// are reused.
type Input struct {
	State    *State
	StateErr string
	Src      []byte
	Exists   bool
	Verdicts map[int]Verdict
	Prev     *Analysis
}

// Analyze computes the analysis of in. It is pure and never fails.
func Analyze(in Input) *Analysis {
	st := in.State
	if st == nil {
		st = Empty()
	}
	a := &Analysis{State: st, Src: in.Src, Exists: in.Exists, memo: in.Prev.memoFor(len(st.Tasks)), verdicts: in.Verdicts}
	a.tasks = a.memo.tasksOf(st)
	a.Approved = st.Plan != nil
	if !in.Exists {
		a.Src = nil
		a.Plan = &planparse.Plan{Title: "plan"}
	} else if in.Prev != nil && in.Prev.Exists {
		a.Plan = planparse.Reparse(in.Prev.Plan, in.Src) // the parts an edit left alone are not parsed again
	} else {
		a.Plan = planparse.Parse(in.Src)
	}
	a.match()
	a.subjects(in.Prev)
	a.count()
	a.findings(in)
	return a
}

// match pairs the file's items with the approved plan (matchLive).
func (a *Analysis) match() {
	byItem := make([]*ItemMatch, len(a.Plan.Items))
	var missing []int
	if a.Approved && a.Exists {
		var matches []ItemMatch
		matches, missing = a.memo.matchPlan(a.State, a.Plan)
		for i := range matches {
			if m := &matches[i]; m.Item >= 0 && m.Item < len(byItem) {
				byItem[m.Item] = m
			}
		}
	}
	a.Items = make([]Item, 0, len(a.Plan.Items)+len(missing))
	for i := range a.Plan.Items {
		it := Item{Plan: &a.Plan.Items[i], Drift: DriftNew}
		if m := byItem[i]; m != nil {
			if t := a.tasks[m.TaskID]; t != nil && m.Kind != New {
				it.Task, it.Drift = t, DriftSame
				if m.Kind == Changed {
					it.Drift = DriftChanged
				}
			}
		}
		a.Items = append(a.Items, it)
	}
	if a.Approved && !a.Exists {
		// No file: every live plan item is missing from it.
		for i := range a.State.Tasks {
			if t := &a.State.Tasks[i]; t.isPlan() && t.Status != Deleted {
				missing = append(missing, t.ID)
			}
		}
	}
	for _, id := range missing {
		if t := a.tasks[id]; t != nil {
			a.Items = append(a.Items, Item{Task: t, Drift: DriftMissing})
		}
	}
	if a.Approved && a.Exists {
		// An item that is not the approved one already says the bytes
		// differ: the whole text is hashed only when every item is.
		a.NeedsReapproval = len(missing) > 0 || slices.ContainsFunc(a.Items, func(it Item) bool { return it.Drift != DriftSame }) ||
			TextChanged(a.Src, a.State.Plan)
	}
	a.byTask = make(map[int]int, len(a.Items))
	for i, it := range a.Items {
		if it.Task != nil {
			if _, dup := a.byTask[it.Task.ID]; !dup {
				a.byTask[it.Task.ID] = i
			}
		}
	}
	if a.Approved && a.Exists && a.NeedsReapproval && len(missing) == 0 {
		a.TextDrift = !slices.ContainsFunc(a.Items, func(it Item) bool { return it.Drift != DriftSame })
	}
}

// memo remembers what texts render to across the analyses of one plan
// file, each made from the one before (Input.Prev): rendering a subject
// (planparse.Displays) and classifying evidence (WeakEvidence, 4–9 µs a
// string) were most of a keystroke's analysis at 1,000 items. It only
// grows, and is started afresh past four times the plan's texts.
//
// It also keeps what matchLive reads of the state (its live plan items
// in plan order and their keys), while the state is the same, and the key
// of each item text: at 1,000 items they were 1.2 of a keystroke's 1.7 ms
// of matching, which now takes 0.7 ms (BenchmarkAnalyzeEdit/1000: 4.9 → 4.1 ms).
type memo struct {
	mu    sync.Mutex
	shown map[[2]string]string // (subject, planText) → Display
	weak  map[string]bool      // evidence → WeakEvidence
	live  *liveKeys            // of the state last matched against
	// byID is tasksOf(byIDOf).
	byID   map[int]*Task
	byIDOf *State
}

// tasksOf is st's tasks by id, made once per state (read-only, shared by
// the analyses of that state): a keystroke does not change the state, and
// the map of its 1,000 tasks was made again on each.
func (m *memo) tasksOf(st *State) map[int]*Task {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.byID == nil || m.byIDOf != st {
		m.byID, m.byIDOf = make(map[int]*Task, len(st.Tasks)), st
		for i := range st.Tasks {
			m.byID[st.Tasks[i].ID] = &st.Tasks[i]
		}
	}
	return m.byID
}

// matchPlan is matchLive of st's live plan items and plan, through the memo.
func (m *memo) matchPlan(st *State, plan *planparse.Plan) ([]ItemMatch, []int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.live == nil || m.live.st != st {
		m.live = liveKeysOf(st)
	}
	return matchLive(m.live, plan)
}

// memoFor is a's memo for an analysis of about n tasks, or a new one.
func (a *Analysis) memoFor(n int) *memo {
	if a != nil && a.memo != nil {
		m := a.memo
		m.mu.Lock()
		full := len(m.shown)+len(m.weak)+m.live.size() > 8*(n+len(a.Items))+64
		m.mu.Unlock()
		if !full {
			return m
		}
	}
	return &memo{shown: map[[2]string]string{}, weak: map[string]bool{}}
}

// subjects sets each item's Subject and its task's, from one inline parse
// of the texts the memo does not hold yet. An item of prev (the analysis
// before, nil: none) in the run before or after an edit, with the same
// texts and task, keeps its subjects without a lookup: looking up every
// item's texts was a tenth of a keystroke at 1,000 items
// (BenchmarkAnalyzeEdit).
func (a *Analysis) subjects(prev *Analysis) {
	done := make([]bool, len(a.Items))
	if prev != nil {
		same := func(i, j int) bool {
			x, y := &a.Items[i], &prev.Items[j]
			if x.Task != y.Task || (x.Plan == nil) != (y.Plan == nil) ||
				x.Plan != nil && (x.Plan.Subject != y.Plan.Subject || x.Plan.PlanText != y.Plan.PlanText) {
				return false
			}
			x.Subject, x.TaskSubject, done[i] = y.Subject, y.TaskSubject, true
			return true
		}
		n, m := len(a.Items), len(prev.Items)
		p, q := sameEnds(n, m, same)
		a.kept = [2]int{p, q}
	}
	m := a.memo
	m.mu.Lock()
	defer m.mu.Unlock()
	var todo [][2]string
	need := func(k [2]string) {
		if _, ok := m.shown[k]; !ok {
			m.shown[k] = ""
			todo = append(todo, k)
		}
	}
	for i, it := range a.Items {
		if done[i] {
			continue
		}
		if it.Plan != nil {
			need([2]string{it.Plan.Subject, it.Plan.PlanText})
		}
		if it.Task != nil {
			need([2]string{it.Task.Subject, it.Task.PlanText})
		}
	}
	for i, s := range planparse.Displays(todo) {
		m.shown[todo[i]] = s
	}
	for i := range a.Items {
		it := &a.Items[i]
		if done[i] {
			continue
		}
		if it.Task != nil {
			it.TaskSubject = m.shown[[2]string{it.Task.Subject, it.Task.PlanText}]
			it.Subject = it.TaskSubject
		}
		if it.Plan != nil {
			it.Subject = m.shown[[2]string{it.Plan.Subject, it.Plan.PlanText}]
		}
	}
}

func (a *Analysis) count() {
	for _, it := range a.Items {
		switch {
		case it.Task != nil:
			a.Total++
			if isOpenTask(it.Task) {
				a.Open++
			}
		case !a.Approved:
			a.Total++
		}
	}
}

// findings lists every rule's findings: the state, the parser's problems,
// the plan as a whole, then each item in order.
func (a *Analysis) findings(in Input) {
	title := a.TitleRange()
	// About one finding an item, or as many as before an edit: grown, the list
	// was a tenth of a keystroke's bytes at 1,000 items (BenchmarkInProcessKeystroke).
	n := len(a.Items) + len(a.Plan.Problems) + 2
	if in.Prev != nil {
		n = max(n, len(in.Prev.Findings)+2)
	}
	a.Findings = make([]Finding, 0, n)
	add := func(f Finding) *Finding {
		a.Findings = append(a.Findings, f)
		return &a.Findings[len(a.Findings)-1]
	}
	if in.StateErr != "" {
		add(Finding{Rule: RuleStateInvalid, Severity: SeverityError, Item: -1, Range: title,
			Message: "state file .planls/state.json cannot be used: " + in.StateErr})
	}
	for _, p := range a.Plan.Problems {
		add(Finding{Rule: cmp.Or(p.Code, RuleEmpty), Severity: SeverityWarning, Item: -1, Range: p.Range, Message: p.Message})
	}
	if !a.Approved {
		if a.Exists {
			add(Finding{Rule: RuleNotApproved, Severity: SeverityInfo, Item: -1, Range: title,
				Message: NotApprovedMessage(a.Plan.Title, len(a.Plan.Items))})
		}
		return
	}
	if a.TextDrift {
		for _, f := range a.textDrift(title) {
			add(f)
		}
	}
	gone := a.goneRanges(title)
	was := a.keptFindings(in.Prev)
	for i := range a.Items {
		it := &a.Items[i]
		t := it.Task
		at := place{Item: i, Range: title, Gone: it.Plan == nil}
		if it.Plan != nil {
			at.Range = it.Plan.Line
		} else if r, ok := gone[i]; ok {
			at.Range = r
		}
		if fs, ok := was(i); ok {
			for _, f := range fs {
				f.Item, f.Range, f.Gone = i, at.Range, at.Gone
				add(f)
			}
			continue
		}
		switch it.Drift {
		case DriftNew:
			add(Finding{Rule: RuleDrift, Severity: SeverityHint, Item: i, Range: at.Range, Drift: DriftNew,
				Message: "not in the approved plan: " + it.Subject + " (re-approve the plan to track it)"})
			continue
		case DriftChanged:
			add(at.finding(RuleDrift, SeverityWarning, t.ID, DriftChanged,
				"plan item #"+strconv.Itoa(t.ID)+" differs from the approved plan: re-approve to track the new text"))
		case DriftMissing:
			if a.Exists {
				add(at.finding(RuleDrift, SeverityWarning, t.ID, DriftMissing,
					"approved plan item #"+strconv.Itoa(t.ID)+" is missing from the plan file: "+it.TaskSubject))
				continue
			}
		}
		suffix := ""
		if !a.Exists {
			suffix = " (the plan file is missing)"
		}
		if blockers := a.OpenBlockers(t); len(blockers) > 0 && isOpenTask(t) {
			f := add(at.finding(RuleBlocked, SeverityInfo, t.ID, "",
				"plan item #"+strconv.Itoa(t.ID)+" is blocked by "+idList(blockers, ", ")+": "+it.TaskSubject+suffix))
			f.Blockers = blockers
		} else {
			switch t.Status {
			case Pending:
				add(at.finding(RuleOpen, SeverityInfo, t.ID, "", "open plan item #"+strconv.Itoa(t.ID)+" (pending): "+it.TaskSubject+suffix))
			case InProgress:
				add(at.finding(RuleInProgress, SeverityInfo, t.ID, "", "plan item #"+strconv.Itoa(t.ID)+" in progress: "+it.TaskSubject+suffix))
			case Completed, Deferred:
				if missing := ProofMissing(t); missing != "" {
					add(at.finding(RuleNoProof, SeverityWarning, t.ID, "",
						"plan item #"+strconv.Itoa(t.ID)+" is "+missing+" (state.json edited by hand?): "+it.TaskSubject+suffix))
				} else if t.Status == Completed && a.weakEvidence(t.Evidence) && in.Verdicts[t.ID].State != "verified" {
					// A verified verdict found what the evidence names (a
					// commit written as a number, 1234567): it is not weak.
					add(at.finding(RuleWeak, SeverityWarning, t.ID, "", WeakEvidenceMessage(t.ID, t.Evidence)))
				}
			}
		}
		if v, ok := in.Verdicts[t.ID]; ok && v.State == "failed" && t.Status == Completed {
			_, msg := VerdictMessage(t.ID, v)
			add(at.finding(RuleFailed, SeverityError, t.ID, "", msg))
		}
		if isOpenTask(t) && it.Plan != nil && it.Plan.Checkbox == planparse.Checked {
			add(at.finding(RuleTicked, SeverityWarning, t.ID, "", TickedMessage(t.ID)))
		}
	}
}

// keptFindings returns, for an item an edit left alone (subjects: the
// same texts and task, in the run before or after the edit), the findings
// prev had for it, when they are what findings would write again: the
// same state, file presence, drift, box and verdict, and no text drift
// (whose findings about items come first). Only their item and range
// change. Writing every item's messages again was a tenth of a keystroke's
// analysis at 1,000 items (BenchmarkInProcessKeystroke/repo1000).
func (a *Analysis) keptFindings(prev *Analysis) func(i int) ([]Finding, bool) {
	none := func(int) ([]Finding, bool) { return nil, false }
	if prev == nil || a.kept == [2]int{} || prev.State != a.State || prev.Exists != a.Exists || !prev.Approved ||
		a.TextDrift || prev.TextDrift {
		return none
	}
	// from[j]: where prev's findings of item j start (they follow the
	// plan's own, in item order); from[len]: where they end.
	from := make([]int, len(prev.Items)+1)
	k := 0
	for j := range from {
		for k < len(prev.Findings) && prev.Findings[k].Item < j {
			k++
		}
		from[j] = k
	}
	n, m := len(a.Items), len(prev.Items)
	return func(i int) ([]Finding, bool) {
		j := i
		if i >= a.kept[0] {
			if j = i - n + m; i < n-a.kept[1] {
				return nil, false
			}
		}
		x, y := &a.Items[i], &prev.Items[j]
		if x.Task != y.Task || x.Drift != y.Drift || x.Subject != y.Subject || x.TaskSubject != y.TaskSubject ||
			(x.Plan == nil) != (y.Plan == nil) || x.Plan != nil && x.Plan.Checkbox != y.Plan.Checkbox {
			return nil, false
		}
		if x.Task != nil && x.Task.Status == Completed {
			// What findings read of a completed item's verdict: its state,
			// a failure's reason.
			v, w := a.verdicts[x.Task.ID], prev.verdicts[x.Task.ID]
			if v.State != w.State || v.Reason != w.Reason {
				return nil, false
			}
		}
		return prev.Findings[from[j]:from[j+1]], true
	}
}

// place is where the findings of one item go.
type place struct {
	Item  int
	Range planparse.Range
	Gone  bool
}

func (at place) finding(rule string, sev Severity, id int, drift Drift, msg string) Finding {
	return Finding{Rule: rule, Severity: sev, TaskID: id, Item: at.Item, Range: at.Range, Gone: at.Gone, Drift: drift, Message: msg}
}

// weakEvidence is WeakEvidence(ev), through the memo.
func (a *Analysis) weakEvidence(ev string) bool {
	m := a.memo
	m.mu.Lock()
	defer m.mu.Unlock()
	w, ok := m.weak[ev]
	if !ok {
		w = WeakEvidence(ev)
		m.weak[ev] = w
	}
	return w
}

// TitleRange is where findings about the whole plan go: the title line,
// else the first line of Src.
func (a *Analysis) TitleRange() planparse.Range {
	if tr := a.Plan.TitleRange; tr.End > tr.Start {
		return tr
	}
	end := 0
	for end < len(a.Src) && a.Src[end] != '\n' && a.Src[end] != '\r' {
		end++
	}
	return planparse.Range{End: end}
}

// Task returns the task of id in the state, or nil.
func (a *Analysis) Task(id int) *Task { return a.tasks[id] }

// ItemOf returns the item of task id (the first, when the file repeats
// it), or nil.
func (a *Analysis) ItemOf(id int) *Item {
	if i, ok := a.byTask[id]; ok {
		return &a.Items[i]
	}
	return nil
}

// OpenBlockers lists the ids in t.BlockedBy whose task is still open.
func (a *Analysis) OpenBlockers(t *Task) []int {
	var ids []int
	for _, id := range t.BlockedBy {
		if isOpenTask(a.tasks[id]) {
			ids = append(ids, id)
		}
	}
	return ids
}

// Blocks lists the live tasks that t blocks, in state order.
func (a *Analysis) Blocks(t *Task) []int {
	var ids []int
	for i := range a.State.Tasks {
		o := &a.State.Tasks[i]
		if o.Status != Deleted && slices.Contains(o.BlockedBy, t.ID) {
			ids = append(ids, o.ID)
		}
	}
	return ids
}

// NotApprovedMessage is the plan-not-approved text for a plan titled
// title with n items.
func NotApprovedMessage(title string, n int) string {
	if n == 0 {
		return fmt.Sprintf("plan %q is not approved and has no plan items yet: add a top-level bullet per piece of work", title)
	}
	return fmt.Sprintf("plan %q is not approved: approve it to track its %s", title, CountNoun(n, "item"))
}

// ProofMissing says which proof closed task t lacks: "completed without
// evidence" or "deferred without a reason" (the seed's status transitions
// refuse both, so only a hand edit of the state file makes one), else "".
func ProofMissing(t *Task) string {
	switch {
	case t.Status == Completed && strings.TrimSpace(t.Evidence) == "":
		return "completed without evidence"
	case t.Status == Deferred && strings.TrimSpace(t.Reason) == "":
		return "deferred without a reason"
	}
	return ""
}

// VerdictMessage is planls verify's line for the verdict v of item id.
func VerdictMessage(id int, v Verdict) (rule, msg string) {
	switch v.State {
	case "failed":
		return RuleFailed, "plan item #" + strconv.Itoa(id) + " failed verification: " + v.Reason
	case "unverifiable":
		return RuleUnverifiable, "plan item #" + strconv.Itoa(id) + " evidence is unverifiable: " + v.Reason
	}
	return RuleVerified, "plan item #" + strconv.Itoa(id) + " verified: " + strings.Join(v.Held, "; ")
}

func isOpenTask(t *Task) bool { return t != nil && t.Status.Open() }
