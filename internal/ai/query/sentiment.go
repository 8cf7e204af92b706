package query

import (
	"strings"
	"sync"

	"forma/internal/ai/sentiment"
)

// Sentiment classes of a text, by its VADER compound score.
const (
	Positive = "positive" // compound >= 0.05
	Neutral  = "neutral"  // between the thresholds
	Negative = "negative" // compound <= -0.05
)

// sentimentThreshold is VADER's customary boundary between neutral and polar texts.
const sentimentThreshold = 0.05

// SentimentScore is the VADER compound score of text: from -1 (most negative) to 1
// (most positive), 0 for neutral or empty text.
func SentimentScore(text string) float64 {
	if strings.TrimSpace(text) == "" {
		return 0
	}
	return sentiment.Compound(text)
}

// SentimentClass names the class of a compound score: positive, neutral or negative.
func SentimentClass(score float64) string {
	switch {
	case score >= sentimentThreshold:
		return Positive
	case score <= -sentimentThreshold:
		return Negative
	}
	return Neutral
}

// sentimentCache memoises compound scores per text, as the same text is often
// scored by several queries of one analysis.
type sentimentCache struct {
	mu     sync.Mutex
	scores map[string]float64
}

// score returns the compound score of text, computing it once.
func (c *sentimentCache) score(text string) float64 {
	c.mu.Lock()
	s, ok := c.scores[text]
	c.mu.Unlock()
	if ok {
		return s
	}
	s = SentimentScore(text)
	c.mu.Lock()
	if c.scores == nil {
		c.scores = map[string]float64{}
	}
	c.scores[text] = s
	c.mu.Unlock()
	return s
}

// sentimentTest compiles the sentiment operator: a free-text answer of the class
// named by value.
func (e *Engine) sentimentTest(k kind, value any) (valueTest, error) {
	class, _ := value.(string)
	class = strings.ToLower(strings.TrimSpace(class))
	if class != Positive && class != Neutral && class != Negative {
		return nil, errValue(SentimentOp, `"positive", "neutral" or "negative"`)
	}
	if k != kindText {
		return nil, errOp(SentimentOp)
	}
	return func(v any) bool { return SentimentClass(e.sentiment.score(asText(v))) == class }, nil
}
