package dashboard_test

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"forma/internal/server/servertest"
	"forma/internal/store"
)

// The builder's script, rule editor and preview in headless Chromium, for
// TestBrowserBuilder. They start from the form buildQuestions leaves: Your
// name, Email, Meal, Staying overnight?, Dietary certificate (shown only if
// Meal is Vegan).

// dragScript drags the first question below the third with the events a
// mouse drag makes. Headless Chromium does not start a native drag from
// synthetic mouse input, so the page dispatches them itself; builder.js cannot
// tell the difference.
const dragScript = `(() => {
  const items = document.querySelectorAll("ol.questions > li");
  const handle = items[0].querySelector("[data-drag-handle]");
  const target = items[2];
  const data = new DataTransfer();
  const box = target.getBoundingClientRect();
  const at = { bubbles: true, cancelable: true, dataTransfer: data, clientX: box.left + 20, clientY: box.top + box.height * 0.75 };
  handle.dispatchEvent(new DragEvent("dragstart", at));
  target.dispatchEvent(new DragEvent("dragover", at));
  target.dispatchEvent(new DragEvent("drop", at));
  handle.dispatchEvent(new DragEvent("dragend", at));
})()`

// dragQuestion moves "Your name" below "Meal" by dragging it, waits for the
// editor to come back, and checks the order and what the live region says.
func (c *chrome) dragQuestion() {
	c.t.Helper()
	if hint := c.text(chromedp.Text(chromedp.ID("drag-hint"))); hint == "" {
		c.t.Error("the drag hint is not shown")
	}
	c.do(chromedp.Evaluate[chromedp.Void](dragScript),
		chromedp.WaitVisible(chromedp.Search(`//ol[@class="questions"]/li[3]//p[text()="Moved."]`)),
		chromedp.Poll[chromedp.Void](`document.getElementById("reorder-status").textContent === "Question 1 moved to position 3."`))
	order := c.text(chromedp.Evaluate[string](`Array.from(document.querySelectorAll("ol.questions > li input[name=question]")).map((i) => i.value).join("|")`))
	if order != "Email|Meal|Your name|Staying overnight?|Dietary certificate" {
		c.t.Errorf("the order after the drag: %s", order)
	}
}

// advancedRule sets a rule on Meal with the keyboard and the rule editor's
// selects: if Meal is Vegan, hide "Staying overnight?".
func (c *chrome) advancedRule() {
	c.t.Helper()
	li := ".questions > li:nth-child(2) "
	c.do(chromedp.Focus(chromedp.CSS(li+".rule > summary")), chromedp.KeyEvent(kb.Enter),
		chromedp.WaitVisible(chromedp.CSS(li+`select[name="g0.c0.v"]`)))
	if hidden := c.text(chromedp.Evaluate[string](`String(document.querySelector("` + li + `input[name='a0.v']").closest(".field").hidden)`)); hidden != "true" {
		c.t.Errorf("the score of a show action is not hidden: %s", hidden)
	}
	staying := c.text(chromedp.Evaluate[string](`Array.from(document.querySelectorAll("` + li + `select[name='a0.q'] option")).find((o) => o.textContent.endsWith("Staying overnight?")).value`))
	c.do(chromedp.SetValue(chromedp.CSS(li+`select[name="g0.c0.v"]`), "Vegan"),
		chromedp.SetValue(chromedp.CSS(li+`select[name="a0.type"]`), "hide_question"),
		chromedp.SetValue(chromedp.CSS(li+`select[name="a0.q"]`), staying),
		chromedp.Focus(chromedp.CSS(li+".rule button.primary")), chromedp.KeyEvent(kb.Enter),
		chromedp.WaitVisible(chromedp.Search(`//ol[@class="questions"]/li[2]//p[text()="Advanced rule saved."]`)))
	if got := c.text(chromedp.Text(chromedp.CSS(li + ".rule-state"))); got != "If “2. Meal” is “Vegan”: hide “4. Staying overnight?”." {
		c.t.Errorf("the rule reads %q", got)
	}
}

// previewFrame checks the editor's preview frame (shown at desktop widths):
// it shows the questions as they are now, runs the public page's logic (the
// showIf rule and the advanced one) and records nothing when submitted.
func (c *chrome) previewFrame() {
	c.t.Helper()
	const doc = `document.querySelector("iframe.preview-frame").contentDocument`
	c.do(chromedp.Poll[chromedp.Void](`(() => { const d = ` + doc + `; return !!d && !!d.documentElement.hasAttribute("data-forma-started") && d.querySelectorAll("#forma-form .q").length === 5; })()`))
	shown := func(meal string) string {
		return c.text(chromedp.Evaluate[string](`(() => {
  const d = ` + doc + `;
  const meal = d.querySelector("#forma-form select");
  meal.value = "` + meal + `";
  meal.dispatchEvent(new Event("change", { bubbles: true }));
  return Array.from(d.querySelectorAll("#forma-form .q")).filter((q) => !q.hidden).map((q) => q.querySelector(".q-text").textContent).join("|");
})()`))
	}
	if got := shown("Vegan"); got != "Email|Meal|Your name|Dietary certificate" {
		c.t.Errorf("the preview for a vegan shows %s", got)
	}
	if got := shown("Fish"); got != "Email|Meal|Your name|Staying overnight?" {
		c.t.Errorf("the preview for fish shows %s", got)
	}
	c.do(chromedp.Evaluate[chromedp.Void](doc+`.getElementById("forma-next").click()`),
		chromedp.Poll[chromedp.Void](doc+`.getElementById("forma-status").textContent.startsWith("This is a preview: nothing was sent")`))
}

// previewPage opens the preview as the editor's Preview link does (on a phone,
// where the frame is not shown) and checks its banner and questions.
func (c *chrome) previewPage(editorURL string) {
	c.t.Helper()
	href := c.text(chromedp.Evaluate[string](`document.querySelector(".editor-actions a[href$='/preview']").href`))
	c.do(chromedp.Navigate(href), chromedp.WaitVisible(chromedp.CSS(".preview-note")),
		chromedp.Poll[chromedp.Void](`document.documentElement.hasAttribute("data-forma-started")`))
	if n := c.text(chromedp.Evaluate[string](`String(document.querySelectorAll("#forma-form .q").length)`)); n != "5" {
		c.t.Errorf("the preview page shows %s questions", n)
	}
	c.shot("builder-preview")
	c.do(chromedp.Navigate(editorURL), chromedp.WaitVisible(chromedp.ID("add")))
}

// TestBrowserPreviewSteps opens the preview of a multi-step draft whose last
// question is shown by a score (which the public page asks the server about,
// and which the preview computes itself): it goes through the steps, the score
// shows the question, the last step's Submit only says that nothing is
// recorded, and the page never calls the respondent operations under /f/.
func TestBrowserPreviewSteps(t *testing.T) {
	alloc, _ := startChromium(t, time.Minute)
	env := servertest.New(t, store.SQLite)
	_, key := signedInOwner(t, env, "owner@example.com")
	r := env.For(t).Do("POST", "/api/v1/forms", key, map[string]any{"title": "Order", "displayMode": "multi-step", "questions": []any{
		map[string]any{"type": "select", "question": "Plan", "options": []string{"Basic", "Pro"}, "required": true},
		map[string]any{"type": "number", "question": "Seats", "required": true},
		map[string]any{"type": "yes_no", "question": "Invoice?"}}})
	if r.Status != http.StatusCreated {
		t.Fatalf("create: %d %s", r.Status, r.Body)
	}
	f := r.JSON(t)
	id, qs := int64(f["id"].(float64)), f["questions"].([]any)
	qid := func(i int) int64 { return int64(qs[i].(map[string]any)["id"].(float64)) }
	r = env.For(t).Do("PATCH", fmt.Sprintf("/api/v1/forms/%d/fields/%d", id, qid(0)), key, map[string]any{"conditionalLogic": map[string]any{
		"advanced": map[string]any{
			"conditionGroups": []any{map[string]any{"id": "g", "operator": "AND", "conditions": []any{
				map[string]any{"id": "c", "operator": "greater_than", "value": 5, "valueType": "score"}}}},
			"actions":    []any{map[string]any{"type": "show_question", "targetId": qid(2)}},
			"scoreRules": []any{map[string]any{"id": "s", "questionId": qid(0), "scoreMap": map[string]any{"Pro": 10}}}}}})
	if r.Status != http.StatusOK {
		t.Fatalf("logic: %d %s", r.Status, r.Body)
	}
	tab, cancel := chromedp.NewContext(alloc)
	defer cancel()
	c := &chrome{t: t, tab: tab, width: 390}
	next := chromedp.Click(chromedp.ID("forma-next"))
	step := func(label string) chromedp.Action[chromedp.Void] {
		return chromedp.Poll[chromedp.Void](`document.getElementById("forma-step").textContent === "` + label + `"`)
	}
	c.do(chromedp.EmulateViewport(390, 860), chromedp.Navigate(fmt.Sprintf("%s/forms/%d/preview", env.URL, id)),
		chromedp.WaitVisible(chromedp.ID("email")), chromedp.SendKeys(chromedp.ID("email"), "owner@example.com"),
		chromedp.SendKeys(chromedp.ID("password"), password), chromedp.Submit(chromedp.ID("password")),
		chromedp.WaitVisible(chromedp.CSS(".preview-note")), step("Step 1 of 2"),
		chromedp.SetValue(chromedp.ID(fmt.Sprintf("q_%d", qid(0))), "Pro"),
		chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`document.getElementById("q_%d").dispatchEvent(new Event("change", { bubbles: true }))`, qid(0))),
		step("Step 1 of 3"), next, step("Step 2 of 3"),
		chromedp.SendKeys(chromedp.ID(fmt.Sprintf("q_%d", qid(1))), "3"), next, step("Step 3 of 3"),
		chromedp.WaitVisible(chromedp.ID(fmt.Sprintf("question-%d", qid(2)))), next,
		chromedp.Poll[chromedp.Void](`document.getElementById("forma-status").textContent.startsWith("This is a preview: nothing was sent")`))
	if calls := c.text(chromedp.Evaluate[string](`performance.getEntriesByType("resource").map((e) => e.name).filter((n) => n.includes("/f/")).join(" ")`)); calls != "" {
		t.Errorf("the preview called %s", calls)
	}
	if r := env.For(t).Do("GET", fmt.Sprintf("/api/v1/forms/%d/responses", id), key, nil); r.JSON(t)["total"] != float64(0) {
		t.Errorf("responses after the preview: %s", r.Body)
	}
}
