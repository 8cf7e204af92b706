package respond_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestBrowserEmbedAndLanguages: a page of another origin that loads /embed.js
// shows the form in an iframe that grows to fit it, and its popup opens and
// closes with Esc; a German form says its words and its validation messages in
// German, and so does the page script of a German multi-step form (its steps,
// buttons and the message of a required question left empty at Next); an
// Arabic form is laid out right to left in Arabic. Each is screenshotted at 390
// and 1280 px.
func TestBrowserEmbedAndLanguages(t *testing.T) {
	b := startBrowser(t, 3*time.Minute)
	t.Run("IframeGrowsOnAnotherOrigin", b.testEmbedHeight)
	t.Run("German", b.testGerman)
	t.Run("GermanMultiStep", b.testGermanMultiStep)
	t.Run("ArabicRightToLeft", b.testArabic)
}

func (b *browserEnv) testEmbedHeight(t *testing.T) {
	questions := []any{}
	for i := 1; i <= 12; i++ {
		questions = append(questions, map[string]any{"question": "Question number " + strconv.Itoa(i), "required": i == 1})
	}
	f := createForm(t, b.env, b.key, map[string]any{"title": "Newsletter survey", "questions": questions}, nil, true)
	host := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><html lang="en"><head><meta name="viewport" content="width=device-width, initial-scale=1"><title>Shop</title></head>
<body style="font-family: sans-serif; margin: 0 auto; max-width: 48rem; padding: 1rem">
<h1>Our shop</h1><p>Tell us what you think:</p>
<div data-forma-embed="%[1]s"></div>
<p><button type="button" id="open" data-forma-popup="%[1]s">Take the survey</button></p>
<script src="%[2]s/embed.js" async></script></body></html>`, f.Share, b.env.URL)
	}))
	t.Cleanup(host.Close)
	const iframe = `document.querySelector("[data-forma-embed] iframe")`
	for _, size := range sizes {
		ctx := b.tab(t)
		run(t, ctx, chromedp.EmulateViewport(size.w, size.h), chromedp.Navigate(host.URL))
		waitFor(t, ctx, `!!`+iframe+` && parseInt(`+iframe+`.style.height) > 1000`)
		height := eval[float64](t, ctx, `parseInt(`+iframe+`.style.height)`)
		// The same page on its own, as wide as the iframe: as tall as the iframe made it.
		width := eval[float64](t, ctx, iframe+`.clientWidth`)
		alone := b.tab(t)
		run(t, alone, chromedp.EmulateViewport(int64(width), 600), chromedp.Navigate(b.env.URL+"/f/"+f.Share+"?embed=1"),
			chromedp.WaitReady(chromedp.ID("forma-form")))
		want := eval[float64](t, alone, `Math.ceil(document.body.getBoundingClientRect().height)`)
		if height != want {
			t.Errorf("%s: the iframe is %v px tall, its page %v px", size.name, height, want)
		}
		if scroll := eval[bool](t, ctx, iframe+`.getAttribute("src").endsWith("?embed=1")`); !scroll {
			t.Errorf("the iframe does not show the embedded page")
		}
		shoot(t, ctx, "embed-host-"+size.name+".png")

		run(t, ctx, chromedp.Click(chromedp.ID("open")))
		waitFor(t, ctx, `!!document.querySelector("[role=dialog] iframe")`)
		time.Sleep(500 * time.Millisecond) // let the popup's form load for the screenshot
		shoot(t, ctx, "embed-popup-"+size.name+".png")
		run(t, ctx, chromedp.KeyEvent(kb.Escape))
		waitFor(t, ctx, `!document.querySelector("[role=dialog]") && document.activeElement.id === "open"`)
	}
}

func (b *browserEnv) testGerman(t *testing.T) {
	f := createForm(t, b.env, b.key, map[string]any{"title": "Kundenumfrage", "language": "de", "questions": []any{
		map[string]any{"question": "Ihr Name", "required": true},
		map[string]any{"type": "email", "question": "E-Mail"},
		map[string]any{"type": "rating", "question": "Wie zufrieden sind Sie?"},
	}}, nil, true)
	for _, size := range sizes {
		ctx := b.tab(t)
		run(t, ctx, chromedp.EmulateViewport(size.w, size.h))
		b.open(t, ctx, f)
		if got := eval[string](t, ctx, `document.documentElement.lang + " " + document.getElementById("forma-next").textContent`); got != "de Absenden" {
			t.Errorf("lang and button: %q", got)
		}
		run(t, ctx, chromedp.SendKeys(chromedp.ID(f.field(t, "E-Mail")), "ada@example"), chromedp.Click(chromedp.ID("forma-next")),
			chromedp.WaitVisible(chromedp.ID("error-summary")))
		if got := errorText(t, ctx, f.qid(t, "Ihr Name")); got != "Bitte beantworten Sie diese Frage." {
			t.Errorf("the page says %q", got)
		}
		if got := errorText(t, ctx, f.qid(t, "E-Mail")); got != "Diese Antwort muss eine gültige E-Mail-Adresse sein." {
			t.Errorf("the page says %q", got)
		}
		shoot(t, ctx, "german-"+size.name+".png")
	}
	// Without JavaScript the server says the same, in German.
	_, page := getPage(t, b.env, f.Share)
	resp := postPage(t, b.env, f.Share, [][2]string{{"_started", startToken(t, page)}, {"website", ""}, {f.field(t, "E-Mail"), "ada@example"}})
	mustStatus(t, resp, http.StatusBadRequest)
	mustContain(t, string(resp.Body), "Es gibt ein Problem", "Bitte beantworten Sie diese Frage.",
		"Diese Antwort muss eine gültige E-Mail-Adresse sein.", "Bitte korrigieren Sie die markierten Antworten.")
}

func (b *browserEnv) testGermanMultiStep(t *testing.T) {
	buttons := `document.getElementById("forma-next").textContent + " / " + document.getElementById("forma-back").textContent`
	for _, size := range sizes {
		// A form per size: the page would resume the other size's session.
		f := createForm(t, b.env, b.key, map[string]any{"title": "Anmeldung", "language": "de", "displayMode": "multi-step",
			"questions": []any{
				map[string]any{"question": "Ihr Name", "required": true},
				map[string]any{"type": "yes_no", "question": "Newsletter?", "required": true},
			}}, nil, true)
		name, newsletter := f.qid(t, "Ihr Name"), f.qid(t, "Newsletter?")
		ctx := b.tab(t)
		run(t, ctx, chromedp.EmulateViewport(size.w, size.h))
		b.open(t, ctx, f)
		waitFor(t, ctx, shown(name)+` && document.getElementById("forma-step").textContent === "Schritt 1 von 2"`)
		if got := eval[string](t, ctx, buttons); got != "Weiter / Zurück" {
			t.Errorf("the buttons of step 1: %q", got)
		}
		run(t, ctx, chromedp.Click(chromedp.ID("forma-next")))
		if got := errorText(t, ctx, name); got != "Bitte beantworten Sie diese Frage." {
			t.Errorf("Next with the required question empty: the page says %q", got)
		}
		if !eval[bool](t, ctx, shown(name)+` && !(`+shown(newsletter)+`)`) {
			t.Error("Next went on with the required question empty")
		}
		shoot(t, ctx, "german-steps-"+size.name+".png")
		run(t, ctx, chromedp.SendKeys(chromedp.ID(f.field(t, "Ihr Name")), "Ada"), chromedp.Click(chromedp.ID("forma-next")))
		waitFor(t, ctx, shown(newsletter)+` && document.getElementById("forma-step").textContent === "Schritt 2 von 2"`)
		if got := eval[string](t, ctx, `document.getElementById("forma-next").textContent`); got != "Absenden" {
			t.Errorf("the last step's button: %q", got)
		}
		run(t, ctx, chromedp.Click(chromedp.ID("forma-next")))
		if got := errorText(t, ctx, newsletter); got != "Bitte beantworten Sie diese Frage." {
			t.Errorf("Submit with the required question empty: the page says %q", got)
		}
	}
}

func (b *browserEnv) testArabic(t *testing.T) {
	f := createForm(t, b.env, b.key, map[string]any{"title": "استطلاع العملاء", "language": "ar", "questions": []any{
		map[string]any{"question": "الاسم", "required": true},
		map[string]any{"type": "select", "question": "المدينة", "options": []string{"القاهرة", "دبي"}},
		map[string]any{"type": "yes_no", "question": "هل تنصح بنا؟"},
	}}, nil, true)
	for _, size := range sizes {
		ctx := b.tab(t)
		run(t, ctx, chromedp.EmulateViewport(size.w, size.h))
		b.open(t, ctx, f)
		got := eval[string](t, ctx, `document.documentElement.dir + " " + document.getElementById("forma-next").textContent`)
		if got != "rtl إرسال" {
			t.Errorf("dir and button: %q", got)
		}
		// Right to left: a question's label starts at the right edge of its block.
		if !eval[bool](t, ctx, `(function () { var l = document.querySelector(".q-label"), q = l.closest(".q");
			return Math.abs(l.getBoundingClientRect().right - q.getBoundingClientRect().right) < 2; })()`) {
			t.Error("the labels are not on the right")
		}
		run(t, ctx, chromedp.Click(chromedp.ID("forma-next")), chromedp.WaitVisible(chromedp.ID("error-summary")))
		if got := errorText(t, ctx, f.qid(t, "الاسم")); got != "يرجى الإجابة عن هذا السؤال." {
			t.Errorf("the page says %q", got)
		}
		shoot(t, ctx, "arabic-"+size.name+".png")
	}
}
