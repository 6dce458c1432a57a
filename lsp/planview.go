package lsp

import (
	"path/filepath"

	"go.lsp.dev/protocol"

	"github.com/planls/planls/planparse"
)

// planResult is the planls/plan result (docs/PROTOCOL.md).
type planResult struct {
	Root            string      `json:"root"`
	PlanURI         string      `json:"planUri"`
	Exists          bool        `json:"exists"`
	Approved        bool        `json:"approved"`
	NeedsReapproval bool        `json:"needsReapproval"`
	Title           string      `json:"title"`
	Open            int         `json:"open"`
	Total           int         `json:"total"`
	StateError      string      `json:"stateError"`
	Groups          []planGroup `json:"groups"`
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

// planRequest answers planls/plan for the folder of params.uri (default: the
// first folder).
func (s *server) planRequest(r *request) (any, error) {
	var p struct {
		URI string `json:"uri"`
	}
	if err := decode(r.params, &p); err != nil {
		return nil, err
	}
	s.mu.Lock()
	f, err := s.folderOfURI(p.URI)
	if p.URI == "" && len(s.folders) > 1 {
		f, err = s.folders[0], nil
	}
	var res planResult
	if err == nil {
		if f.view == nil {
			s.refresh(f, true)
		}
		res = planOf(f, f.view)
	}
	s.mu.Unlock()
	if err != nil {
		return nil, err
	}
	addVerification(r.ctx, f.root, &res)
	return res, nil
}

func planOf(f *folder, v *view) planResult {
	res := planResult{Root: f.uri, PlanURI: v.uri, Exists: v.path != "", Approved: v.approved,
		NeedsReapproval: v.needsReapproval, Title: v.plan.Title, Groups: []planGroup{}}
	if v.path == "" {
		res.PlanURI = f.fileURI(filepath.Join(f.root, "PLAN.md"))
		res.Title = ""
	}
	if v.stateErr != nil {
		res.StateError = v.stateErr.Error()
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
	for i := range v.items {
		vi := &v.items[i]
		it := planItem{Status: "draft", Drift: string(vi.Drift), BlockedBy: []int{}}
		group := ""
		if vi.Plan != nil {
			it.Subject, group = planparse.Display(vi.Plan.Subject, vi.Plan.PlanText), vi.Plan.Group
			rng := v.m.rng(vi.Plan.Line.Start, vi.Plan.Line.End)
			it.Range = &rng
		}
		if t := vi.Task; t != nil {
			it.ID, it.Status, it.Evidence, it.Reason = t.ID, string(t.Status), t.Evidence, t.Reason
			if vi.Plan == nil {
				it.Subject, group = planparse.Display(t.Subject, t.PlanText), t.PlanGroup
			}
			if t.Owner != nil {
				it.Owner = *t.Owner
			}
			if t.ActiveForm != nil {
				it.ActiveForm = *t.ActiveForm
			}
			it.BlockedBy = append(it.BlockedBy, t.BlockedBy...)
			it.Blocked = isOpen(t) && len(v.openBlockers(t)) > 0
			res.Total++
			if isOpen(t) {
				res.Open++
			}
		} else if !v.approved {
			res.Total++
		}
		add(group, it)
	}
	return res
}
