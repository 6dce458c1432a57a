package planparse

import "testing"

func TestUnnumbered(t *testing.T) {
	for in, want := range map[string]string{
		"3. Convert the configs":      "Convert the configs",
		"1.2 Cache the results":       "Cache the results",
		"2) Ship it":                  "Ship it",
		"Step 2: Add the parser":      "Add the parser",
		"Task 10 - Write the docs":    "Write the docs",
		"Phase 2 – Rollout":           "Rollout",
		"Add the parser":              "Add the parser",
		"3D rendering":                "3D rendering",
		"2FA for admins":              "2FA for admins",
		"Upgrade to Go 1.24":          "Upgrade to Go 1.24",
		"Phase 2":                     "Phase 2",
		"Steps to reproduce":          "Steps to reproduce",
		"":                            "",
		"**Step 2:** Add the parser":  "Add the parser",
		"Step 2x":                     "Step 2x",
		"Stepping 2 levels":           "Stepping 2 levels",
		"Étape 3 : Écrire les tests":  "Écrire les tests",
		"2024 roadmap review meeting": "2024 roadmap review meeting",
	} {
		if got := Unnumbered(in); got != want {
			t.Errorf("Unnumbered(%q) = %q, want %q", in, got, want)
		}
	}
}
