package report

import (
	"bytes"
	"crypto/rand"
	_ "embed"
	"encoding/base64"
	"errors"
	"html/template"
	"io"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/planls/planls/core"
	"github.com/planls/planls/verify"
)

//go:embed report.html.tmpl
var htmlSource string

// htmlTemplate is parsed on first use: a planls command that makes no
// report pays nothing for it at start.
var htmlTemplate = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("report").Funcs(template.FuncMap{
		"url":   safeHref,
		"iso":   func(t time.Time) string { return t.UTC().Format(time.RFC3339) },
		"stamp": stamp,
		"day":   func(t time.Time) string { return t.UTC().Format("2006-01-02 15:04") },
		"mark": func(s verify.State) string {
			switch s {
			case verify.Verified:
				return "✓"
			case verify.Failed:
				return "✗"
			}
			return "?"
		},
		"pct": func(n, all int) string {
			if all == 0 {
				return "0"
			}
			return strings.TrimRight(strings.TrimRight(strconv.FormatFloat(float64(n)*100/float64(all), 'f', 2, 64), "0"), ".")
		},
		"badge": func(it Item) string {
			if it.Unproven {
				return "unproven"
			}
			return strings.ReplaceAll(string(it.Status), "_", "-")
		},
		"evkind": func(k string) string {
			if k == "evidence" {
				return "evidence changed"
			}
			return k
		},
	}).Parse(htmlSource))
})

// HTML writes r as one self-contained HTML page: styles, script and the
// chart inline, nothing fetched (a Content-Security-Policy says so to the
// browser), light and dark by prefers-color-scheme, printable. version
// names planls in the page. Text from the plan, the evidence and the
// reasons is escaped by html/template; the only links are the ones Build
// made (http, https or file URLs).
func HTML(w io.Writer, r *Report, version string) error {
	nonce := make([]byte, 16)
	_, _ = rand.Read(nonce)
	items, err := itemsHTML(r.Items)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	err = htmlTemplate().Execute(&buf, struct {
		R       *Report
		Chart   template.HTML
		Items   template.HTML
		Nonce   string
		Version string
	}{r, chartSVG(r.Chart), items, base64.RawURLEncoding.EncodeToString(nonce), core.NoControls(version)})
	if err != nil {
		return err
	}
	_, err = w.Write(buf.Bytes())
	return err
}

// itemsHTML renders the item list (the template "items", escaped by
// html/template as the page's own list) in two halves at once: it is most
// of the page, and of the time a 1,000-item report takes.
func itemsHTML(items []Item) (template.HTML, error) {
	var halves [2]bytes.Buffer
	var errs [2]error
	mid := len(items) / 2
	if len(items) < 200 {
		mid = len(items)
	}
	var wg sync.WaitGroup
	for i, part := range [2][]Item{items[:mid], items[mid:]} {
		wg.Go(func() { errs[i] = htmlTemplate().ExecuteTemplate(&halves[i], "items", part) })
	}
	wg.Wait()
	if err := errors.Join(errs[:]...); err != nil {
		return "", err
	}
	return template.HTML(halves[0].String() + halves[1].String()), nil
}

// safeHref passes a link Build made into an href; anything that is not an
// http, https or file URL becomes "#" (a second guard: Build makes no other).
func safeHref(s string) template.URL {
	u, err := url.Parse(s)
	if err != nil {
		return "#"
	}
	switch u.Scheme {
	case "http", "https", "file":
		return template.URL(u.String())
	}
	return "#"
}
