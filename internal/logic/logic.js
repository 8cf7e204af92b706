// Forma conditional logic: the browser twin of the Go package forma/internal/logic.
// Both implement the same evaluation order (documented in the Go package) and pass
// the same test vectors (internal/logic/testdata/vectors.json); change them together.
//
// FormaLogic.evaluate(questions, answers, hidden) takes the questions as the public
// form definition gives them ({id, order, type, question, options, conditionalLogic}),
// the answers keyed by question id and the hidden fields' values keyed by name, and
// returns {visible: {<id>: boolean}, score: number, hasScore: boolean}.
var FormaLogic = (function () {
  "use strict";

  var DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
  var DATE = /^\d{4}-\d{2}-\d{2}$/;
  var TIME = /^\d{2}:\d{2}$/;
  var INTEGER = /^[+-]?\d+$/;

  function evaluate(questions, answers, hidden) {
    var p = newPass(questions, answers || {}, hidden || {});
    for (var i = 0; i < p.questions.length; i++) {
      visit(p, i);
    }
    return { visible: p.visible, score: p.score, hasScore: hasScoring(p.questions) };
  }

  function newPass(questions, answers, values) {
    var qs = questions.slice().sort(function (a, b) { return (a.order || 0) - (b.order || 0); });
    var p = {
      questions: qs, answers: answers, values: values, position: {}, visible: {},
      showable: {}, shown: {}, hidden: {}, scoreTurns: {},
      score: 0, scoreSet: false
    };
    qs.forEach(function (q, i) { p.position[q.id] = i; });
    qs.forEach(function (q, i) { index(p, i, advanced(q)); });
    return p;
  }

  // index records which questions a rule may show and when its score rules apply.
  function index(p, i, rule) {
    if (!rule) return;
    (rule.actions || []).forEach(function (a) {
      if (a.type !== "show_question") return;
      var t = forwardTarget(p, i, a);
      if (t !== null) p.showable[t] = true;
    });
    (rule.scoreRules || []).forEach(function (r) {
      var n = p.position[r.questionId];
      if (n === undefined) return;
      var turn = Math.max(i, n);
      (p.scoreTurns[turn] = p.scoreTurns[turn] || []).push({ owner: p.questions[i].id, rule: r });
    });
  }

  function visit(p, i) {
    var q = p.questions[i];
    p.visible[q.id] = decide(p, q);
    if (!p.visible[q.id]) return;
    (p.scoreTurns[i] || []).forEach(function (e) {
      if (p.visible[e.owner] && p.visible[e.rule.questionId]) {
        addPoints(p, points(e.rule.scoreMap || {}, answer(p, e.rule.questionId)));
      }
    });
    var rule = advanced(q);
    if (rule && ruleHolds(p, rule)) {
      (rule.actions || []).forEach(function (a) { apply(p, i, a); });
    }
  }

  function decide(p, q) {
    if (p.hidden[q.id] || (p.showable[q.id] && !p.shown[q.id])) return false;
    var showIf = q.conditionalLogic && q.conditionalLogic.showIf;
    return !showIf || showIfHolds(p, showIf);
  }

  // answer is null unless the question has been reached and is visible.
  function answer(p, id) {
    if (!p.visible[id]) return null;
    var v = p.answers[String(id)];
    return v === undefined ? null : v;
  }

  function addPoints(p, n) {
    if (!p.scoreSet) p.score += n;
  }

  function apply(p, i, a) {
    if (a.type === "set_score") {
      if (typeof a.value === "number") {
        p.score = a.value;
        p.scoreSet = true;
      }
      return;
    }
    if (a.type === "end_form") {
      hideRange(p, i + 1, p.questions.length);
      return;
    }
    var t = forwardTarget(p, i, a);
    if (t === null) return;
    if (a.type === "show_question") p.shown[t] = true;
    if (a.type === "hide_question") p.hidden[t] = true;
    if (a.type === "skip_to_question" || a.type === "skip_to_section") {
      hideRange(p, i + 1, p.position[t]);
    }
  }

  function hideRange(p, from, to) {
    for (var j = from; j < to; j++) p.hidden[p.questions[j].id] = true;
  }

  // forwardTarget is the target of action a (owned by the i-th question) when it is
  // a question of the form placed after the owner, else null.
  function forwardTarget(p, i, a) {
    var id = questionId(a.targetId);
    if (id === null) return null;
    var j = p.position[id];
    return j !== undefined && j > i ? id : null;
  }

  // questionId reads an integer or a string holding one.
  function questionId(v) {
    if (typeof v === "number" && Number.isInteger(v)) return v;
    if (typeof v === "string" && INTEGER.test(v)) return Number(v);
    return null;
  }

  function advanced(q) {
    return (q.conditionalLogic && q.conditionalLogic.advanced) || null;
  }

  function hasScoring(questions) {
    return questions.some(function (q) {
      var rule = advanced(q);
      return !!rule && ((rule.scoreRules || []).length > 0 ||
        (rule.actions || []).some(function (a) { return a.type === "set_score"; }));
    });
  }

  function points(scoreMap, v) {
    var items = Array.isArray(v) ? v : (unanswered(v) ? [] : [v]);
    var sum = 0;
    items.forEach(function (item) {
      var key = text(item);
      if (Object.prototype.hasOwnProperty.call(scoreMap, key)) sum += scoreMap[key];
    });
    return sum;
  }

  function ruleHolds(p, rule) {
    return (rule.conditionGroups || []).every(function (g) { return groupHolds(p, g); });
  }

  function groupHolds(p, g) {
    var conditions = g.conditions || [];
    var holds = function (c) { return conditionHolds(p, c); };
    return g.operator === "OR" ? conditions.some(holds) : conditions.every(holds);
  }

  // leftSide is what a condition compares: a hidden field's value (unanswered when
  // the submission has none), the score, or an answer.
  function leftSide(p, c) {
    if (c.hiddenField) {
      var v = Object.prototype.hasOwnProperty.call(p.values, c.hiddenField) ? p.values[c.hiddenField] : null;
      return typeof v === "string" ? v : null;
    }
    return c.valueType === "score" ? p.score : answer(p, c.questionId);
  }

  function conditionHolds(p, c) {
    var left = leftSide(p, c);
    if (c.operator === "is_empty") return unanswered(left);
    if (c.operator === "is_not_empty") return !unanswered(left);
    var right = conditionValue(p, c);
    if (unanswered(left) || unanswered(right)) return c.operator === "not_equals";
    return compare(c.operator, left, right);
  }

  function conditionValue(p, c) {
    var v = c.value === undefined ? null : c.value;
    if (c.valueType !== "dynamic") return v;
    var id = questionId(v);
    return id === null ? null : answer(p, id);
  }

  function showIfHolds(p, s) {
    var v = answer(p, s.questionId);
    var equal = !unanswered(v) && anyItem(v, function (item) { return text(item) === s.value; });
    return s.operator === "not_equals" ? !equal : equal;
  }

  function compare(op, left, right) {
    var eq = function (item) { return equal(item, right); };
    var order;
    switch (op) {
      case "equals": return anyItem(left, eq);
      case "not_equals": return !anyItem(left, eq);
      case "contains": return containsText(left, right);
      case "greater_than":
        order = compareOrdered(left, right);
        return order !== null && order > 0;
      case "less_than":
        order = compareOrdered(left, right);
        return order !== null && order < 0;
    }
    return false;
  }

  function anyItem(v, match) {
    return Array.isArray(v) ? v.some(match) : match(v);
  }

  function equal(a, b) {
    var x = number(a), y = number(b);
    if (x !== null && y !== null) return x === y;
    return text(a) === text(b);
  }

  function containsText(haystack, needle) {
    var n = lower(text(needle));
    if (Array.isArray(haystack)) {
      return haystack.some(function (item) { return lower(text(item)) === n; });
    }
    return lower(text(haystack)).indexOf(n) >= 0;
  }

  // compareOrdered orders two numbers, two dates or two times, else returns null.
  function compareOrdered(a, b) {
    if (Array.isArray(a)) return null;
    var x = number(a), y = number(b);
    if (x !== null && y !== null) return x < y ? -1 : (x > y ? 1 : 0);
    var s = text(a), t = text(b);
    var kinds = [DATE, TIME];
    for (var k = 0; k < kinds.length; k++) {
      if (kinds[k].test(s) && kinds[k].test(t)) return s < t ? -1 : (s > t ? 1 : 0);
    }
    return null;
  }

  function number(v) {
    if (typeof v === "number") return v;
    if (typeof v === "string" && DECIMAL.test(v)) {
      var f = Number(v);
      return isFinite(f) ? f : null;
    }
    return null;
  }

  function unanswered(v) {
    return v === null || v === undefined || v === "" || (Array.isArray(v) && v.length === 0);
  }

  function text(v) {
    if (typeof v === "string") return v;
    if (typeof v === "number" || typeof v === "boolean") return String(v);
    if (Array.isArray(v)) return v.map(text).join(", ");
    if (v && typeof v === "object") return typeof v.name === "string" ? v.name : "";
    return "";
  }

  // lower folds case code point by code point with the simple Unicode mapping, as
  // Go's strings.ToLower does (toLowerCase alone maps U+0130 to two code points and
  // lowers a final sigma to ς).
  function lower(s) {
    return Array.from(s, function (ch) { return ch === "\u0130" ? "i" : ch.toLowerCase(); }).join("");
  }

  return { evaluate: evaluate };
})();
