package core

// The blockedBy graph: an edge runs from a task to each id it waits on.
// Edges to ids that do not exist are ignored here (Validate warns on them).
// Both walks are iterative so a 10,000-long chain cannot overflow the stack.

// hasCycle runs a DFS over every task of st (the seed's status transitions step 12:
// the whole resulting graph is checked, not just the new edges).
func hasCycle(st *State) bool {
	return len(findCycles(st, 1)) > 0
}

// findCycles returns up to limit cycles of st's graph, each as the id path
// from a task back to itself (e.g. [2 3 2]). Every strongly connected part
// with a cycle yields at least one; limit <= 0 means no limit.
func findCycles(st *State, limit int) [][]int {
	const (
		white = iota
		grey
		black
	)
	n := len(st.Tasks)
	color := make([]uint8, n)
	type frame struct{ node, edge int }
	var stack []frame
	var cycles [][]int
	for start := 0; start < n; start++ {
		if color[start] != white {
			continue
		}
		color[start] = grey
		stack = append(stack[:0], frame{start, 0})
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			deps := st.Tasks[top.node].BlockedBy
			if top.edge >= len(deps) {
				color[top.node] = black
				stack = stack[:len(stack)-1]
				continue
			}
			next := st.index(deps[top.edge])
			top.edge++
			if next < 0 {
				continue
			}
			switch color[next] {
			case white:
				color[next] = grey
				stack = append(stack, frame{next, 0})
			case grey:
				// A back edge: the path from next's frame to the top is a cycle.
				var path []int
				for k := len(stack) - 1; k >= 0; k-- {
					if stack[k].node == next {
						for _, f := range stack[k:] {
							path = append(path, st.Tasks[f.node].ID)
						}
						break
					}
				}
				path = append(path, st.Tasks[next].ID)
				cycles = append(cycles, path)
				if limit > 0 && len(cycles) >= limit {
					return cycles
				}
			}
		}
	}
	return cycles
}
