package bench

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
)

// Row is one line of the report: a measured operation or a memory figure.
type Row struct {
	Name string
	// N counts what was measured: requests, deliveries or calls (0 for memory).
	N int
	// Rate is per second; Bytes is set instead on memory rows (-1: not available).
	Rate  float64
	Bytes int64
	// P50 and P99 are latencies (on the webhook row: from submission to delivery).
	P50, P99 time.Duration
	Errors   int
	Target   Target
	Note     string
}

// Target is a goal of issue 11 for a row; a row without one has a zero Target.
type Target struct {
	Text string
	// Met judges the row; a row with errors never meets its target.
	Met func(Row) bool
}

// Verdict is "met", "not met", or "" for a row without a target.
func (r Row) Verdict() string {
	switch {
	case r.Target.Met == nil:
		return ""
	case r.Errors == 0 && r.Target.Met(r):
		return "met"
	}
	return "not met"
}

// atLeast is a throughput target.
func atLeast(rate float64) Target {
	return Target{Text: "≥ " + thousands(rate) + "/s", Met: func(r Row) bool { return r.Rate >= rate }}
}

// medianAtMost is a target on the median latency.
func medianAtMost(d time.Duration) Target {
	return Target{Text: "p50 ≤ " + duration(d), Met: func(r Row) bool { return r.P50 <= d }}
}

// p99AtMost is a target on the 99th percentile latency (with a few calls: the slowest).
func p99AtMost(d time.Duration) Target {
	return Target{Text: "p99 ≤ " + duration(d), Met: func(r Row) bool { return r.P99 <= d }}
}

// both is a target made of two.
func both(a, b Target) Target {
	return Target{Text: a.Text + ", " + b.Text, Met: func(r Row) bool { return a.Met(r) && b.Met(r) }}
}

// atMost is a memory target in megabytes.
func atMost(mb int64) Target {
	return Target{Text: "≤ " + strconv.FormatInt(mb, 10) + " MB", Met: func(r Row) bool { return r.Bytes >= 0 && r.Bytes <= mb*1_000_000 }}
}

// Report is the outcome of a run.
type Report struct {
	Dialect     string
	Connections int
	Duration    time.Duration
	Paging, AI  int
	// LoadStart and LoadEnd are the machine's load averages (/proc/loadavg).
	LoadStart, LoadEnd string
	Took               time.Duration
	Rows               []Row
}

// loadAverage reads the load averages of the last 1, 5 and 15 minutes.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "n/a"
	}
	f := strings.Fields(string(b))
	return strings.Join(f[:min(3, len(f))], " ")
}

// Print writes the report as one table.
func (rep *Report) Print(w io.Writer) error {
	fmt.Fprintf(w, "forma bench: %s, %d connections, %s per row, %s responses for paging, %s for AI\n",
		rep.Dialect, rep.Connections, rep.Duration, thousands(float64(rep.Paging)), thousands(float64(rep.AI)))
	fmt.Fprintf(w, "machine: %d CPUs, %s %s/%s; load average %s at start, %s at end; took %s\n",
		runtime.NumCPU(), runtime.Version(), runtime.GOOS, runtime.GOARCH, rep.LoadStart, rep.LoadEnd, rep.Took.Round(time.Second))
	fmt.Fprintln(w, "targets: issue 11's, for a 2-core machine, 64 connections, SQLite (but the PostgreSQL one for submissions on PostgreSQL);")
	fmt.Fprintln(w, "a row with errors does not meet its target")
	fmt.Fprintln(w)
	var table bytes.Buffer
	tw := tabwriter.NewWriter(&table, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "row\tn\tfigure\tp50\tp99\terrors\ttarget\tresult\tnote")
	for _, r := range rep.Rows {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.Name, count(r), figure(r), latency(r, r.P50), latency(r, r.P99),
			errorsText(r), orDash(r.Target.Text), r.Verdict(), r.Note)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for line := range strings.Lines(table.String()) {
		fmt.Fprintln(w, strings.TrimRight(line, " \n"))
	}
	return nil
}

func count(r Row) string {
	if r.N == 0 {
		return ""
	}
	return thousands(float64(r.N))
}

func figure(r Row) string {
	switch {
	case r.N == 0 && r.Bytes < 0:
		return "n/a"
	case r.N == 0:
		return fmt.Sprintf("%.1f MB", float64(r.Bytes)/1e6)
	case r.Rate < 10:
		return fmt.Sprintf("%.2f/s", r.Rate)
	}
	return thousands(r.Rate) + "/s"
}

func latency(r Row, d time.Duration) string {
	if r.N == 0 {
		return ""
	}
	return duration(d)
}

func errorsText(r Row) string {
	if r.N == 0 {
		return ""
	}
	return strconv.Itoa(r.Errors)
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

// duration prints a latency with three significant digits.
func duration(d time.Duration) string {
	ms := float64(d) / float64(time.Millisecond)
	switch {
	case ms >= 1000:
		return strconv.FormatFloat(ms/1000, 'f', 2, 64) + " s"
	case ms >= 100:
		return strconv.FormatFloat(ms, 'f', 0, 64) + " ms"
	case ms >= 10:
		return strconv.FormatFloat(ms, 'f', 1, 64) + " ms"
	}
	return strconv.FormatFloat(ms, 'f', 2, 64) + " ms"
}

// thousands rounds v and groups its digits by three: 12,345.
func thousands(v float64) string {
	s := strconv.FormatInt(int64(v+0.5), 10)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
