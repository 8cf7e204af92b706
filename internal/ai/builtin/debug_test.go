package builtin

import (
	"encoding/json"
	"fmt"
	"os"
	"testing"
)

func TestDebugDump(t *testing.T) {
	if os.Getenv("DUMP") == "" {
		t.Skip()
	}
	var cases []struct{ Prompt string }
	b, _ := os.ReadFile("testdata/generate_prompts.json")
	json.Unmarshal(b, &cases)
	for _, c := range cases {
		in, err := GenerateForm(c.Prompt)
		fmt.Printf("\n### %s\n", c.Prompt)
		if err != nil {
			fmt.Println("ERR", err)
			continue
		}
		fmt.Printf("TITLE %q  DESC %q  MODE %s\n", *in.Title, *in.Description, in.DisplayMode)
		for _, q := range in.Questions {
			extra := ""
			if q.Options != nil {
				extra = fmt.Sprint(q.Options)
			}
			if q.SliderConfig != nil {
				extra = fmt.Sprint(*q.SliderConfig)
			}
			if q.CurrencyConfig != nil {
				extra = q.CurrencyConfig.Currency
			}
			fmt.Printf("  %-12s req=%-5v %q %s\n", q.Type, q.Required, *q.Question, extra)
		}
	}
}
