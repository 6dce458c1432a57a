package planparse

import (
	"bytes"
	"strings"
)

var bom = []byte("\xEF\xBB\xBF")

// frontMatterTodos reads the `todos:` list of a YAML front-matter block, as
// Cursor plans write it:
//
//	todos:
//	  - id: config-env
//	    content: Add the env config
//	    status: pending
//
// Each `- id:` entry is an entry whose Line is that line (from the '-') and
// whose subject is its `content:` value (else its id). Its plan text is the
// entry's other lines except `status:`, which Cursor rewrites as work goes
// on. Only this shape is read: a front matter planls cannot read this way
// gives no todos, and the plan is read from its body.
func frontMatterTodos(src []byte, ln *lines) []entry {
	start := 0
	if bytes.HasPrefix(src, bom) {
		start = 3
	}
	if ln.count() < 3 || ln.lineOf(start) != 0 || strings.TrimRight(string(ln.text(0)[start-ln.start[0]:]), " \t") != "---" {
		return nil
	}
	end := -1
	for l := 1; l < ln.count(); l++ {
		if t := strings.TrimRight(string(ln.text(l)), " \t"); t == "---" || t == "..." {
			end = l
			break
		}
	}
	if end < 0 {
		return nil
	}
	var out []entry
	in := false
	var cur *entry
	var body []string
	entryIndent := -1
	flush := func() {
		if cur != nil {
			cur.item.PlanText = strings.Join(body, "\n")
			out = append(out, *cur)
		}
		cur, body = nil, nil
	}
	for l := 1; l < end; l++ {
		t := ln.text(l)
		if isBlank(t) {
			continue
		}
		ind := indent(t)
		line := string(t[ind:])
		if ind == 0 {
			flush()
			in = strings.TrimRight(line, " \t") == "todos:"
			entryIndent = -1
			continue
		}
		if !in {
			continue
		}
		if strings.HasPrefix(line, "- ") && (entryIndent < 0 || ind == entryIndent) {
			flush()
			entryIndent = ind
			key, val, _ := strings.Cut(strings.TrimPrefix(line, "- "), ":")
			s := ln.start[l] + ind
			cur = &entry{item: Item{Line: Range{s, ln.end[l]}, Block: Range{s, ln.end[l]}}}
			body = []string{line}
			if strings.TrimSpace(key) == "id" {
				setTodoSubject(cur, val, ln.start[l]+ind+len(line)-len(val), false)
			}
			continue
		}
		if cur == nil {
			continue
		}
		cur.item.Block.End = ln.end[l]
		key, val, _ := strings.Cut(line, ":")
		switch strings.TrimSpace(key) {
		case "status":
			continue
		case "content":
			setTodoSubject(cur, val, ln.start[l]+ind+len(line)-len(val), true)
		}
		body = append(body, strings.Repeat(" ", max(ind-entryIndent, 0))+line)
	}
	flush()
	return out
}

// setTodoSubject sets the subject from a YAML scalar at byte off: quotes
// removed. content replaces an id; an id never replaces content.
func setTodoSubject(e *entry, val string, off int, content bool) {
	if !content && e.item.Subject != "" {
		return
	}
	lead := len(val) - len(strings.TrimLeft(val, " \t"))
	v := strings.TrimSpace(val)
	s := off + lead
	if len(v) >= 2 && (v[0] == '"' && v[len(v)-1] == '"' || v[0] == '\'' && v[len(v)-1] == '\'') {
		v = v[1 : len(v)-1]
		s++
	}
	if v == "" {
		return
	}
	e.item.Subject = v
	e.item.SubjectRange = Range{s, s + len(v)}
}
