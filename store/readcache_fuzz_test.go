package store

import (
	"reflect"
	"testing"
)

// FuzzReadCache: whatever sequence of file contents a store reads (here a,
// b, a, b), every answer through the cache is exactly decodeState's for the
// same bytes, error text included, and changing an answer never changes a
// later one.
func FuzzReadCache(f *testing.F) {
	good := `{"version":1,"nextId":2,"tasks":[{"id":1,"subject":"a","status":"pending","blockedBy":[1],"metadata":{"k":[1,{"x":"y"}]},"version":1,"createdAt":"2026-01-02T03:04:05Z","updatedAt":"2026-01-02T03:04:05Z"}]}`
	same := `{"version":1,"nextId":2,"tasks":[{"id":1,"subject":"b","status":"pending","blockedBy":[1],"metadata":{"k":[1,{"x":"y"}]},"version":1,"createdAt":"2026-01-02T03:04:05Z","updatedAt":"2026-01-02T03:04:05Z"}]}`
	for _, p := range [][2]string{
		{good, good}, {good, same}, {good, good[:40]}, {"", good}, {"{}", "{} "},
		{good, "\xEF\xBB\xBF" + good}, {`{"tasks":[{"id":1}]}`, good},
	} {
		f.Add([]byte(p[0]), []byte(p[1]))
	}
	f.Fuzz(func(t *testing.T, a, b []byte) {
		var c readCache
		for i, data := range [][]byte{a, b, a, b} {
			// The cache may keep the slice it is given; hand it a copy as
			// os.ReadFile would, so a and b stay as they are.
			got, err := c.decode("S", append([]byte(nil), data...))
			want, wantErr := decodeState("S", data)
			if (err == nil) != (wantErr == nil) || (err != nil && err.Error() != wantErr.Error()) {
				t.Fatalf("read %d: error %v, want %v", i, err, wantErr)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("read %d: state %+v, want %+v", i, got, want)
			}
			if got != nil {
				got.NextID = -1
				for j := range got.Tasks {
					got.Tasks[j].Subject = "changed"
					for k := range got.Tasks[j].BlockedBy {
						got.Tasks[j].BlockedBy[k] = -1
					}
					for k := range got.Tasks[j].Metadata {
						got.Tasks[j].Metadata[k] = "changed"
					}
				}
			}
		}
	})
}
