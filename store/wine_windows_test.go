//go:build windows && wine

package store

import _ "unsafe" // for go:linkname

// Wine 8 has no FileDispositionInformationEx, which os.RemoveAll (and so
// every t.TempDir cleanup) tries first; Go falls back to the older call
// only on the status codes Windows gives, not on Wine's. Built with the
// wine tag (and -ldflags=-checklinkname=0), the tests take the fallback.
//
//go:linkname deleteatFallback internal/syscall/windows.TestDeleteatFallback
var deleteatFallback bool

// Wine's symbolic links are Unix ones that filepath.EvalSymlinks cannot
// follow from Windows; the tests of links resolving skip them there.
func init() { deleteatFallback, symlinksResolve = true, false }
