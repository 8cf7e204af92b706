package aitest

import (
	"fmt"
	"math/rand/v2"
	"time"

	"forma/internal/ai/query"
	"forma/internal/form"
)

// Survey is a generated form of the chat evaluation with its responses as plain
// records: the expectations of the evaluation are computed from Records, never
// through the query engine.
type Survey struct {
	Name string
	Form *form.Form
	// Keys maps the short names the evaluation uses to question ids.
	Keys    map[string]int64
	Records []Record
	// Now is "now" for the survey's relative dates.
	Now time.Time
}

// Record is one response: its submission time and answers by short name. A value
// is a string (select, date "YYYY-MM-DD", text), []string (multi_select), float64
// (number, rating, slider, currency) or bool (yes_no); a missing key is a skipped
// question.
type Record struct {
	At time.Time
	V  map[string]any
}

// Dataset converts the records to the engine's dataset.
func (s *Survey) Dataset() *query.Dataset {
	ds := &query.Dataset{Form: s.Form, Started: len(s.Records), Responses: make([]form.Submission, len(s.Records))}
	for i, r := range s.Records {
		a := map[int64]any{}
		for k, v := range r.V {
			if fs, ok := v.([]string); ok {
				v = selection(fs, i%2 == 0)
			}
			a[s.Keys[k]] = v
		}
		ds.Responses[i] = form.Submission{ID: fmt.Sprintf("%s-%04d", s.Name, i), CompletedAt: new(r.At), Answers: a}
	}
	return ds
}

// Surveys returns the three generated surveys of the chat evaluation, built
// deterministically: a 60-response coffee-shop survey, a 120-response event
// feedback form and a 150-response employee survey.
func Surveys() []*Survey { return []*Survey{Coffee(), Event(), Employee()} }

// generator draws the records of a survey.
type generator struct {
	r *rand.Rand
}

// chance reports true with probability pct %.
func (g generator) chance(pct int) bool { return g.r.IntN(100) < pct }

// of picks one of the labels with the given weights.
func (g generator) of(labels []string, weights ...int) string { return labels[pick(g.r, weights...)] }

// some picks each label with its chance in %.
func (g generator) some(labels []string, chances ...int) []string {
	var out []string
	for i, l := range labels {
		if g.chance(chances[i]) {
			out = append(out, l)
		}
	}
	return out
}

// times draws n submission times between from and to, oldest first.
func (g generator) times(n int, from, to time.Time) []time.Time {
	out := make([]time.Time, n)
	for i := range out {
		out[i] = from.Add(time.Duration(g.r.Int64N(int64(to.Sub(from))))).Truncate(time.Second)
	}
	for i := 1; i < n; i++ {
		for k := i; k > 0 && out[k].Before(out[k-1]); k-- {
			out[k], out[k-1] = out[k-1], out[k]
		}
	}
	return out
}

// comment draws a comment in the mood of a 1–5 score, or "" in (100-pct) % of cases.
func (g generator) comment(pct, score int) string {
	if !g.chance(pct) {
		return ""
	}
	pool := moodOf(score)
	return pool[g.r.IntN(len(pool))]
}

// set stores v under k unless it is empty.
func set(v map[string]any, k string, val any) {
	switch x := val.(type) {
	case string:
		if x == "" {
			return
		}
	case []string:
		if len(x) == 0 {
			return
		}
	}
	v[k] = val
}

// Coffee is the coffee-shop survey of issue 14: 60 responses.
func Coffee() *Survey {
	f := &form.Form{ID: 41, Title: "Coffee survey", Questions: []form.Question{
		{ID: 1, Order: 1, Type: form.Select, Text: "Favourite drink", Options: []string{"Espresso", "Latte", "Cappuccino", "Tea", "Flat white"}},
		{ID: 2, Order: 2, Type: form.Number, Text: "Cups per day"},
		{ID: 3, Order: 3, Type: form.Rating, Text: "How would you rate our cafe?"},
		{ID: 4, Order: 4, Type: form.YesNo, Text: "Would you recommend us?"},
		{ID: 5, Order: 5, Type: form.Select, Text: "Country", Options: []string{"Germany", "France", "Spain", "Italy", "UK"}},
		{ID: 6, Order: 6, Type: form.MultiSelect, Text: "What do you add to your coffee?", Options: []string{"Milk", "Sugar", "Syrup", "Cream"}},
		{ID: 7, Order: 7, Type: form.Textarea, Text: "Anything else you want to tell us?"},
	}}
	s := &Survey{Name: "coffee", Form: f, Now: time.Date(2025, 11, 26, 15, 0, 0, 0, time.UTC),
		Keys: map[string]int64{"drink": 1, "cups": 2, "rating": 3, "recommend": 4, "country": 5, "add": 6, "comment": 7}}
	g := generator{rand.New(rand.NewPCG(14, 60))}
	countries := []string{"Germany", "France", "Spain", "Italy", "UK"}
	for _, at := range g.times(60, time.Date(2025, 8, 1, 0, 0, 0, 0, time.UTC), s.Now) {
		v := map[string]any{}
		country := g.of(countries, 30, 20, 20, 15, 15)
		v["country"] = country
		v["drink"] = g.of(f.Questions[0].Options, 25, 30, 20, 15, 10)
		if g.chance(95) {
			v["cups"] = float64(g.r.IntN(4) + g.r.IntN(4))
		}
		shift := map[string]int{"Germany": 0, "France": -1, "Spain": 1, "Italy": 2, "UK": -2}[country]
		rating := 1 + pick(g.r, 6, 8, max(2, 18-2*shift), 35, max(5, 30+4*shift))
		v["rating"] = float64(rating)
		v["recommend"] = g.r.IntN(100) < []int{5, 20, 45, 75, 92}[rating-1]
		set(v, "add", g.some(f.Questions[5].Options, 55, 35, 15, 10))
		set(v, "comment", g.comment(50, rating))
		s.Records = append(s.Records, Record{At: at, V: v})
	}
	return s
}

// Event is an event feedback form with a 0–10 recommendation score: 120 responses.
func Event() *Survey {
	nps := &form.SliderConfig{Min: 0, Max: 10, Step: 1}
	f := &form.Form{ID: 42, Title: "Conference feedback", Questions: []form.Question{
		{ID: 11, Order: 1, Type: form.Slider, Text: "How likely are you to recommend this event to a friend?", Slider: nps},
		{ID: 12, Order: 2, Type: form.Select, Text: "Which session did you enjoy most?", Options: []string{"Keynote", "Workshop", "Panel", "Networking"}},
		{ID: 13, Order: 3, Type: form.Select, Text: "Ticket type", Options: []string{"Early bird", "Regular", "VIP"}},
		{ID: 14, Order: 4, Type: form.Currency, Text: "Ticket price", Currency: &form.CurrencyConfig{Currency: "EUR"}},
		{ID: 15, Order: 5, Type: form.MultiSelect, Text: "Which tracks did you attend?", Options: []string{"Design", "Engineering", "Product", "Marketing"}},
		{ID: 16, Order: 6, Type: form.Rating, Text: "Overall rating"},
		{ID: 17, Order: 7, Type: form.YesNo, Text: "Will you come next year?"},
		{ID: 18, Order: 8, Type: form.Text, Text: "What did you like most?"},
	}}
	s := &Survey{Name: "event", Form: f, Now: time.Date(2025, 10, 22, 9, 0, 0, 0, time.UTC),
		Keys: map[string]int64{"nps": 11, "session": 12, "ticket": 13, "price": 14, "tracks": 15, "rating": 16, "again": 17, "liked": 18}}
	g := generator{rand.New(rand.NewPCG(14, 120))}
	for _, at := range g.times(120, time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC), s.Now) {
		v := map[string]any{}
		ticket := g.of(f.Questions[2].Options, 35, 50, 15)
		v["ticket"] = ticket
		v["price"] = map[string]float64{"Early bird": 149, "Regular": 249, "VIP": 499}[ticket] - float64(10*g.r.IntN(3))
		v["session"] = g.of(f.Questions[1].Options, 35, 25, 15, 25)
		rating := 1 + pick(g.r, 5, 8, 17, 40, 30)
		v["rating"] = float64(rating)
		v["nps"] = float64(min(10, max(0, rating*2+g.r.IntN(3)-1)))
		set(v, "tracks", g.some(f.Questions[4].Options, 45, 55, 40, 25))
		v["again"] = g.r.IntN(100) < []int{5, 15, 40, 70, 90}[rating-1]
		set(v, "liked", g.comment(70, rating))
		s.Records = append(s.Records, Record{At: at, V: v})
	}
	return s
}

// Employee is an employee survey with dates and numbers: 150 responses.
func Employee() *Survey {
	ten := &form.SliderConfig{Min: 1, Max: 10, Step: 1}
	f := &form.Form{ID: 43, Title: "Employee survey 2025", Questions: []form.Question{
		{ID: 21, Order: 1, Type: form.Select, Text: "Department", Options: []string{"Engineering", "Sales", "Marketing", "Support", "Finance"}},
		{ID: 22, Order: 2, Type: form.Number, Text: "Years at the company"},
		{ID: 23, Order: 3, Type: form.Date, Text: "Start date"},
		{ID: 24, Order: 4, Type: form.Rating, Text: "Job satisfaction"},
		{ID: 25, Order: 5, Type: form.Number, Text: "Hours worked per week"},
		{ID: 26, Order: 6, Type: form.YesNo, Text: "Do you work remotely?"},
		{ID: 27, Order: 7, Type: form.MultiSelect, Text: "Which benefits do you use?", Options: []string{"Health insurance", "Gym", "Pension", "Childcare", "Training"}},
		{ID: 28, Order: 8, Type: form.Select, Text: "Office", Options: []string{"Berlin", "London", "Madrid"}},
		{ID: 29, Order: 9, Type: form.Slider, Text: "Work-life balance", Slider: ten},
		{ID: 30, Order: 10, Type: form.Textarea, Text: "Any comments?"},
	}}
	s := &Survey{Name: "employee", Form: f, Now: time.Date(2025, 12, 10, 10, 0, 0, 0, time.UTC),
		Keys: map[string]int64{"dept": 21, "years": 22, "start": 23, "satisfaction": 24, "hours": 25, "remote": 26,
			"benefits": 27, "office": 28, "balance": 29, "comment": 30}}
	g := generator{rand.New(rand.NewPCG(14, 150))}
	for _, at := range g.times(150, time.Date(2025, 9, 1, 0, 0, 0, 0, time.UTC), s.Now) {
		v := map[string]any{}
		dept := g.of(f.Questions[0].Options, 35, 20, 15, 20, 10)
		v["dept"] = dept
		years := g.r.IntN(12)
		if g.chance(93) {
			v["years"] = float64(years)
		}
		if g.chance(88) {
			start := time.Date(2025-years, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, g.r.IntN(330))
			v["start"] = start.Format("2006-01-02")
		}
		shift := map[string]int{"Engineering": 1, "Sales": -1, "Marketing": 0, "Support": -2, "Finance": 2}[dept]
		sat := 1 + pick(g.r, 8, 12, max(4, 25-2*shift), 32, max(5, 23+4*shift))
		v["satisfaction"] = float64(sat)
		v["hours"] = float64(36 + g.r.IntN(8) + g.r.IntN(10)*(5-sat)/3)
		v["remote"] = g.chance(map[string]int{"Engineering": 70, "Sales": 30, "Marketing": 55, "Support": 40, "Finance": 35}[dept])
		set(v, "benefits", g.some(f.Questions[6].Options, 60, 35, 50, 15, 40))
		v["office"] = g.of(f.Questions[7].Options, 50, 30, 20)
		v["balance"] = float64(max(1, min(10, sat*2-g.r.IntN(3)+g.r.IntN(2))))
		set(v, "comment", g.comment(45, sat))
		s.Records = append(s.Records, Record{At: at, V: v})
	}
	return s
}
