package core

import (
	"fmt"
	"time"

	// Zone names must resolve the same on every machine, with or without
	// /usr/share/zoneinfo.
	_ "time/tzdata"
)

// zoneFor picks the zone of date-only times (MCP seed "owner_timezone"):
// the owner_timezone param (an IANA name), else Options.Zone, else UTC.
func zoneFor(tz *string, opts Options) (*time.Location, error) {
	if tz != nil {
		name := *tz
		loc, err := time.LoadLocation(name)
		if name == "" || name == "Local" || err != nil {
			return nil, fmt.Errorf("owner_timezone %q is not an IANA time zone name (e.g. \"Europe/Berlin\")", name)
		}
		return loc, nil
	}
	if opts.Zone != nil {
		return opts.Zone, nil
	}
	return time.UTC, nil
}

// parseDue reads an RFC 3339 timestamp, or a YYYY-MM-DD date as midnight in
// the owner's zone, and returns it in UTC. field names the param in errors.
func parseDue(field, s string, tz *string, opts Options) (time.Time, error) {
	loc, err := zoneFor(tz, opts)
	if err != nil {
		return time.Time{}, err
	}
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t.UTC(), nil
	}
	if t, err := time.ParseInLocation("2006-01-02", s, loc); err == nil {
		return t.UTC(), nil
	}
	return time.Time{}, fmt.Errorf("%s %q is not an RFC 3339 time (2026-08-25T09:00:00Z) or a date (2026-08-25)", field, s)
}

// formatDue is how due dates are stored: RFC 3339 in UTC, fractions kept.
func formatDue(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

// dueAtValue resolves the due_at param in zone tz (owner_timezone): ""
// when absent, and "" clears the date on update.
func dueAtValue(dueAt, tz *string, opts Options) (string, error) {
	if dueAt == nil || *dueAt == "" {
		return "", nil
	}
	t, err := parseDue("due_at", *dueAt, tz, opts)
	if err != nil {
		return "", err
	}
	return formatDue(t), nil
}
