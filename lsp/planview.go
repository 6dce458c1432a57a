package lsp

import (
	"encoding/json"
	"errors"
	"slices"

	segjson "github.com/segmentio/encoding/json"
	"go.lsp.dev/protocol"

	"github.com/planls/planls/core"
)

// planResult is the planls/plan result (docs/PROTOCOL.md).
type planResult struct {
	Root            string `json:"root"`
	PlanURI         string `json:"planUri"`
	Exists          bool   `json:"exists"`
	Approved        bool   `json:"approved"`
	NeedsReapproval bool   `json:"needsReapproval"`
	Title           string `json:"title"`
	Open            int    `json:"open"`
	Total           int    `json:"total"`
	StateError      string `json:"stateError"`
	// Pending: the verification of the completed items is being redone
	// (their evidence or HEAD changed); a planls/stateChanged follows
	// when it lands.
	Pending bool `json:"pending"`
	// Revision is that of the last planls/stateChanged for this root the
	// answer shows: a sidebar holding it skips a notification of no later one.
	Revision int64       `json:"revision"`
	Groups   []planGroup `json:"groups"`
}

type planGroup struct {
	Name  string     `json:"name"`
	Items []planItem `json:"items"`
}

// planItem is one item of planls/plan. A field at its empty value (false,
// [], "", null) is left out, as docs/PROTOCOL.md says: at 1,000 items they
// were a fifth of the answer's 0.5 MB, which a sidebar decodes each time
// it asks (BenchmarkRepoRequest/plan, decode-p50-ms).
type planItem struct {
	ID         int             `json:"id"`
	Subject    string          `json:"subject"`
	Status     string          `json:"status"`
	Blocked    bool            `json:"blocked,omitempty"`
	BlockedBy  []int           `json:"blockedBy,omitempty"`
	Evidence   string          `json:"evidence,omitempty"`
	Reason     string          `json:"reason,omitempty"`
	Owner      string          `json:"owner,omitempty"`
	ActiveForm string          `json:"activeForm,omitempty"`
	Drift      string          `json:"drift"`
	Range      *protocol.Range `json:"range"`
	// Verify and EvidenceRefs: for a completed item, its evidence checked
	// offline (lsp/evidence.go); left out otherwise.
	Verify       *itemVerify   `json:"verify,omitempty"`
	EvidenceRefs []evidenceRef `json:"evidenceRefs,omitempty"`
}

// planURI is planls/plan's params: a file or folder of the workspace,
// "" for the first folder.
type planURI struct {
	URI string `json:"uri"`
}

// planQuery answers planls/plan for the folder of params.uri (default:
// the first folder) from its snapshot, with the last verification and
// pending set while a newer one is on its way; errNotInSession when the
// session has no snapshot of that folder yet (planRequest makes it).
func planQuery(v *session, params json.RawMessage) (any, error) {
	sn, err := planSnapshot(v, params)
	if err != nil {
		return nil, err
	}
	return sn.planJSON(), nil
}

// planSnapshot is the snapshot planls/plan's params name, or
// errNotInSession.
func planSnapshot(v *session, params json.RawMessage) (*snapshot, error) {
	var p planURI
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	if sn := v.folderOf(p.URI); sn != nil {
		return sn, nil
	}
	return nil, errNotInSession
}

// errNotInSession is planQuery's answer for a folder the session has no
// snapshot of.
var errNotInSession = errors.New("folder not in the session")

// planRequest answers planls/plan on the worker when planQuery cannot: the
// folder is made (a uri outside every folder), under mu.
func (s *server) planRequest(_ *request, p *planURI) (any, error) {
	s.mu.Lock()
	f, err := s.folderOfURI(p.URI)
	var sn *snapshot
	if err == nil {
		if f.snap == nil {
			s.reload(f, true)
		}
		sn = f.snap
	}
	s.mu.Unlock()
	if err != nil {
		return nil, err
	}
	return sn.planJSON(), nil
}

// folderOf returns the snapshot of the folder planls/plan's uri names:
// the innermost folder holding it, the first folder when uri is empty; nil
// when the session has no snapshot for it yet, or uri is no file URI
// (folderOfURI says why).
func (v *session) folderOf(uri string) *snapshot {
	if uri == "" {
		if len(v.snaps) == 0 {
			return nil
		}
		return v.snaps[0]
	}
	return v.innermost(uri, func(sn *snapshot, k string) bool { return within(keyOf(sn.root), k) })
}

// planJSON is sn's planls/plan result, encoded once: asking again about a
// plan that did not change costs nothing. It is encoded with
// segmentio/encoding/json (the bytes encoding/json writes,
// TestPlanJSONIsEncodingJSON) into a buffer sized for it: at 1,000 items
// (0.5 MB) encoding/json took 4 ms of CPU and left 2 MB of garbage, a
// grown buffer kept in its pool, each time a sidebar asked after a keystroke.
func (sn *snapshot) planJSON() json.RawMessage {
	sn.planOnce.Do(func() {
		res := *sn.result()
		res.Revision = sn.rev
		sn.plan = encodePlan(&res)
	})
	return sn.plan
}

// encodePlan is the JSON of a planls/plan result.
func encodePlan(res *planResult) json.RawMessage {
	n := 512
	for _, g := range res.Groups {
		n += 64 + 640*len(g.Items)
	}
	b, err := segjson.Append(make([]byte, 0, n), res, segjson.EscapeHTML|segjson.SortMapKeys)
	if err != nil {
		b, _ = json.Marshal(res)
	}
	return b
}

// result is planOf(sn), made once: swap compares it (samePlan) and
// planls/plan encodes the same answer.
func (sn *snapshot) result() *planResult {
	sn.resOnce.Do(func() { sn.res = planOf(sn) })
	return &sn.res
}

// planOf is the planls/plan result of sn.
func planOf(sn *snapshot) planResult {
	an := sn.an
	res := planResult{Root: sn.rootURI, PlanURI: sn.uri, Exists: sn.path != "", Approved: an.Approved,
		NeedsReapproval: an.NeedsReapproval, Title: an.Plan.Title, Pending: sn.pending, Groups: []planGroup{}}
	if sn.path == "" {
		res.Title = ""
	}
	if sn.stateErr != nil {
		res.StateError = sn.stateErr.Error()
	}
	items := sn.items()
	// Each group's items are counted first and its slice made once: grown
	// item by item, they were a tenth of a keystroke's bytes at 1,000
	// items (BenchmarkInProcessKeystroke), and so were the ranges one by one.
	groupOf := func(it *core.Item) string {
		switch {
		case it.Plan != nil:
			return it.Plan.Group
		case it.Task != nil:
			return it.Task.PlanGroup
		}
		return ""
	}
	index := map[string]int{}
	var counts []int
	in := make([]int, len(items)) // each item's index into res.Groups
	for i := range items {
		g := groupOf(&items[i])
		k, ok := index[g]
		if !ok {
			k = len(res.Groups)
			index[g] = k
			res.Groups = append(res.Groups, planGroup{Name: g})
			counts = append(counts, 0)
		}
		counts[k]++
		in[i] = k
	}
	for k := range res.Groups {
		res.Groups[k].Items = make([]planItem, 0, counts[k])
	}
	ranges := make([]protocol.Range, 0, len(items))
	for i := range items {
		it := &items[i]
		pi := planItem{Status: "draft", Drift: string(it.Drift), Subject: it.Subject}
		if it.Plan != nil {
			ranges = append(ranges, sn.lines[i])
			pi.Range = &ranges[len(ranges)-1]
		}
		if t := it.Task; t != nil {
			pi.ID, pi.Status, pi.Evidence, pi.Reason = t.ID, string(t.Status), t.Evidence, t.Reason
			if t.Owner != nil {
				pi.Owner = *t.Owner
			}
			if t.ActiveForm != nil {
				pi.ActiveForm = *t.ActiveForm
			}
			pi.BlockedBy = slices.Clone(t.BlockedBy)
			pi.Blocked = t.Status.Open() && len(an.OpenBlockers(t)) > 0
			if r := sn.ver.result(t.ID, t.Evidence); r != nil && t.Status == core.Completed {
				pi.Verify = &itemVerify{State: string(r.State), Reason: r.Reason, Weak: r.Weak}
				pi.EvidenceRefs = sn.ver.refs[t.ID]
			}
		}
		g := &res.Groups[in[i]]
		g.Items = append(g.Items, pi)
	}
	if sn.path != "" {
		res.Open, res.Total = an.Open, an.Total
	}
	return res
}

// samePlan reports whether planls/plan answers a and b alike: when it
// does not, a planls/stateChanged tells the sidebars to ask again. A
// keystroke's answer shares most strings and slices with the last one, so
// comparing stops early or compares pointers; hashing every string of the
// answer instead was 1.1 ms of a keystroke at 1,000 items
// (BenchmarkInProcessKeystroke/repo1000). Every field counts but an
// evidence reference's commit, which its text and state stand for.
func samePlan(a, b *planResult) bool {
	if a.Root != b.Root || a.PlanURI != b.PlanURI || a.Exists != b.Exists || a.Approved != b.Approved ||
		a.NeedsReapproval != b.NeedsReapproval || a.Title != b.Title || a.Open != b.Open || a.Total != b.Total ||
		a.StateError != b.StateError || a.Pending != b.Pending {
		return false
	}
	return slices.EqualFunc(a.Groups, b.Groups, func(x, y planGroup) bool {
		return x.Name == y.Name && slices.EqualFunc(x.Items, y.Items, sameItem)
	})
}

func sameItem(a, b planItem) bool {
	return a.ID == b.ID && a.Subject == b.Subject && a.Status == b.Status && a.Blocked == b.Blocked &&
		slices.Equal(a.BlockedBy, b.BlockedBy) &&
		a.Evidence == b.Evidence && a.Reason == b.Reason &&
		a.Owner == b.Owner && a.ActiveForm == b.ActiveForm && a.Drift == b.Drift &&
		samePtr(a.Range, b.Range) && samePtr(a.Verify, b.Verify) &&
		slices.EqualFunc(a.EvidenceRefs, b.EvidenceRefs, func(x, y evidenceRef) bool {
			x.Commit, y.Commit = nil, nil
			return x == y
		})
}

// samePtr reports whether a and b are both nil or point to equal values.
func samePtr[T comparable](a, b *T) bool {
	return a == b || a != nil && b != nil && *a == *b
}
