package chat

import (
	"testing"

	"forma/internal/ai"
	"forma/internal/ai/aitest"
)

func BenchmarkChat100k(b *testing.B) {
	ds := aitest.Big()
	history := []ai.Turn{{Role: ai.RoleUser, Content: "What's the average rating of people who would recommend us?"}}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if reply := Answer(ds, history, "Among those who rated 4 or more, what percentage would recommend us?", aitest.Now); reply == "" {
			b.Fatal("empty reply")
		}
	}
}
