package planparse

import (
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// class is what a heading's (or a lead-in's) text says about the section it
// names, as docs/PLAN-FORMAT.md "Sections" lists them. rpiv's context labels
// (labels.go) are one source; the rest are the words real plans use for the
// same kinds of section, in English and in the languages the format lists.
type class uint8

const (
	clsPlain     class = iota // names a piece of work, or nothing the lists know
	clsContext                // summary, background, spec, reference, risks, ...: not work
	clsNotes                  // notes and remarks: not work, but a checkbox there is
	clsExclude                // non-goals, out of scope, do-not, future work: never work
	clsCheck                  // acceptance, verification, tests: each bullet is a check to run
	clsContainer              // a list of work: changes, tasks, steps, implementation
)

// Word lists, lower case. Latin-script words match at a word boundary at the
// start or at the end of the heading ("Risks and mitigations", "Key design
// decisions"); CJK words match anywhere, as CJK has no spaces between words.
var (
	excludeWords = []string{
		// English
		"non-goals", "non goals", "nongoals", "non-goal", "out of scope", "not in scope", "not adopted",
		"rejected", "alternatives", "alternatives considered", "won't do", "wont do", "will not do",
		"not doing", "do not", "don't", "dont", "avoid", "future", "future work", "later", "deferred",
		"not now", "someday", "maybe later", "optional", "nice to have", "nice-to-have", "not planned",
		"what this plan is not", "out-of-scope", "anti-goals", "excluded", "exclusions", "not included",
		"parking lot", "icebox", "ideas", "not required", "stretch", "stretch goals", "wishlist",
		"if time permits",
		// Spanish, Portuguese
		"fuera de alcance", "fuera del alcance", "no objetivos", "no hacer", "fora do escopo",
		"não objetivos", "nao objetivos", "não fazer", "nao fazer", "futuro", "trabajo futuro",
		"trabalho futuro",
		// French
		"hors périmètre", "hors perimetre", "hors sujet", "non-objectifs", "non objectifs", "à ne pas faire",
		"travaux futurs",
		// German
		"nicht im plan", "nicht im umfang", "nicht-ziele", "nicht ziele", "nichtziele", "außerhalb des umfangs",
		"bewusst nicht", "nicht tun", "später", "zukünftig", "zukunft",
		// Russian
		"вне рамок", "не входит", "не делать", "не цели", "нецели", "будущее", "позже",
		// Vietnamese
		"ngoài phạm vi", "không làm", "không phải mục tiêu", "tương lai",
	}
	excludeCJK = []string{
		"非目标", "不做", "范围外", "超出范围", "未来", "以后", "暂不", // Chinese
		"非目標", "対象外", "スコープ外", "やらない", "しない", "将来", "今後", // Japanese
		"비목표", "범위 외", "범위외", "하지 않", "제외", "향후", // Korean
	}
	contextWords = []string{
		// English
		"summary", "executive summary", "tl;dr", "tldr", "overview", "context", "background", "motivation",
		"problem", "problem statement", "findings", "key findings", "research", "assumptions", "risks",
		"risk", "risk mitigation", "mitigations", "open questions", "questions", "references", "reference",
		"resources", "links", "decision", "decisions", "decisions locked", "scope",
		"diagnosis", "current state", "current status", "status", "state", "constraints", "global constraints",
		"default", "defaults", "goal", "goals", "objective", "objectives", "purpose", "intent",
		"compatibility", "rationale", "approved", "principles", "guiding principles", "design", "architecture",
		"spec", "specification", "schema", "schemas", "data model", "interface", "interfaces",
		"contract", "contracts", "invariants", "examples", "example", "glossary", "terminology",
		"definitions", "conventions", "path conventions", "file structure", "file summary", "files",
		"file list", "file map", "files changed", "affected files", "key files", "key code anchors",
		"directory structure", "project structure", "structure", "inventory", "dependencies",
		"dependency", "ordering", "order", "execution order", "implementation order", "suggested order",
		"sequencing", "timeline", "schedule", "estimates", "estimate", "effort", "progress", "progress log",
		"log", "changelog", "change log", "history", "status log", "metrics", "targets", "edge cases",
		"trade-offs", "tradeoffs", "considerations", "lessons", "lessons learned", "appendix", "faq",
		"parallel opportunities", "parallel execution", "implementation strategy", "strategy",
		"approach", "chosen approach", "options", "what already exists", "existing", "prerequisites",
		"requirements", "format", "legend", "how to use", "usage", "tech stack", "stack", "mode",
		"see also",
		"original prompt", "prompt", "important", "caveats", "warnings", "rollback", "monitoring",
		"security considerations", "performance considerations", "what changes", "key decisions",
		"observations", "analysis", "notes and", "review", "self-review",
		// Spanish
		"resumen", "contexto", "antecedentes", "objetivo", "objetivos", "riesgos", "supuestos",
		"referencias", "decisiones", "principios", "restricciones", "arquitectura", "diseño",
		"dependencias", "cronograma", "estado actual", "preguntas abiertas", "alcance", "requisitos",
		// Portuguese
		"resumo", "visão geral", "visao geral", "premissas", "decisões", "decisoes", "restrições",
		"restricoes", "dependências", "dependencias", "ordem", "ordem sugerida", "cruzamento",
		"perguntas em aberto", "escopo", "requisitos", "arquitetura", "riscos",
		// French
		"résumé", "resume", "contexte", "objectif", "objectifs", "risques", "hypothèses", "hypotheses",
		"références", "decisions", "décisions", "contraintes", "architecture", "conception",
		"dépendances", "calendrier", "état actuel", "questions ouvertes", "périmètre", "perimetre",
		"principes", "exigences",
		// German
		"zusammenfassung", "überblick", "uberblick", "übersicht", "kontext", "hintergrund", "ziel",
		"ziele", "risiken", "annahmen", "referenzen", "entscheidungen", "leitprinzipien", "prinzipien",
		"einschränkungen", "architektur", "abhängigkeiten", "reihenfolge", "zeitplan", "ist-zustand",
		"aktueller stand", "offene fragen", "umfang", "anforderungen", "motivation",
		// Russian
		"контекст", "обзор", "резюме", "цели", "цель", "риски", "допущения", "предположения",
		"ссылки", "решения", "принципы", "ограничения", "архитектура", "зависимости", "порядок",
		"сроки", "текущее состояние", "текущий стек", "стек", "открытые вопросы", "требования",
		"как codex может", "структура", "предыстория",
		// Vietnamese
		"tóm tắt", "tổng quan", "bối cảnh", "mục tiêu", "rủi ro", "giả định", "tham khảo",
		"quyết định", "nguyên tắc", "ràng buộc", "kiến trúc", "phụ thuộc", "thứ tự", "lịch trình",
		"hiện trạng", "câu hỏi mở", "phạm vi", "yêu cầu", "thiết kế",
	}
	contextCJK = []string{
		// Chinese
		"概述", "概要", "总结", "摘要", "背景", "上下文", "目标", "目的", "风险", "假设", "参考", "决策",
		"原则", "约束", "限制", "架构", "设计", "依赖", "顺序", "时间线", "计划表", "现状", "当前状态",
		"开放问题", "问题", "范围", "需求", "格式", "说明", "结构", "技术栈", "并行", "策略", "路径约定",
		"附录",
		// Japanese
		"概要", "背景", "目的", "目標", "リスク", "前提", "参考", "決定", "方針", "原則", "制約", "構成",
		"設計", "依存", "順序", "スケジュール", "現状", "未解決", "課題", "範囲", "要件", "形式", "構造",
		"技術", "付録", "戦略",
		// Korean
		"개요", "요약", "배경", "목표", "목적", "위험", "리스크", "가정", "참고", "결정", "원칙", "제약",
		"아키텍처", "설계", "의존", "순서", "일정 개요", "현재 상태", "현황", "분석", "범위", "요구사항",
		"구조", "기술 스택", "전략",
	}
	notesWords = []string{
		"notes", "note", "remarks", "comments", "notas", "observações", "observacoes", "remarques",
		"anmerkungen", "hinweise", "notizen", "заметки", "примечания", "ghi chú", "lưu ý",
	}
	notesCJK   = []string{"备注", "注意", "注意事項", "メモ", "備考", "비고", "참고 사항", "주의"}
	checkWords = []string{
		// English
		"acceptance", "acceptance criteria", "acceptance checklist", "verification", "verification plan",
		"verify", "validation", "validate", "test plan", "tests", "test", "testing", "test checklist",
		"success criteria", "exit criteria", "done criteria", "definition of done", "dod", "checks",
		"checklist", "check", "qa", "quality gates", "smoke test", "manual testing", "manual test",
		"testing & verification", "testing and verification", "final verification", "self-check",
		"criteria", "completion criteria", "done when",
		// Spanish
		"criterios de aceptación", "criterios de aceptacion", "verificación", "verificacion",
		"validación", "validacion", "pruebas", "plan de pruebas", "criterios de éxito",
		// Portuguese
		"critérios de aceitação", "criterios de aceitacao", "verificação", "verificacao", "validação",
		"validacao", "testes", "plano de testes", "critérios de sucesso",
		// French
		"critères d'acceptation", "criteres d'acceptation", "vérification", "validation", "tests",
		"plan de test", "critères de succès",
		// German
		"akzeptanzkriterien", "abnahmekriterien", "verifizierung", "überprüfung", "validierung",
		"tests", "testplan", "erfolgskriterien", "prüfung",
		// Russian
		"критерии приемки", "критерии приёмки", "проверка", "верификация", "валидация", "тесты",
		"тестирование", "план тестирования", "критерии успеха", "критерии готовности",
		// Vietnamese
		"tiêu chí chấp nhận", "kiểm thử", "xác minh", "kiểm tra", "tiêu chí thành công",
	}
	checkCJK = []string{
		"验收", "验证", "测试", "完成条件", "完成标准", "检查", // Chinese
		"受け入れ", "検証", "テスト", "完成条件", "完了条件", "確認", // Japanese
		"수락 기준", "검증", "테스트", "완료 조건", "성공 기준", "체크리스트", "확인", // Korean
	}
	containerWords = []string{
		// English
		"changes", "key changes", "changes required", "proposed changes", "implementation",
		"implementation plan", "implementation outline", "implementation steps", "implementation summary",
		"plan", "the plan", "tasks", "task list", "todo", "to do", "to-do", "todos", "work", "work items",
		"steps", "next steps", "action items", "roadmap", "milestones", "phases", "deliverables",
		"backlog", "remaining work", "work plan", "execution plan", "rollout", "migration", "fixes",
		"frontend changes", "backend changes", "code changes", "changes to make",
		// Spanish
		"cambios", "implementación", "implementacion", "plan de implementación", "tareas", "pasos",
		"fases", "hoja de ruta", "entregables", "pendientes",
		// Portuguese
		"mudanças", "mudancas", "alterações", "alteracoes", "implementação", "implementacao",
		"plano de implementação", "tarefas", "passos", "etapas", "entregas", "pendências",
		// French
		"changements", "modifications", "mise en œuvre", "mise en oeuvre", "plan d'implémentation",
		"tâches", "taches", "étapes", "etapes", "feuille de route", "livrables", "à faire",
		// German
		"änderungen", "anderungen", "umsetzung", "umsetzungsplan", "implementierung", "aufgaben",
		"schritte", "phasen", "meilensteine", "arbeitspakete", "todo-liste",
		// Russian
		"изменения", "реализация", "план реализации", "план задач", "задачи", "шаги", "этапы",
		"фазы", "дорожная карта", "план работ", "план",
		// Vietnamese
		"thay đổi", "triển khai", "kế hoạch", "nhiệm vụ", "công việc", "các bước", "giai đoạn",
		"lộ trình",
	}
	containerCJK = []string{
		"任务", "实施", "实现", "步骤", "计划", "变更", "改动", "待办", "路线图", "阶段", // Chinese
		"タスク", "実装計画", "段階実装", "手順", "変更", "作業", "やること", "実施", "ロードマップ", // Japanese
		"작업", "구현", "단계", "계획", "변경", "할 일", "체크리스트 및", "실행 일정", "로드맵", // Korean
	}
	// taskPrefixes name one piece of work when a number follows them
	// ("Task 3", "Step 1.2", "Stufe 4", "Фаза 2", "단계 1", "ステップ2").
	taskPrefixes = []string{
		"task", "step", "stage", "phase", "milestone", "item", "change", "fix", "pr", "sprint",
		"stufe", "schritt", "aufgabe", "étape", "etape", "tâche", "tache", "paso",
		"tarea", "fase", "etapa", "tarefa", "passo", "этап", "шаг", "фаза", "задача", "bước",
		"giai đoạn", "nhiệm vụ", "단계", "작업", "스텝", "ステップ", "タスク", "フェーズ", "段階",
		"步骤", "任务", "阶段", "第",
	}
)

// normalizeLabel prepares heading or lead-in text for the word lists:
// emphasis, code and link markup removed, leading symbols (emoji, "✅")
// and a leading number dropped, a trailing ':' and a parenthetical dropped,
// lower-cased. It also reports whether a number led the text.
func normalizeLabel(text string) (string, bool) {
	s := plainTitle(text)
	s = strings.TrimLeftFunc(s, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
	n := stripLabelNumber(s)
	numbered := n != s
	if !numbered {
		// "1)" and "1:" and a number alone before a dash are numbers too.
		i := digits(s, 0)
		if i > 0 && i < len(s) && (s[i] == ')' || s[i] == ':') {
			n, numbered = trimSpace(s[i+1:]), true
		}
	}
	s = n
	s = strings.TrimLeft(s, "-–—: ")
	if i := strings.IndexAny(s, "(（"); i > 0 {
		s = s[:i]
	}
	s = strings.TrimRightFunc(s, func(r rune) bool {
		return unicode.IsSpace(r) || r == ':' || r == '：' || r == '.' || r == '!' || r == '?'
	})
	return strings.ToLower(s), numbered
}

// classify returns the class of a heading's text. An exclusion word
// anywhere wins (a "do not" list is never work). Otherwise the head of the
// phrase decides: in Latin and Cyrillic script the last word ("Implementation
// order" is an ordering, "Frontend changes" a work list), else the first; in
// CJK the word that ends last ("確認コマンド方針" is a policy). A check word
// before a generic work-list head still makes a check section ("Test plan").
func classify(text string) class {
	s, _ := normalizeLabel(text)
	if s == "" {
		return clsPlain
	}
	cjk := hasCJK(s)
	if startsWith(s, excludeWords) || endsWith(s, excludeWords) || cjk && containsAny(s, excludeCJK) || excludedAside(text) {
		return clsExclude
	}
	if cjk {
		best, bestEnd := clsPlain, -1
		for _, l := range classLists {
			if e := lastCJK(s, l.cjk); e > bestEnd {
				best, bestEnd = l.c, e
			}
		}
		if bestEnd >= 0 {
			return best
		}
	}
	head, first := wordIndex().match(s)
	switch {
	case head == clsContainer && first == clsCheck:
		return clsCheck
	case head != clsPlain:
		return head
	case first != clsPlain:
		return first
	}
	if isContextLabel(text) {
		return clsContext
	}
	return clsPlain
}

// classLists are the word lists of classify, in the order that breaks ties.
var classLists = []struct {
	c          class
	words, cjk []string
}{{clsNotes, notesWords, notesCJK}, {clsCheck, checkWords, checkCJK},
	{clsContainer, containerWords, containerCJK}, {clsContext, contextWords, contextCJK}}

// wordEntry is one word of classLists with its class and list order.
type wordEntry struct {
	w     string
	c     class
	order int
}

// wordIdx buckets the Latin and Cyrillic words of classLists by first and
// by last byte: classify runs on every heading, and most buckets are short.
type wordIdx struct{ byFirst, byLast [256][]wordEntry }

var wordIndex = sync.OnceValue(func() *wordIdx {
	x := &wordIdx{}
	for order, l := range classLists {
		for _, w := range l.words {
			e := wordEntry{w, l.c, order}
			x.byFirst[w[0]] = append(x.byFirst[w[0]], e)
			x.byLast[w[len(w)-1]] = append(x.byLast[w[len(w)-1]], e)
		}
	}
	return x
})

// match returns the class of the earliest list with a word s ends with
// (head) and with a word s starts with (first), at word boundaries.
func (x *wordIdx) match(s string) (head, first class) {
	ho, fo := len(classLists), len(classLists)
	for _, e := range x.byLast[s[len(s)-1]] {
		if e.order < ho && strings.HasSuffix(s, e.w) && (len(s) == len(e.w) || !isLetterBefore(s, len(s)-len(e.w))) {
			head, ho = e.c, e.order
		}
	}
	for _, e := range x.byFirst[s[0]] {
		if e.order < fo && strings.HasPrefix(s, e.w) && (len(s) == len(e.w) || !isLetterAt(s, len(e.w))) {
			first, fo = e.c, e.order
		}
	}
	return head, first
}

// hasCJK reports whether s holds a character of the CJK, kana or hangul
// blocks (all encoded in 3 bytes from 0xE3 on), which the CJK lists need.
func hasCJK(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0xE3 && s[i] <= 0xED {
			return true
		}
	}
	return false
}

// classifyLeadIn is classify for a lead-in paragraph ("Files:", "Not
// adopted:"): stricter, as a lead-in is a phrase, not a heading; only its
// first words count ("In order:" is not an ordering section).
func classifyLeadIn(text string) class {
	s, _ := normalizeLabel(text)
	if s == "" {
		return clsPlain
	}
	if startsWith(s, excludeWords) || containsAny(s, excludeCJK) {
		return clsExclude
	}
	for _, l := range []struct {
		c          class
		words, cjk []string
	}{{clsNotes, notesWords, notesCJK}, {clsCheck, checkWords, checkCJK}, {clsContext, contextWords, contextCJK}} {
		if startsWith(s, l.words) || (containsAny(s, l.cjk) && s == strings.TrimSpace(s)) {
			return l.c
		}
	}
	return clsPlain
}

// excludedAside reports whether a heading's parenthetical says it is not
// work: "v2.0+ (Ideas)", "Hardening (not required)".
func excludedAside(text string) bool {
	i := strings.IndexAny(text, "(（")
	if i < 0 {
		return false
	}
	aside := strings.ToLower(strings.Trim(strings.TrimSpace(text[i:]), "()（） "))
	return aside != "" && (startsWith(aside, excludeWords) || endsWith(aside, excludeWords))
}

// lastCJK returns the byte offset where the last-ending CJK word of words
// ends in s, or -1.
func lastCJK(s string, words []string) int {
	end := -1
	for _, w := range words {
		if i := strings.LastIndex(s, w); i >= 0 && i+len(w) > end {
			end = i + len(w)
		}
	}
	return end
}

// namesTask reports whether a heading names one piece of work by its form:
// a leading number ("3. Update the model", "1.2 Cache", "2) Docs") or a task
// word and a number ("Task 3:", "Step 1.2 —", "Stufe 4", "Phase 2").
//
// It also reports whether a task word led the number.
func namesTask(text string) (task, keyword bool) {
	s := strings.ToLower(plainTitle(text))
	s = strings.TrimLeftFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	if i := digits(s, 0); i > 0 {
		return true, false
	}
	for _, p := range taskPrefixes {
		if !strings.HasPrefix(s, p) {
			continue
		}
		rest := strings.TrimLeft(s[len(p):], " \t#№.-")
		sep := len(rest) < len(s)-len(p)
		// "Task 3", "Step 1.2", "Phase A:" ("Items" is not "Item s").
		letter := sep && len(rest) > 0 && rest[0] >= 'a' && rest[0] <= 'z' && (len(rest) == 1 || rest[1] < 'a' || rest[1] > 'z')
		if r, _ := utf8.DecodeRuneInString(rest); r >= '0' && r <= '9' || letter || strings.ContainsRune("一二三四五六七八九十", r) {
			return true, true
		}
	}
	return false, false
}

// endsWith reports whether s ends with one of words at a word boundary.
func endsWith(s string, words []string) bool {
	return slices.ContainsFunc(words, func(w string) bool {
		return strings.HasSuffix(s, w) && (len(s) == len(w) || !isLetterBefore(s, len(s)-len(w)))
	})
}

// startsWith reports whether s starts with one of words at a word boundary.
func startsWith(s string, words []string) bool {
	return slices.ContainsFunc(words, func(w string) bool {
		return strings.HasPrefix(s, w) && (len(s) == len(w) || !isLetterAt(s, len(w)))
	})
}

func containsAny(s string, words []string) bool {
	return slices.ContainsFunc(words, func(w string) bool { return strings.Contains(s, w) })
}

func isLetterAt(s string, i int) bool {
	r, _ := utf8.DecodeRuneInString(s[i:])
	return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_'
}

func isLetterBefore(s string, i int) bool {
	r, _ := utf8.DecodeLastRuneInString(s[:i])
	return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_'
}

// doNotPrefixes start a bullet that forbids rather than asks ("Do not touch
// the schema"): such a bullet is never a plan item.
var doNotPrefixes = []string{
	"do not ", "don't ", "dont ", "never ", "must not ", "should not ", "avoid ", "no need to ",
	"не ", "нельзя ", "nicht ", "keine ", "kein ", "não ", "nao ", "ne pas ", "ne jamais ",
	"jamais ", "không ", "đừng ", "不要", "禁止", "しない", "하지 마", "금지",
}

// isDoNot reports whether a subject forbids something. It runs on every
// bullet, so markup is skipped by hand (leading emphasis, code and link
// brackets) instead of by the inline parser.
func isDoNot(subject string) bool {
	s := strings.TrimLeft(subject, "*_~`[ \t")
	return slices.ContainsFunc(doNotPrefixes, func(p string) bool { return len(s) >= len(p) && strings.EqualFold(s[:len(p)], p) })
}

// stateWords name a section that records the state of things: its
// checkboxes say what was done or found, they are not work.
var (
	stateWords = []string{"current state", "current status", "status", "state of", "progress", "progress log",
		"done", "completed", "changelog", "change log", "history", "log", "estado actual", "état actuel",
		"ist-zustand", "aktueller stand", "текущее состояние", "hiện trạng"}
	stateCJK = []string{"现状", "当前状态", "進捗", "現状", "현재 상태", "현황", "완료된"}
)

// isStateLabel reports whether a heading names a state or log section.
func isStateLabel(text string) bool {
	s, _ := normalizeLabel(text)
	return startsWith(s, stateWords) || containsAny(s, stateCJK)
}
