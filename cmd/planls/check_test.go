package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/planls/planls/core"
	"github.com/planls/planls/planparse"
)

// analyzed approves the plan approved as docs/PLAN.md of a new root,
// lets edit change the state (a hand edit), writes now as the plan file
// and returns its analysis.
func analyzed(t *testing.T, approved, now string, edit func(st *core.State)) *planView {
	t.Helper()
	root := t.TempDir()
	res := core.Approve(core.Empty(), planparse.Parse([]byte(approved)), []byte(approved), "docs/PLAN.md", core.Options{})
	if res.Envelope.IsError() {
		t.Fatal(res.Envelope.Text())
	}
	st := res.State
	if edit != nil {
		edit(st)
	}
	if err := os.MkdirAll(filepath.Join(root, "docs"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "docs", "PLAN.md"), []byte(now), 0o644); err != nil {
		t.Fatal(err)
	}
	v, err := loadPlanView(root, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// testReport has an open item whose text changed, an item deferred
// without a reason (a hand edit) and an in-progress item no longer in the
// file.
func testReport(t *testing.T) *checkReport {
	const approved = "# Ship\n\n## Work\n\n- Add `x`, then 100%\n- gone\n- later\n"
	const now = "# Ship\n\n## Work\n\n\n- Add `y`, then 100%\n\n- later\n"
	v := analyzed(t, approved, now, func(st *core.State) {
		for i := range st.Tasks {
			switch st.Tasks[i].Subject {
			case "gone":
				st.Tasks[i].Status = core.InProgress
			case "later":
				st.Tasks[i].Status = core.Deferred
			}
		}
	})
	r := newCheckReport(v)
	r.display = "docs/PLAN.md"
	return r
}

// The SARIF log is compared whole: the shape code-scanning tools read.
func TestSARIF(t *testing.T) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", " ")
	enc.SetEscapeHTML(false)
	log := testReport(t).sarif()
	log.Runs[0].Tool.Driver.Version = "TEST"
	if err := enc.Encode(log); err != nil {
		t.Fatal(err)
	}
	want := `{
 "version": "2.1.0",
 "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
 "runs": [
  {
   "tool": {
    "driver": {
     "name": "planls",
     "version": "TEST",
     "informationUri": "https://github.com/planls/planls",
     "rules": [
      {
       "id": "open-item",
       "name": "OpenPlanItem",
       "shortDescription": {
        "text": "Open plan item"
       },
       "fullDescription": {
        "text": "A plan item of the approved plan is still pending: complete it with evidence or defer it with a reason."
       },
       "defaultConfiguration": {
        "level": "note"
       }
      },
      {
       "id": "in-progress",
       "name": "PlanItemInProgress",
       "shortDescription": {
        "text": "Plan item in progress"
       },
       "fullDescription": {
        "text": "A plan item of the approved plan is in progress: complete it with evidence or defer it with a reason."
       },
       "defaultConfiguration": {
        "level": "note"
       }
      },
      {
       "id": "blocked",
       "name": "BlockedPlanItem",
       "shortDescription": {
        "text": "Blocked plan item"
       },
       "fullDescription": {
        "text": "An open plan item waits on other plan items that are still open."
       },
       "defaultConfiguration": {
        "level": "note"
       }
      },
      {
       "id": "closed-without-proof",
       "name": "ClosedWithoutProof",
       "shortDescription": {
        "text": "Plan item closed without proof"
       },
       "fullDescription": {
        "text": "A plan item is completed without evidence or deferred without a reason, which planls refuses: state.json was edited by hand. Reopen it and close it with its proof."
       },
       "defaultConfiguration": {
        "level": "warning"
       }
      },
      {
       "id": "plan-drift",
       "name": "PlanDrift",
       "shortDescription": {
        "text": "Plan changed since approval"
       },
       "fullDescription": {
        "text": "The plan file is not the approved plan: a bullet is new, its text differs from the approved item, an approved item is missing, or text outside the items changed. Ask the user to review it and re-approve it with planls approve."
       },
       "defaultConfiguration": {
        "level": "warning"
       }
      },
      {
       "id": "weak-evidence",
       "name": "WeakEvidence",
       "shortDescription": {
        "text": "Plan item completed with weak evidence"
       },
       "fullDescription": {
        "text": "A completed plan item's evidence names nothing that can be checked: no commit, file, test, command with its result or URL. Record checkable evidence."
       },
       "defaultConfiguration": {
        "level": "warning"
       }
      },
      {
       "id": "evidence-failed",
       "name": "EvidenceFailed",
       "shortDescription": {
        "text": "Evidence failed verification"
       },
       "fullDescription": {
        "text": "Something a completed plan item's evidence names does not hold: a commit that is missing or no branch reaches, a file or line that does not exist, a test that is not in the tree, or a command that no longer gives its stated result."
       },
       "defaultConfiguration": {
        "level": "error"
       }
      },
      {
       "id": "evidence-unverifiable",
       "name": "EvidenceUnverifiable",
       "shortDescription": {
        "text": "Evidence cannot be verified"
       },
       "fullDescription": {
        "text": "Nothing a completed plan item's evidence names can be checked offline (only URLs, commands not re-run, or nothing at all)."
       },
       "defaultConfiguration": {
        "level": "note"
       }
      },
      {
       "id": "evidence-verified",
       "name": "EvidenceVerified",
       "shortDescription": {
        "text": "Evidence verified"
       },
       "fullDescription": {
        "text": "What a completed plan item's evidence names holds."
       },
       "defaultConfiguration": {
        "level": "none"
       }
      },
      {
       "id": "checked-not-completed",
       "name": "CheckedNotCompleted",
       "shortDescription": {
        "text": "Plan item ticked but not completed"
       },
       "fullDescription": {
        "text": "A plan item's checkbox is ticked in the plan file, but the item is still open: a ticked box is not proof. Complete it with evidence."
       },
       "defaultConfiguration": {
        "level": "warning"
       }
      },
      {
       "id": "empty-item",
       "name": "EmptyItem",
       "shortDescription": {
        "text": "Bullet without text"
       },
       "fullDescription": {
        "text": "A top-level bullet of a work section has no text: it is not a plan item."
       },
       "defaultConfiguration": {
        "level": "warning"
       }
      },
      {
       "id": "duplicate-item",
       "name": "DuplicateItem",
       "shortDescription": {
        "text": "Duplicate plan item"
       },
       "fullDescription": {
        "text": "Two plan items share their heading path, subject and text: each is tracked, but they read as one."
       },
       "defaultConfiguration": {
        "level": "warning"
       }
      }
     ]
    }
   },
   "columnKind": "unicodeCodePoints",
   "results": [
    {
     "ruleId": "plan-drift",
     "ruleIndex": 4,
     "level": "warning",
     "message": {
      "text": "plan item #1 differs from the approved plan: re-approve to track the new text"
     },
     "locations": [
      {
       "physicalLocation": {
        "artifactLocation": {
         "uri": "docs/PLAN.md",
         "uriBaseId": "%SRCROOT%"
        },
        "region": {
         "startLine": 6,
         "startColumn": 1
        }
       }
      }
     ]
    },
    {
     "ruleId": "open-item",
     "ruleIndex": 0,
     "level": "note",
     "message": {
      "text": "open plan item #1 (pending): Add x, then 100%"
     },
     "locations": [
      {
       "physicalLocation": {
        "artifactLocation": {
         "uri": "docs/PLAN.md",
         "uriBaseId": "%SRCROOT%"
        },
        "region": {
         "startLine": 6,
         "startColumn": 1
        }
       }
      }
     ]
    },
    {
     "ruleId": "closed-without-proof",
     "ruleIndex": 3,
     "level": "warning",
     "message": {
      "text": "plan item #3 is deferred without a reason (state.json edited by hand?): later"
     },
     "locations": [
      {
       "physicalLocation": {
        "artifactLocation": {
         "uri": "docs/PLAN.md",
         "uriBaseId": "%SRCROOT%"
        },
        "region": {
         "startLine": 8,
         "startColumn": 1
        }
       }
      }
     ]
    },
    {
     "ruleId": "plan-drift",
     "ruleIndex": 4,
     "level": "warning",
     "message": {
      "text": "approved plan item #2 is missing from the plan file: gone"
     },
     "locations": [
      {
       "physicalLocation": {
        "artifactLocation": {
         "uri": "docs/PLAN.md",
         "uriBaseId": "%SRCROOT%"
        },
        "region": {
         "startLine": 6,
         "startColumn": 21
        }
       }
      }
     ]
    }
   ]
  }
 ]
}
`
	if buf.String() != want {
		t.Errorf("sarif:\n%s", buf.String())
	}
}

func TestTextAndGitHubFormats(t *testing.T) {
	r := testReport(t)
	var text, gh bytes.Buffer
	if err := r.writeText(&text); err != nil {
		t.Fatal(err)
	}
	if err := r.writeGitHub(&gh); err != nil {
		t.Fatal(err)
	}
	// In file order; what left the file where it used to be (after #1).
	wantText := "docs/PLAN.md:6:1: plan item #1 differs from the approved plan: re-approve to track the new text\n" +
		"docs/PLAN.md:6:1: open plan item #1 (pending): Add x, then 100%\n" +
		"docs/PLAN.md:6:21: approved plan item #2 is missing from the plan file: gone\n" +
		"docs/PLAN.md:8:1: plan item #3 is deferred without a reason (state.json edited by hand?): later\n"
	if text.String() != wantText {
		t.Errorf("text:\n%s", text.String())
	}
	wantGH := "::warning file=docs/PLAN.md,line=6,col=1,title=plan-drift::plan item #1 differs from the approved plan: re-approve to track the new text\n" +
		"::notice file=docs/PLAN.md,line=6,col=1::open plan item #1 (pending): Add x, then 100%25\n" +
		"::warning file=docs/PLAN.md,line=8,col=1,title=closed-without-proof::plan item #3 is deferred without a reason (state.json edited by hand?): later\n" +
		"::warning file=docs/PLAN.md,line=6,col=21,title=plan-drift::approved plan item #2 is missing from the plan file: gone\n"
	if gh.String() != wantGH {
		t.Errorf("github:\n%s", gh.String())
	}
}

func TestGitHubEscaping(t *testing.T) {
	for _, tc := range []struct{ in, data, prop string }{
		{"a%b", "a%25b", "a%25b"},
		{"l1\r\nl2", "l1%0D%0Al2", "l1%0D%0Al2"},
		{"dir,x:y", "dir,x:y", "dir%2Cx%3Ay"},
	} {
		if got := ghData(tc.in); got != tc.data {
			t.Errorf("ghData(%q) = %q, want %q", tc.in, got, tc.data)
		}
		if got := ghProperty(tc.in); got != tc.prop {
			t.Errorf("ghProperty(%q) = %q, want %q", tc.in, got, tc.prop)
		}
	}
}

func TestParseIDs(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []int
		err  string
	}{
		{"1,2", []int{1, 2}, ""},
		{" #3 , 4 ", []int{3, 4}, ""},
		{"", []int{}, ""},
		{"1,,2", []int{1, 2}, ""},
		{"1,x", nil, `"x" is not a task id`},
	} {
		got, err := parseIDs(tc.in)
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("parseIDs(%q) error %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || len(got) != len(tc.want) {
			t.Errorf("parseIDs(%q) = %v, %v", tc.in, got, err)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("parseIDs(%q) = %v, want %v", tc.in, got, tc.want)
			}
		}
	}
}
