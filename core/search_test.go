package core

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"golang.org/x/text/unicode/norm"
)

// TestSearchNormalised: list's search and group filter compare text as
// reconciliation does (Unicode NFC, emoji variation selectors ignored) and
// ignore case by Unicode case folding, so what a user types finds what the
// plan says however the file was saved.
func TestSearchNormalised(t *testing.T) {
	nfd := norm.NFD.String
	plan := handPlan("Normalised",
		item(scope(nfd("Café work")), nfd("Open the Café"), ""),
		item(scope("Checks"), "Ship it ✔️", ""),
		item(scope("Checks"), "Drive down the Straße", nfd("- über every road")),
		item(scope("Checks"), "Plain ascii item", ""),
	)
	src := "# Normalised\n"
	res := Approve(Empty(), plan, []byte(src), "PLAN.md", testOpts())
	if !res.Changed {
		t.Fatalf("approve: %s", res.Envelope.Text())
	}
	st, _ := mustCall(t, res.State, `{"action":"create","subject":"`+nfd("Résumé")+` ✍️ draft"}`)
	if strings.Contains(nfd("Café"), "é") {
		t.Fatal("the fixture is not in NFD")
	}
	ids := func(params string) string {
		t.Helper()
		_, res := mustCall(t, st, params)
		var out []string
		for _, line := range strings.Split(res.Envelope.Text(), "\n") {
			if strings.HasPrefix(line, "[") {
				out = append(out, strings.Fields(line)[1])
			}
		}
		if len(out) == 0 && strings.HasSuffix(res.Envelope.Text(), "\nNo tasks") {
			return "No tasks"
		}
		return strings.Join(out, " ")
	}
	for _, tc := range []struct{ search, want string }{
		{"Café", "#1"},                     // NFC typed, NFD saved
		{nfd("café"), "#1"},                // NFD typed, NFD saved
		{"CAFÉ", "#1"},                     // case
		{"Ship it ✔", "#2"},                // without the variation selector
		{"✔️", "#2"},                       // with it
		{"✔\uFE0E", "#2"},                  // with the text-style selector
		{"STRASSE", "#3"},                  // full case folding: ß is ss
		{"Über", "#3"},                     // plan text, NFD saved, capital typed
		{"résumé ✍", "#5"},                 // a created task, NFD subject
		{"PLAIN ASCII", "#4"},              // ASCII keeps working
		{"cafe", "No tasks"},               // an accent is not dropped
		{"Caf", "#1"},                      // a prefix of a composed letter's base
		{"\u0301", "No tasks"},             // a lone combining mark matches no composed letter
		{"ﬁ", "No tasks"},                  // no compatibility mapping (NFKC) beyond folding
		{string([]byte{0xff}), "No tasks"}, // invalid UTF-8 neither crashes nor matches
	} {
		q, _ := json.Marshal(tc.search)
		if got := ids(fmt.Sprintf(`{"action":"list","search":%s}`, q)); got != tc.want {
			t.Errorf("search %q: %q, want %q", tc.search, got, tc.want)
		}
	}
	for _, g := range []string{"Café work", nfd("CAFÉ  WORK"), " café work "} {
		q, _ := json.Marshal(g)
		if got := ids(fmt.Sprintf(`{"action":"list","group":%s}`, q)); got != "#1" {
			t.Errorf("group %q: %q, want #1", g, got)
		}
	}
}

// BenchmarkListSearch is a search over 1,000 tasks, ASCII and not: the
// folding is paid per task per list call.
func BenchmarkListSearch(b *testing.B) {
	for _, subject := range []string{"ascii task %d", "Café task %d ✔️"} {
		b.Run(strings.Fields(subject)[0], func(b *testing.B) {
			st := Empty()
			for i := range 1000 {
				st, _ = mustCall(b, st, fmt.Sprintf(`{"action":"create","subject":%q}`, fmt.Sprintf(subject, i)))
			}
			b.ResetTimer()
			for b.Loop() {
				call(st, json.RawMessage(`{"action":"list","search":"task 999"}`), testOpts())
			}
		})
	}
}
