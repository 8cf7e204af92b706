package builtin

import (
	"sync"
	"testing"

	"forma/internal/ai/query"
)

var (
	bigOnce sync.Once
	bigDS   *query.Dataset
)

// bigDataset is 100,000 generated responses, built once.
func bigDataset() *query.Dataset {
	bigOnce.Do(func() { bigDS = fbDataset(fbGenerate(100_000, 77)) })
	return bigDS
}

func BenchmarkAnalytics100k(b *testing.B) {
	ds := bigDataset()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if a := Analyze(ds, fbNow); a.TotalResponses != 100_000 {
			b.Fatal(a.TotalResponses)
		}
	}
}

func BenchmarkChat100k(b *testing.B) {
	ds := bigDataset()
	history := []Turn{{Role: RoleUser, Content: "What's the average rating of people who would recommend us?"}}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if reply := Answer(ds, history, "Among those who rated 4 or more, what percentage would recommend us?", fbNow); reply == "" {
			b.Fatal("empty reply")
		}
	}
}
