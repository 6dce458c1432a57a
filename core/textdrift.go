package core

import (
	"bytes"
	"encoding/base64"
	"hash/fnv"
	"strconv"

	"github.com/planls/planls/planparse"
)

// The text of a plan outside its items (headings, prose, context lists) has
// no task to carry a finding, so an approval records a short hash of each
// of those lines (PlanRef.Outside) and an edit there is found by comparing
// the lines of the file now with them: the finding goes on the line that
// changed, not on the title. A line is compared as a reader sees it
// (keyText, trailing white space dropped, a task box read as open:
// unticked); blank lines are left out.

// outsideHashLen is the bytes kept of each line's hash: 3 bytes, 4 base64
// characters a line; a collision only hides which line changed, never
// that the file did (TextChanged hashes the whole text).
const outsideHashLen = 3

// outsideLine is one non-blank line outside every item block of a plan.
type outsideLine struct {
	hash string          // outsideHashLen bytes
	rng  planparse.Range // the line in src, line ending excluded
}

// outsideLines are src's non-blank lines that no item's block holds, in
// order. plan is src's parse.
func outsideLines(src []byte, plan *planparse.Plan) []outsideLine {
	var out []outsideLine
	item := 0 // items are in document order: the next block that may hold a line
	for start := 0; start < len(src); {
		end := bytes.IndexByte(src[start:], '\n')
		next := len(src)
		if end < 0 {
			end = len(src)
		} else {
			end += start
			next = end + 1
		}
		line := bytes.TrimRight(src[start:end], " \t\r")
		if start == 0 {
			line = bytes.TrimPrefix(line, utf8BOM)
		}
		for item < len(plan.Items) && plan.Items[item].Block.End <= start {
			item++
		}
		inItem := item < len(plan.Items) && plan.Items[item].Block.Start <= start && start < plan.Items[item].Block.End
		if len(line) > 0 && !inItem {
			h := fnv.New32a()
			h.Write([]byte(keyText(string(unticked(line)))))
			out = append(out, outsideLine{hash: string(h.Sum(nil)[:outsideHashLen]), rng: planparse.Range{Start: start, End: start + len(bytes.TrimRight(src[start:end], "\r"))}})
		}
		start = next
	}
	return out
}

// outsideHashes is PlanRef.Outside for src: the hashes of its outside
// lines, in order, base64 (RawStd).
func outsideHashes(src []byte, plan *planparse.Plan) string {
	lines := outsideLines(src, plan)
	raw := make([]byte, 0, len(lines)*outsideHashLen)
	for _, l := range lines {
		raw = append(raw, l.hash...)
	}
	return base64.RawStdEncoding.EncodeToString(raw)
}

// maxDiffCells bounds the comparison table of the lines between the common
// head and tail (rows × columns): past it the first differing line alone is
// reported, so a rewritten plan of thousands of lines costs no more.
const maxDiffCells = 1 << 20

// outsideChanges returns where src's text outside its items differs from
// the approved text recorded in ref.Outside: the range of the first line of
// each run of lines added or changed, and for a run only removed, the line
// after it (or before it, at the end). ok is false when ref has no
// record (approved before planls kept one) or it does not decode.
func outsideChanges(src []byte, plan *planparse.Plan, ref *PlanRef) (at []planparse.Range, ok bool) {
	if ref == nil || ref.Outside == "" {
		return nil, false
	}
	raw, err := base64.RawStdEncoding.DecodeString(ref.Outside)
	if err != nil || len(raw)%outsideHashLen != 0 {
		return nil, false
	}
	old := make([]string, len(raw)/outsideHashLen)
	for i := range old {
		old[i] = string(raw[i*outsideHashLen : (i+1)*outsideHashLen])
	}
	cur := outsideLines(src, plan)
	// The common head and tail first: an edit is local.
	head := 0
	for head < len(old) && head < len(cur) && old[head] == cur[head].hash {
		head++
	}
	tail := 0
	for tail < len(old)-head && tail < len(cur)-head && old[len(old)-1-tail] == cur[len(cur)-1-tail].hash {
		tail++
	}
	o, c := old[head:len(old)-tail], cur[head:len(cur)-tail]
	switch {
	case len(o) == 0 && len(c) == 0:
		return nil, true
	case len(c) == 0 || len(o)*len(c) > maxDiffCells:
		return []planparse.Range{nearLine(cur, head)}, true
	}
	// Longest common subsequence of o and c; lcs[i][j] is that of o[i:], c[j:].
	lcs := make([][]int32, len(o)+1)
	for i := range lcs {
		lcs[i] = make([]int32, len(c)+1)
	}
	for i := len(o) - 1; i >= 0; i-- {
		for j := len(c) - 1; j >= 0; j-- {
			if o[i] == c[j].hash {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	// Walk it: every run of lines not in the common subsequence is a change.
	i, j, inRun := 0, 0, false
	for i < len(o) || j < len(c) {
		switch {
		case i < len(o) && j < len(c) && o[i] == c[j].hash:
			i, j, inRun = i+1, j+1, false
			continue
		case j < len(c) && (i == len(o) || lcs[i][j+1] >= lcs[i+1][j]):
			if !inRun {
				at = append(at, c[j].rng)
			}
			j++
		default:
			if !inRun {
				at = append(at, nearLine(cur, head+j))
			}
			i++
		}
		inRun = true
	}
	return at, true
}

// nearLine is the range of cur[k], or of the last line when k is past the
// end (a removal at the end of the file), or empty at 0 when there is none.
func nearLine(cur []outsideLine, k int) planparse.Range {
	switch {
	case k < len(cur):
		return cur[k].rng
	case len(cur) > 0:
		return cur[len(cur)-1].rng
	}
	return planparse.Range{}
}

// movedItems are the indexes into items (the file's plan items, in file
// order, each with its approved PlanOrder; 0 for none) of those out of the
// approved order: the items off a longest run in approved order, so a
// moved item is named and the items it passed are not.
func movedItems(orders []int) []int {
	// Patience sorting for the longest increasing subsequence.
	var tails, tailIdx []int
	prev := make([]int, len(orders))
	for i, o := range orders {
		if o <= 0 {
			prev[i] = -2
			continue
		}
		lo, hi := 0, len(tails)
		for lo < hi {
			mid := (lo + hi) / 2
			if tails[mid] < o {
				lo = mid + 1
			} else {
				hi = mid
			}
		}
		if lo == len(tails) {
			tails, tailIdx = append(tails, o), append(tailIdx, i)
		} else {
			tails[lo], tailIdx[lo] = o, i
		}
		prev[i] = -1
		if lo > 0 {
			prev[i] = tailIdx[lo-1]
		}
	}
	inRun := make([]bool, len(orders))
	if len(tailIdx) > 0 {
		for k := tailIdx[len(tailIdx)-1]; k >= 0; k = prev[k] {
			inRun[k] = true
		}
	}
	var out []int
	for i, o := range orders {
		if o > 0 && !inRun[i] {
			out = append(out, i)
		}
	}
	return out
}

// Messages of the plan-drift findings about text outside the items.
const (
	msgTextDrift     = "the plan file changed since approval outside its plan items: re-approve to make the new text the plan"
	msgTextDriftHere = "the plan file changed here since approval, outside its plan items: re-approve to make the new text the plan"
)

// textDrift is the findings of a plan file whose items are all the approved
// ones while its text is not (Analysis.TextDrift): one on each plan item
// out of its approved order, one on the first line of each changed run of
// the text outside the items, and, when neither places it (an approval
// from before planls recorded that text, or a change of blank lines only),
// one on the title.
func (a *Analysis) textDrift(title planparse.Range) []Finding {
	var out []Finding
	var orders, idx []int
	for i, it := range a.Items {
		if it.Plan != nil && it.Task != nil {
			orders, idx = append(orders, it.Task.PlanOrder), append(idx, i)
		}
	}
	for _, k := range movedItems(orders) {
		it := &a.Items[idx[k]]
		out = append(out, Finding{Rule: RuleDrift, Severity: SeverityWarning, TaskID: it.Task.ID, Item: idx[k], Range: it.Plan.Line, Drift: DriftText,
			Message: "plan item #" + strconv.Itoa(it.Task.ID) + " moved since approval: re-approve to make the new order the plan"})
	}
	if at, ok := outsideChanges(a.Src, a.Plan, a.State.Plan); ok {
		for _, r := range at {
			out = append(out, Finding{Rule: RuleDrift, Severity: SeverityWarning, Item: -1, Range: r, Drift: DriftText, Message: msgTextDriftHere})
		}
	}
	if len(out) == 0 {
		out = append(out, Finding{Rule: RuleDrift, Severity: SeverityWarning, Item: -1, Range: title, Drift: DriftText, Message: msgTextDrift})
	}
	return out
}
