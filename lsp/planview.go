package lsp

import (
	"encoding/json"
	"errors"
	"hash/maphash"

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
	Pending bool        `json:"pending"`
	Groups  []planGroup `json:"groups"`
}

type planGroup struct {
	Name  string     `json:"name"`
	Items []planItem `json:"items"`
}

type planItem struct {
	ID         int             `json:"id"`
	Subject    string          `json:"subject"`
	Status     string          `json:"status"`
	Blocked    bool            `json:"blocked"`
	BlockedBy  []int           `json:"blockedBy"`
	Evidence   string          `json:"evidence"`
	Reason     string          `json:"reason"`
	Owner      string          `json:"owner"`
	ActiveForm string          `json:"activeForm"`
	Drift      string          `json:"drift"`
	Range      *protocol.Range `json:"range"`
	// Verify and EvidenceRefs: for a completed item, its evidence checked
	// offline (lsp/evidence.go); null and [] otherwise.
	Verify       *itemVerify   `json:"verify"`
	EvidenceRefs []evidenceRef `json:"evidenceRefs"`
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
func (s *server) planRequest(r *request) (any, error) {
	var p planURI
	if err := decode(r.params, &p); err != nil {
		return nil, err
	}
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
	p, err := fileOf(uri)
	if err != nil {
		return nil
	}
	k := keyOf(p)
	var best *snapshot
	for _, sn := range v.snaps {
		if within(keyOf(sn.root), k) && (best == nil || len(sn.root) > len(best.root)) {
			best = sn
		}
	}
	return best
}

// planJSON is sn's planls/plan result, encoded once: asking again about a
// plan that did not change costs nothing.
func (sn *snapshot) planJSON() json.RawMessage {
	sn.planOnce.Do(func() { sn.plan, _ = json.Marshal(sn.result()) })
	return sn.plan
}

// result is planOf(sn), made once: swap fingerprints it (planSum) and
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
	index := map[string]int{}
	add := func(group string, it planItem) {
		i, ok := index[group]
		if !ok {
			i = len(res.Groups)
			index[group] = i
			res.Groups = append(res.Groups, planGroup{Name: group, Items: []planItem{}})
		}
		res.Groups[i].Items = append(res.Groups[i].Items, it)
	}
	items := sn.items()
	for i := range items {
		it := &items[i]
		pi := planItem{Status: "draft", Drift: string(it.Drift), BlockedBy: []int{}, Subject: it.Subject, EvidenceRefs: []evidenceRef{}}
		group := ""
		if it.Plan != nil {
			group = it.Plan.Group
			rng := sn.lineRange(it)
			pi.Range = &rng
		}
		if t := it.Task; t != nil {
			pi.ID, pi.Status, pi.Evidence, pi.Reason = t.ID, string(t.Status), t.Evidence, t.Reason
			if it.Plan == nil {
				group = t.PlanGroup
			}
			if t.Owner != nil {
				pi.Owner = *t.Owner
			}
			if t.ActiveForm != nil {
				pi.ActiveForm = *t.ActiveForm
			}
			pi.BlockedBy = append(pi.BlockedBy, t.BlockedBy...)
			pi.Blocked = isOpen(t) && len(an.OpenBlockers(t)) > 0
			if r := sn.ver.result(t.ID, t.Evidence); r != nil && t.Status == core.Completed {
				pi.Verify = &itemVerify{State: string(r.State), Reason: r.Reason, Weak: r.Weak}
				pi.EvidenceRefs = sn.ver.refs[t.ID]
			}
		}
		add(group, pi)
	}
	if sn.path != "" {
		res.Open, res.Total = an.Open, an.Total
	}
	return res
}

// planSum fingerprints what planls/plan answers for sn: a change of it is
// a planls/stateChanged (the sidebars ask again only then).
func planSum(sn *snapshot) uint64 {
	var h maphash.Hash
	h.SetSeed(hashSeed)
	res := sn.result()
	str := func(ss ...string) {
		for _, s := range ss {
			h.WriteString(s)
			h.WriteByte(0)
		}
	}
	str(res.Root, res.PlanURI, res.Title, res.StateError)
	maphash.WriteComparable(&h, [4]bool{res.Exists, res.Approved, res.NeedsReapproval, res.Pending})
	maphash.WriteComparable(&h, [2]int{res.Open, res.Total})
	for _, g := range res.Groups {
		str(g.Name)
		for _, it := range g.Items {
			str(it.Subject, it.Status, it.Evidence, it.Reason, it.Owner, it.ActiveForm, it.Drift)
			maphash.WriteComparable(&h, it.ID)
			maphash.WriteComparable(&h, it.Blocked)
			for _, id := range it.BlockedBy {
				maphash.WriteComparable(&h, id)
			}
			if it.Range != nil {
				maphash.WriteComparable(&h, *it.Range)
			}
			if it.Verify != nil {
				maphash.WriteComparable(&h, *it.Verify)
			}
			for _, r := range it.EvidenceRefs {
				str(r.Kind, r.Text, r.State, r.Detail, r.URI)
				maphash.WriteComparable(&h, r.Line)
			}
		}
	}
	return h.Sum64()
}
