package planparse

import (
	"cmp"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// kind is what a heading's text (or a lead-in's) says about its section when
// the text is a section label, as docs/PLAN-FORMAT.md "Sections" lists them.
// A label decides only when it is the whole text, the text with modifiers
// before it ("Key findings", "Critical files") or with a qualifier after it
// ("Risks and mitigations", "Notes on rollout"); a heading such as "Design
// the API" or "Update the changelog" is not a label, whatever word it starts
// or ends with.
type kind uint8

const (
	kPlain    kind = iota // not a label: the heading names work, or a topic
	kExclude              // non-goals, out of scope, future, ideas: never work, not even a checkbox
	kContext              // summary, background, reference, design, files, order, risks: not work
	kStatus               // the current state: a record, not work, but its checkboxes are work to tick
	kLog                  // progress, changelog, history: plain bullets are a log, checkboxes done work
	kNotes                // notes and remarks
	kCriteria             // acceptance, success or exit criteria: each bullet is an item
	kVerify               // verification and tests: each bullet is a check to run
	kTasks                // an explicit tick-off list: tasks, todo, in progress, and done (done work still counts)
	kWork                 // a list of work: changes, implementation, steps, plan, milestones
)

// skips reports whether a section with this label gives no items from its
// plain bullets.
func (k kind) skips() bool { return k >= kExclude && k <= kNotes }

// checks reports whether each bullet of the section is a check to run.
func (k kind) checks() bool { return k == kCriteria || k == kVerify }

// lists reports whether the label names a list of work or checks.
func (k kind) lists() bool { return k >= kCriteria }

// labelWords are the section labels, lower case, one table per language
// and class. The English words are the ones coding agents' own plan formats
// use (Summary, Context, Key Changes, Test Plan, Assumptions, Verification,
// Critical files, Progress, Decision Log, Non-goals) and that plan writers
// use for the same kinds of section; the other languages have the same
// kinds of section, not translations of every word.
var labelWords = map[kind][]string{
	kExclude: {
		"non goals", "nongoals", "non-goal", "out of scope", "out-of-scope", "not in scope",
		"won't do", "wont do", "will not do", "not doing", "not adopted", "rejected", "rejected alternatives",
		"alternatives", "alternatives considered", "do not", "don't", "dont",
		"anti-goals", "exclusions", "excluded", "not included", "future", "future work", "future plans",
		"future enhancements", "future improvements", "future ideas", "future considerations",
		"later", "someday", "ideas", "wishlist", "wish list", "parking lot", "icebox", "nice to have",
		"nice-to-have", "stretch goals", "not planned", "possible future",
		// es, pt, fr, de, ru, vi, pl, tr, it
		"fuera de alcance", "fuera del alcance", "no objetivos", "trabajo futuro", "futuro",
		"fora do escopo", "não objetivos", "nao objetivos", "trabalho futuro",
		"hors périmètre", "hors perimetre", "hors sujet", "non-objectifs", "travaux futurs", "idées",
		"nicht im plan", "nicht im umfang", "nicht-ziele", "nichtziele", "außerhalb des umfangs", "später", "zukunft",
		"вне рамок", "не входит", "не цели", "нецели", "будущее", "позже",
		"ngoài phạm vi", "không làm", "tương lai",
		"poza zakresem", "kapsam dışı", "fuori ambito",
		// zh, ja, ko
		"非目标", "非目標", "不做", "范围外", "範圍外", "超出范围", "未来", "未來", "以后", "暂不", "後續",
		"対象外", "スコープ外", "やらないこと", "将来", "今後",
		"비목표", "범위 외", "범위외", "제외", "향후",
	},
	kContext: {
		"summary", "executive summary", "tl;dr", "tldr", "overview", "introduction", "context", "background", "motivation",
		"problem", "problem statement", "the problem", "why", "goal", "objective",
		"purpose", "intent", "scope", "research", "assumptions", "risk", "mitigations",
		"questions", "reference", "resources", "links", "see also", "decision",
		"rationale", "principles", "constraints", "compatibility", "approved", "default",
		"glossary", "terminology", "definitions", "conventions", "appendix", "faq",
		"example", "architecture", "design", "specification", "spec",
		"files", "file structure", "file map", "file list", "project structure", "directory structure",
		"dependencies", "dependency", "prerequisites", "order", "ordering", "sequencing", "sequence",
		"timeline", "schedule", "estimate", "effort", "metrics", "kpis", "targets",
		"edge cases", "trade-offs", "tradeoffs", "considerations", "limitations", "known issues",
		"lessons", "lessons learned", "caveats", "tech stack", "stack", "technology stack", "legend",
		"format", "usage", "how to use", "how it works", "prompt", "original prompt", "request",
		"user request", "user review required", "rollback", "rollback plan", "expected result",
		"expected outcome", "outcome", "results", "reuse", "what already exists", "self-review", "plan review", "behavior", "behaviour", "requirements",
		"surprises & discoveries", "surprises and discoveries", "outcomes & retrospective",
		"outcomes and retrospective", "idempotence and recovery", "artifacts and notes", "concrete steps",
		"purpose / big picture", "context and orientation",
		// es, pt, fr, de, ru, vi, pl, tr, it
		"resumen", "contexto", "antecedentes", "objetivo", "objetivos", "riesgos", "supuestos",
		"referencias", "decisiones", "principios", "restricciones", "arquitectura", "diseño",
		"dependencias", "cronograma", "alcance", "requisitos", "motivación",
		"resumo", "visão geral", "visao geral", "premissas", "decisões", "decisoes", "restrições",
		"dependências", "escopo", "arquitetura", "riscos", "objetivo",
		"résumé", "contexte", "objectif", "objectifs", "risques", "hypothèses", "références",
		"décisions", "contraintes", "conception", "dépendances", "calendrier", "périmètre", "principes",
		"exigences", "revue utilisateur requise",
		"zusammenfassung", "überblick", "übersicht", "kontext", "hintergrund", "ziel", "ziele",
		"risiken", "annahmen", "referenzen", "entscheidungen", "leitprinzipien", "prinzipien",
		"einschränkungen", "architektur", "abhängigkeiten", "reihenfolge", "zeitplan", "anforderungen",
		"контекст", "обзор", "резюме", "цели", "цель", "риски", "допущения", "предположения",
		"ссылки", "решения", "принципы", "ограничения", "архитектура", "зависимости", "порядок",
		"сроки", "требования", "предыстория",
		"tóm tắt", "tổng quan", "bối cảnh", "mục tiêu", "rủi ro", "giả định", "tham khảo",
		"quyết định", "nguyên tắc", "ràng buộc", "kiến trúc", "phụ thuộc", "thứ tự", "lịch trình",
		"phạm vi", "yêu cầu", "thiết kế",
		"podsumowanie", "kontekst", "cel", "cele", "ryzyka", "założenia", "zależności",
		"özet", "bağlam", "amaç", "hedefler", "riskler", "varsayımlar", "bağımlılıklar",
		"sommario", "contesto", "obiettivi", "rischi", "dipendenze", "orden", "ordem", "ordre", "ordine",
		"baseline", "baseline-status", "baseline status",
		// zh (simplified and traditional), ja, ko
		"概述", "概要", "总结", "總結", "摘要", "背景", "上下文", "目标", "目標", "目的", "风险", "風險",
		"假设", "假設", "参考", "參考", "决策", "決策", "原则", "原則", "约束", "約束", "限制", "架构",
		"架構", "设计", "設計", "依赖", "依賴", "顺序", "順序", "时间线", "時間線", "需求", "说明",
		"說明", "原因", "交付物", "交付成果", "产出物", "評分標準", "评分标准", "评分", "评分细则", "结构", "結構", "技术栈", "技術棧", "附录", "附錄", "问题", "問題", "现有", "文件清单",
		"前提", "決定", "方針", "制約", "構成", "依存", "スケジュール", "課題", "範囲", "要件", "構造",
		"技術スタック", "付録", "リスク", "参考資料",
		"개요", "요약", "배경", "목표", "목적", "위험", "리스크", "가정", "참고", "결정", "원칙",
		"제약", "아키텍처", "설계", "의존성", "순서", "일정", "범위", "요구사항", "구조",
	},
	kStatus: {
		"current state", "current status", "status", "state", "current situation", "status quo",
		"findings", "diagnosis", "analysis", "audit", "audit results",
		"estado actual", "situação atual", "état actuel", "ist-zustand", "aktueller stand",
		"текущее состояние", "hiện trạng", "stan obecny", "mevcut durum",
		"现状", "現狀", "当前状态", "當前狀態", "現状", "현재 상태", "현황", "분석", "现状分析",
	},
	kLog: {
		"changelog", "change log", "history", "log",
		"progress", "progress log", "work log", "activity log", "decision log", "progress notes",
		"bitácora", "fortschritt", "änderungsprotokoll", "журнал", "прогресс", "ilerleme",
		"进度", "進度", "变更记录", "變更記錄", "更新日志", "進捗", "変更履歴", "진행 상황", "변경 이력",
	},
	kNotes: {
		"note", "remarks", "comments", "tips", "reminders", "warnings",
		"notas", "observações", "remarques", "anmerkungen", "hinweise", "notizen", "заметки",
		"примечания", "ghi chú", "lưu ý", "uwagi", "notlar", "note tecniche",
		"备注", "備註", "注意", "注意事项", "注意事項", "メモ", "備考", "비고", "참고 사항", "주의",
	},
	kCriteria: {
		"acceptance criteria", "acceptance", "acceptance checklist", "success criteria", "exit criteria",
		"completion criteria", "done criteria", "definition of done", "dod", "done when", "gate",
		"quality gates", "exit gate", "exit", "criteria", "checkpoint",
		"criterios de aceptación", "criterios de aceptacion", "criterios de éxito",
		"critérios de aceitação", "criterios de aceitacao", "critérios de sucesso",
		"critères d'acceptation", "critères de succès", "akzeptanzkriterien", "abnahmekriterien",
		"erfolgskriterien", "критерии приемки", "критерии приёмки", "критерии успеха",
		"критерии готовности", "tiêu chí chấp nhận", "tiêu chí thành công", "kryteria akceptacji",
		"kabul kriterleri", "criteri di accettazione",
		"验收", "验收标准", "驗收", "驗收標準", "完成条件", "完成标准", "完成標準", "检查点", "檢查點",
		"受け入れ条件", "受け入れ基準", "完了条件", "完成条件", "수락 기준", "완료 조건", "성공 기준",
		"인수 조건",
	},
	kVerify: {
		"verification", "verify", "validation", "validate", "test plan", "testing plan", "test",
		"testing", "test cases", "test checklist", "checks", "checklist", "smoke test",
		"qa", "quality assurance", "self-check", "test scenarios", "test strategy",
		"testing strategy", "how to verify", "how to test", "verification steps",
		"verificación", "verificacion", "validación", "pruebas", "plan de pruebas", "verificação",
		"validação", "testes", "plano de testes", "vérification", "plan de test", "verifizierung",
		"überprüfung", "validierung", "testplan", "prüfung", "проверка", "верификация", "валидация",
		"тесты", "тестирование", "план тестирования", "kiểm thử", "xác minh", "kiểm tra",
		"weryfikacja", "testy", "doğrulama", "testler", "verifica",
		"验证", "驗證", "测试", "測試", "检查", "檢查", "检查清单", "測試計畫", "测试计划", "验证计划", "検証",
		"検証計画", "検証手順", "テスト計画", "확인 사항", "검증 계획", "테스트 계획",
		"テスト", "確認", "검증", "테스트", "체크리스트", "확인",
	},
	kTasks: {
		"tasks", "task list", "todo", "to do", "to-do", "todo list", "action items",
		"work items", "open tasks", "in progress", "done", "completed", "finished", "completed work",
		"hecho", "completado", "concluído", "feito", "terminé", "erledigt", "готово", "сделано",
		"выполнено", "đã xong", "hoàn thành", "tamamlanan", "已完成", "完成", "完了", "완료", "완료된 작업", "next", "next up", "up next", "now", "current focus",
		"planned", "upcoming", "pending", "remaining", "not started", "doing", "open items",
		"en curso", "pendiente", "em andamento", "pendente", "en cours", "in arbeit", "offen", "в работе",
		"đang làm", "进行中", "未完成", "待完成", "進行中", "未着手", "진행 중", "예정", "미완료", "tareas", "tarefas", "tâches", "aufgaben", "задачи", "nhiệm vụ",
		"zadania", "görevler", "attività",
		"任务", "任務", "任务清单", "任務清單", "待办", "待辦", "待办事项", "タスク", "タスクリスト",
		"やること", "작업", "할 일", "작업 목록",
	},
	kWork: {
		"changes", "implementation", "implementation plan", "implementation steps", "implementation details",
		"plan", "the plan", "plan of work", "work plan", "execution plan", "action plan", "steps",
		"next steps", "roadmap", "milestones", "phases", "deliverables", "backlog",
		"work", "rollout", "fixes", "approach", "solution", "proposal", "workstreams", "scope of work",
		"cambios", "implementación", "implementacion", "plan de implementación", "pasos", "fases",
		"hoja de ruta", "entregables", "pendientes", "mudanças", "alterações", "implementação",
		"plano de implementação", "passos", "etapas", "entregas", "changements", "modifications",
		"mise en œuvre", "mise en oeuvre", "étapes", "feuille de route", "livrables", "änderungen",
		"umsetzung", "umsetzungsplan", "implementierung", "schritte", "phasen", "meilensteine",
		"arbeitspakete", "изменения", "реализация", "план реализации", "шаги", "этапы", "план работ",
		"план", "thay đổi", "triển khai", "kế hoạch", "các bước", "lộ trình", "zmiany", "kroki",
		"plan wdrożenia", "değişiklikler", "uygulama", "adımlar", "modifiche", "implementazione",
		"实施", "實施", "实现", "實現", "步骤", "步驟", "计划", "計畫", "計劃", "变更", "變更", "改动",
		"路线图", "路線圖", "实施计划", "實施計畫", "里程碑", "交付", "实施步骤",
		"実装", "実装計画", "手順", "変更", "作業", "計画", "ロードマップ", "変更内容", "修正内容",
		"구현", "단계", "계획", "변경", "변경 사항", "실행 계획", "로드맵", "구현 계획",
	},
}

// headFirst are the labels of languages that put the head of a phrase
// first (Spanish, Portuguese, French, Italian, Vietnamese, Polish): there a
// label at the start, at a word boundary, names the section ("Ordem
// sugerida de implementação" is an order, "Rủi ro kỹ thuật" risks).
var headFirst = map[string]bool{}

func init() {
	for _, w := range []string{
		"fuera de alcance", "fuera del alcance", "no objetivos", "trabajo futuro", "futuro", "fora do escopo",
		"não objetivos", "nao objetivos", "trabalho futuro", "hors périmètre", "hors perimetre", "non-objectifs",
		"travaux futurs", "ngoài phạm vi", "tương lai", "poza zakresem", "fuori ambito",
		"resumen", "contexto", "antecedentes", "objetivo", "objetivos", "riesgos", "supuestos", "referencias",
		"decisiones", "principios", "restricciones", "arquitectura", "diseño", "dependencias", "cronograma",
		"alcance", "requisitos", "resumo", "visão geral", "premissas", "decisões", "restrições", "dependências",
		"escopo", "arquitetura", "riscos", "résumé", "contexte", "objectif", "objectifs", "risques",
		"hypothèses", "références", "décisions", "contraintes", "conception", "dépendances", "calendrier",
		"périmètre", "principes", "exigences", "tóm tắt", "tổng quan", "bối cảnh", "mục tiêu", "rủi ro",
		"giả định", "tham khảo", "quyết định", "nguyên tắc", "ràng buộc", "kiến trúc", "phụ thuộc", "thứ tự",
		"lịch trình", "phạm vi", "yêu cầu", "thiết kế", "podsumowanie", "ryzyka", "założenia", "zależności",
		"sommario", "contesto", "obiettivi", "rischi", "dipendenze", "orden", "ordem", "ordre", "ordine",
		"estado actual", "situação atual", "état actuel", "hiện trạng", "stan obecny",
		"notas", "observações", "remarques", "ghi chú", "lưu ý", "uwagi", "note tecniche",
		"criterios de aceptación", "critérios de aceitação", "critères d'acceptation", "tiêu chí chấp nhận",
		"verificación", "validación", "pruebas", "verificação", "validação", "testes", "vérification", "kiểm thử",
		"kiểm tra", "weryfikacja", "testy", "verifica",
	} {
		headFirst[w] = true
	}
}

// labelModifiers may stand before a label without changing what it names:
// "Key findings", "Critical files", "Proposed changes", "Final verification".
var labelModifiers = []string{
	"key", "main", "major", "important", "critical", "technical", "design", "project", "general",
	"high-level", "overall", "open", "known", "current", "additional", "other", "final", "related",
	"relevant", "affected", "modified", "existing", "brief", "quick", "detailed", "implementation",
	"product", "functional", "non-functional", "security", "performance", "manual", "automated",
	"unit", "integration", "e2e", "end-to-end", "proposed", "recommended", "suggested", "planned",
	"immediate", "remaining", "core", "initial", "full", "complete", "execution",
	"success", "risk", "test", "testing", "code", "phase", "task", "milestone", "feature", "epic", "story", "dev", "file",
	"developer",
}

// qualifiers may follow a label and narrow it: "Risks and mitigations",
// "Notes on rollout", "Summary of changes", "Files to modify", "Tests:".
var qualifiers = []string{
	" and ", " & ", " / ", "/", ", ", " + ", " or ", " on ", " for ", " of ", " in ", " to ", " with ",
	" from ", ": ", " - ", " — ", " – ", " vs ", " y ", " e ", " et ", " und ", " и ", " và ", " i ",
	" ve ", " de ", " du ", " des ", " der ", " für ", " для ", " por ", " para ", " pour ", " po ",
	"与", "和", "及", "、", "・", "/", "＆", "と", "및", "과 ", "와 ", "·", "（",
}

// determiners in a heading make it a phrase that names work ("Update the
// changelog"), never a label with modifiers.
var determiners = map[string]bool{"the": true, "a": true, "an": true, "this": true, "that": true,
	"our": true, "my": true, "your": true, "all": true, "each": true, "every": true, "its": true,
	// A phrase with a question word is a clause ("What works", "How it
	// fits"), not a noun phrase whose last word is its head.
	"what": true, "what's": true, "how": true, "why": true, "which": true, "where": true, "who": true}

// labelIndex maps each label to its kind.
var labelIndex = sync.OnceValue(func() map[string]kind {
	m := map[string]kind{}
	for k, ws := range labelWords {
		for _, w := range ws {
			if _, dup := m[w]; !dup || k > m[w] {
				m[w] = k
			}
		}
	}
	return m
})

var modifierSet = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, w := range labelModifiers {
		m[w] = true
	}
	return m
})

// labelKind returns the kind of a normalised heading or lead-in text
// (normLabel): a label alone, after modifiers, or followed by a qualifier.
// A list or check label also counts as the head of a short phrase
// ("Deployment checks", "Frontend changes"), as such a phrase never names
// a section that is not work, and so does a non-goal label of two words
// or more ("Explicitly out of scope").
func labelKind(s string) kind {
	k, _ := labelKindBy(s)
	return k
}

// labelKindBy is labelKind, and also reports whether only the first word
// of a phrase made it a non-goal ("Later capabilities", "Future
// expansion"): then what the section holds may still say it is a planned
// horizon (topics.go).
func labelKindBy(s string) (_ kind, later bool) {
	if s == "" {
		return kPlain, false
	}
	idx := labelIndex()
	if k, ok := lookupLabel(idx, s); ok {
		return k, false
	}
	if k := prefixLabel(s, idx); k != kPlain {
		return k, false
	}
	// Modifiers before a label: "key findings", "critical files".
	rest, mods := s, 0
	for {
		w, tail, ok := strings.Cut(rest, " ")
		if !ok || !modifierSet()[w] {
			break
		}
		rest, mods = tail, mods+1
	}
	if mods > 0 {
		if k, ok := lookupLabel(idx, rest); ok {
			return k, false
		}
		if k := prefixLabel(rest, idx); k != kPlain {
			return k, false
		}
	}
	if hasCJK(s) {
		return cjkLabel(s, idx), false
	}
	// A head-first language's label at the start, at a word boundary.
	if k := headFirstLabel(s, idx); k != kPlain {
		return k, false
	}
	// "Later capabilities", "Future improvements": what is later is not
	// work, whatever it is.
	if w, _, ok := strings.Cut(s, " "); ok && (w == "later" || w == "future" || w == "someday") {
		return kExclude, true
	}
	// The head of a short phrase: "deployment checks", "admin tasks".
	words := strings.Count(s, " ") + 1
	if words < 2 || words > 4 || strings.Contains(s, "  ") {
		return kPlain, false
	}
	for w := range strings.SplitSeq(s, " ") {
		if determiners[w] {
			return kPlain, false
		}
	}
	for i, n := 0, words; n > 1; n-- {
		i += strings.IndexByte(s[i:], ' ') + 1
		if k, ok := singularLabel(idx, s[i:]); ok && (k.lists() || k == kExclude && n > 2) {
			return k, false
		}
	}
	return kPlain, false
}

// lookupLabel returns the kind of label w, or of w in the other number
// when w ends in a Latin letter: "target" is a label as "targets" is,
// "fix" as "fixes", "deliverable" as "deliverables"; so the tables hold
// one number of each word.
func lookupLabel(idx map[string]kind, w string) (kind, bool) {
	if k, ok := idx[w]; ok {
		return k, true
	}
	if w == "" || !isWordByte(w[len(w)-1]) {
		return kPlain, false
	}
	sibilant := func(v string) bool {
		return strings.HasSuffix(v, "s") || strings.HasSuffix(v, "x") || strings.HasSuffix(v, "z") ||
			strings.HasSuffix(v, "ch") || strings.HasSuffix(v, "sh")
	}
	var alts [2]string
	if stem, ok := strings.CutSuffix(w, "es"); ok && sibilant(stem) {
		alts[0] = stem // "fixes", "boxes"
	} else if stem, ok := strings.CutSuffix(w, "s"); ok && !strings.HasSuffix(stem, "s") {
		alts[0] = stem // "targets", not "progress"
	}
	if sibilant(w) {
		alts[1] = w + "es"
	} else {
		alts[1] = w + "s"
	}
	for _, alt := range alts {
		if alt == "" {
			continue
		}
		if k, ok := idx[alt]; ok {
			return k, true
		}
	}
	return kPlain, false
}

// singularLabel returns the kind of label w, or of the singular of plural
// w ("deployment tests" ends in a label as "deployment test" does; but
// "workflow per phase" does not end in "phases").
func singularLabel(idx map[string]kind, w string) (kind, bool) {
	if k, ok := idx[w]; ok {
		return k, true
	}
	if !strings.HasSuffix(w, "s") {
		return kPlain, false
	}
	return lookupLabel(idx, w)
}

// headFirstLabel returns the kind of the longest head-first label that s
// starts with, followed by a space.
func headFirstLabel(s string, idx map[string]kind) kind {
	// The prefixes of one to four words that a word follows, longest
	// first, cut from s itself (no words slice: this runs on every label).
	var ends [4]int
	n := 0
	for i := 0; i < len(s) && n < len(ends); i++ {
		if s[i] == ' ' && i > 0 && s[i-1] != ' ' {
			ends[n] = i
			n++
		}
	}
	for n--; n >= 0; n-- {
		if w := s[:ends[n]]; headFirst[w] {
			return idx[w]
		}
	}
	return kPlain
}

// seedKinds are the kinds of rpiv's context labels (labels.go), which match
// as a prefix at a word boundary as rpiv matches them: "Summary of the
// work", "Notes for reviewers". Success criteria are checks here, as the
// plans planls reads tick them off.
var seedKinds = map[string]kind{
	"not adopted": kExclude, "non-goals": kExclude, "out of scope": kExclude, "alternatives": kExclude,
	"alternatives considered": kExclude, "rejected": kExclude, "notes": kNotes, "current state": kStatus,
	"diagnosis": kStatus, "findings": kStatus, "key findings": kStatus, "success criteria": kCriteria,
}

// seedKind returns the kind of the rpiv context label text starts with, or
// kPlain.
func seedKind(text string) kind {
	l := seedLabel(text)
	if l == "" {
		return kPlain
	}
	if k, ok := seedKinds[l]; ok {
		return k
	}
	return kContext
}

// prefixLabel returns the kind of the longest label s starts with when a
// qualifier follows it.
func prefixLabel(s string, idx map[string]kind) kind {
	qs := qualifierIndex()
	for i := len(s) - 1; i > 0; i-- {
		for _, q := range qs[s[i]] {
			if strings.HasPrefix(s[i:], q) {
				if k, ok := lookupLabel(idx, strings.TrimSpace(s[:i])); ok {
					// "Edge cases and acceptance": a section that joins
					// checks or work to context holds that work.
					if j, ok := lookupLabel(idx, strings.TrimSpace(s[i+len(q):])); ok && (conjunctions[q] && (k == kContext || k == kNotes) && j.lists() ||
						k == kWork && j.checks()) {
						// "Plan de vérification": a plan of checks is a
						// checks section.
						return j
					}
					return k
				}
				break
			}
		}
	}
	return kPlain
}

// conjunctions are the qualifiers that join a second label to the first
// ("Edge cases and acceptance"), where the others narrow it ("Notes on
// rollout").
var conjunctions = map[string]bool{" and ": true, " & ": true, " / ": true, "/": true, " + ": true, ", ": true,
	" y ": true, " e ": true, " et ": true, " und ": true, " и ": true, " và ": true, " i ": true, " ve ": true,
	"与": true, "和": true, "及": true, "、": true, "＆": true, "と": true, "및": true, "과 ": true, "와 ": true, "·": true}

// qualifierIndex buckets the qualifiers by their first byte.
var qualifierIndex = sync.OnceValue(func() *[256][]string {
	var x [256][]string
	for _, q := range qualifiers {
		x[q[0]] = append(x[q[0]], q)
	}
	return &x
})

// cjkLabel reads a CJK heading, which has no spaces between words and puts
// the head of a compound last ("タスク概要" is an overview, "任务清单" a
// task list): the longest label it ends with decides.
func cjkLabel(s string, idx map[string]kind) kind {
	t := strings.ReplaceAll(s, " ", "")
	r, _ := utf8.DecodeLastRuneInString(t)
	for _, w := range cjkByLastRune()[r] {
		if strings.HasSuffix(t, w) {
			return idx[w]
		}
	}
	return kPlain
}

// cjkByLastRune lists the CJK labels by their last character, longest
// first.
var cjkByLastRune = sync.OnceValue(func() map[rune][]string {
	m := map[rune][]string{}
	for w := range labelIndex() {
		if hasCJK(w) {
			r, _ := utf8.DecodeLastRuneInString(w)
			m[r] = append(m[r], w)
		}
	}
	for _, ws := range m {
		slices.SortFunc(ws, func(a, b string) int { return cmp.Or(len(b)-len(a), strings.Compare(a, b)) })
	}
	return m
})

// hasCJK reports whether s holds a character of the CJK, kana or hangul
// blocks (all encoded in 3 bytes from 0xE3 on).
func hasCJK(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0xE3 && s[i] <= 0xED {
			return true
		}
	}
	return false
}

// normLabel prepares heading or lead-in text for labelKind: inline markup
// removed, leading symbols (emoji, "✅") and a leading number dropped, a
// parenthetical and trailing punctuation dropped, lower case. It also
// returns the parenthetical's text, lower case ("" when there is none).
func normLabel(text string) (label, aside string) { return normPlain(plainTitle(text)) }

// normPlain is normLabel of text whose inline markup is already removed.
func normPlain(s string) (label, aside string) {
	s = strings.TrimLeftFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	s = trimNumber(s)
	s = strings.TrimLeft(s, "-–—:：. ")
	if i := strings.IndexAny(s, "(（["); i > 0 {
		aside = strings.ToLower(strings.Trim(strings.TrimSpace(s[i:]), "()（）[] "))
		s = s[:i]
	}
	s = strings.TrimRightFunc(s, func(r rune) bool {
		return unicode.IsSpace(r) || strings.ContainsRune(":：.!?-–—", r)
	})
	return strings.ToLower(s), aside
}

// trimNumber drops a leading section number: "3.", "1.2", "2)", "1:".
func trimNumber(s string) string {
	i := digits(s, 0)
	if i == 0 {
		return s
	}
	for i < len(s) && s[i] == '.' && digits(s, i+1) > i+1 {
		i = digits(s, i+1)
	}
	if i < len(s) && strings.IndexByte(".):", s[i]) >= 0 {
		i++
	}
	if i < len(s) {
		if r, _ := utf8.DecodeRuneInString(s[i:]); !unicode.IsSpace(r) && r != '：' {
			return s // "3D rendering", "2FA": the number is part of a word
		}
	}
	return trimSpace(s[i:])
}

// form is what a heading's shape says: a piece of work or a group of work,
// named by a task word and a number, a bare number, an id or a file action.
type form uint8

const (
	fNone     form = iota
	fNumbered      // "3. Update the model", "1.2 Cache": a task in a sequence
	fUnit          // "Task 3", "Step 1.2", "T004", "ENV-01": one piece of work
	fGroup         // "Phase 2", "Stage B", "Sprint 1", "v1.2": a group of work
	fFile          // "[MODIFY] src/app.ts": the work on one file
)

// unitWords name one piece of work when a number or a letter follows them.
var unitWords = []string{
	"task", "step", "item", "change", "fix", "pr", "story", "ticket", "subtask", "action",
	"aufgabe", "schritt", "änderung", "tâche", "tache", "étape", "etape", "tarea", "paso", "tarefa",
	"passo", "задача", "шаг", "bước", "nhiệm vụ", "zadanie", "krok", "görev", "adım", "compito",
	"작업", "스텝", "과제", "タスク", "ステップ", "手順", "任务", "任務", "步骤", "步驟",
}

// groupWords name a group of work when a number or a letter follows them.
var groupWords = []string{
	"phase", "stage", "milestone", "sprint", "week", "wave", "part", "chunk", "epic", "iteration",
	"round", "day", "priority", "release", "version", "workstream", "track", "level",
	"stufe", "meilenstein", "teil", "woche", "jalon", "partie", "semaine", "fase", "etapa", "hito",
	"semana", "parte", "marco", "фаза", "этап", "неделя", "часть", "спринт", "giai đoạn", "tuần",
	"phần", "etap", "faza", "tydzień", "aşama", "hafta", "settimana",
	"단계", "페이즈", "주차", "フェーズ", "段階", "阶段", "階段", "里程碑", "周",
}

// fileActions open an Antigravity-style file heading: "[MODIFY] app.ts".
var fileActions = []string{"modify", "new", "delete", "add", "create", "update", "edit", "remove", "rename", "move"}

// formOf returns the form of a heading's text and the text after its form
// prefix ("Phase 3: Deployment checks" gives fGroup and "Deployment checks").
func formOf(text string) (form, string) { return formOfPlain(plainTitle(text), text) }

// formOfPlain is formOf of text whose inline markup is already removed
// (plain); raw is the text as written, for ids written in upper case.
func formOfPlain(plain, raw string) (form, string) {
	s := strings.ToLower(plain)
	s = strings.TrimLeftFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '[' })
	if strings.HasPrefix(s, "[") {
		if end := strings.IndexByte(s, ']'); end > 0 && slices.Contains(fileActions, s[1:end]) {
			return fFile, trimSpace(s[end+1:])
		}
		s = strings.TrimLeft(s, "[")
	}
	if i := digits(s, 0); i > 0 {
		if rest := trimNumber(s); rest != s {
			return fNumbered, rest
		}
	}
	// "第3步", "第二阶段": the ordinal comes first.
	if strings.HasPrefix(s, "第") {
		rest := strings.TrimLeftFunc(s[len("第"):], func(r rune) bool {
			return r >= '0' && r <= '9' || strings.ContainsRune("一二三四五六七八九十", r)
		})
		for _, w := range groupWords {
			if strings.HasPrefix(rest, w) {
				return fGroup, trimLead(rest[len(w):])
			}
		}
		for _, w := range append(unitWords, "步") {
			if strings.HasPrefix(rest, w) {
				return fUnit, trimLead(rest[len(w):])
			}
		}
	}
	for _, ws := range []struct {
		f     form
		words []string
	}{{fUnit, unitWords}, {fGroup, groupWords}} {
		for _, w := range ws.words {
			if rest, ok := numberedAfter(s, w); ok {
				return ws.f, rest
			}
		}
	}
	if rest, ok := idPrefix(raw); ok {
		if strings.Trim(rest, "0123456789 /–-") == "" {
			// "Q1 2025", "T2", "H2": an id that names nothing after it is
			// a period or a group of work, not one piece of it.
			return fGroup, rest
		}
		return fUnit, rest
	}
	if len(s) > 1 && s[0] == 'v' && s[1] >= '0' && s[1] <= '9' {
		return fGroup, trimLead(strings.TrimLeft(s[1:], "0123456789."))
	}
	return fNone, ""
}

// numberedAfter reports whether s is word w followed by a number, a roman
// numeral or one letter ("phase 2", "step 1.2", "phase a —", "stage ii"),
// and returns what follows that.
func numberedAfter(s, w string) (string, bool) {
	if !strings.HasPrefix(s, w) {
		return "", false
	}
	rest := s[len(w):]
	trimmed := strings.TrimLeft(rest, " \t#№.-_")
	if len(trimmed) == len(rest) && !hasCJK(w) {
		return "", false // "items", "parts": a word, not the task word
	}
	r, n := utf8.DecodeRuneInString(trimmed)
	switch {
	case r >= '0' && r <= '9' || strings.ContainsRune("一二三四五六七八九十", r):
		i := n
		for i < len(trimmed) && (trimmed[i] >= '0' && trimmed[i] <= '9' || trimmed[i] == '.') {
			i++
		}
		return trimLead(trimmed[i:]), true
	case r >= 'a' && r <= 'z':
		i := 0
		for i < len(trimmed) && trimmed[i] >= 'a' && trimmed[i] <= 'z' {
			i++
		}
		word := trimmed[:i]
		if len(word) == 1 || isRoman(word) {
			if i == len(trimmed) || strings.IndexByte(" :.)—–-", trimmed[i]) >= 0 || trimmed[i] >= 0x80 {
				return trimLead(trimmed[i:]), true
			}
		}
	}
	return "", false
}

func isRoman(w string) bool {
	if len(w) > 4 {
		return false
	}
	for i := 0; i < len(w); i++ {
		if strings.IndexByte("ivx", w[i]) < 0 {
			return false
		}
	}
	return true
}

// idPrefix reports whether a heading starts with a task id: letters and
// digits such as "T004", "WS2", "ENV-01" or "AUTH-3" (upper case in the
// source), and returns what follows it.
func idPrefix(text string) (string, bool) {
	s := strings.TrimLeft(removeEmphasis(text), "[ ")
	k := idEnd(s)
	if k < 0 {
		return "", false
	}
	return trimLead(strings.ToLower(s[k:])), true
}

// idEnd is where the task id that s starts with ends ("ENV-01" in "ENV-01:
// Setup"), or -1 when s starts with none (idPrefix).
func idEnd(s string) int {
	i := 0
	for i < len(s) && s[i] >= 'A' && s[i] <= 'Z' {
		i++
	}
	if i == 0 || i > 6 {
		return -1
	}
	j := i
	if j < len(s) && s[j] == '-' {
		j++
	}
	k := digits(s, j)
	if k == j || (j == i && i > 2 && k-j < 2) {
		return -1 // no digits, or "ABC1" which reads as a name
	}
	for k < len(s) && s[k] == '.' && digits(s, k+1) > k+1 {
		k = digits(s, k+1)
	}
	if k < len(s) && strings.IndexByte(" :.)]—–-", s[k]) < 0 && s[k] < 0x80 {
		return -1 // "H264", "S3bucket"
	}
	return k
}

func trimLead(s string) string { return strings.TrimLeft(trimSpace(s), ":：.)]—–- \t") }

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

// notNowWords in a parenthetical say that what it qualifies is not planned
// now: "v2.0 (ideas)", "- Enable the adapter (might-do-someday)".
var notNowWords = []string{"someday", "later", "future", "ideas", "idea", "not planned", "wishlist",
	"nice to have", "nice-to-have", "out of scope", "won't do", "wont do", "not now", "post-mvp"}

// notNowAside reports whether a parenthetical's text (lower case, without
// the parentheses) holds one of notNowWords at word boundaries.
func notNowAside(aside string) bool {
	for _, w := range notNowWords {
		for i := strings.Index(aside, w); i >= 0; {
			end := i + len(w)
			if (i == 0 || !inToken(aside, i-1)) && (end == len(aside) || !inToken(aside, end)) {
				return true
			}
			j := strings.Index(aside[i+1:], w)
			if j < 0 {
				break
			}
			i += 1 + j
		}
	}
	return false
}

// inToken reports whether the byte at i joins the word beside it into a
// longer token: a letter, a digit, or a path or identifier joint
// ("/api/ideas/{id}", "future_flags.go"). A hyphen does not: "might-do-someday"
// holds "someday".
func inToken(s string, i int) bool {
	return isLetterByteOrCont(s, i) || strings.IndexByte("/._{}", s[i]) >= 0
}

// isLetterByteOrCont reports whether the byte at i is an ASCII letter or
// digit, or part of a multi-byte character.
func isLetterByteOrCont(s string, i int) bool { return isWordByte(s[i]) || s[i] >= 0x80 }
