package query

import "encoding/json"

// schema is the JSON Schema of Query, written for a tool-calling LLM.
const schema = `{
  "type": "object",
  "description": "A query over the responses of one form. Percentages are of the responses matching filters and from/to. Every result carries matched (responses in scope), n (what the figure was computed from) and total.",
  "properties": {
    "metric": {
      "type": "string",
      "enum": ["count", "percent", "mean", "median", "min", "max", "sum", "distribution", "top", "list", "trend", "sentiment", "stddev", "percentile", "mode", "words"],
      "description": "count: responses (or answers of question). percent: share of the filtered responses that also satisfy match. mean/median/min/max/sum: numeric question (min/max also date and time). distribution: count and share of every answer. top: most common answers (order asc: least common). list: answers as text, newest first. trend: responses (or a numeric question's mean) per day/week/month. sentiment: VADER compound score (-1..1) of text answers with positive/neutral/negative counts. stddev: sample standard deviation of a numeric question. percentile: the given percentile of a numeric question (linear interpolation). mode: the most common answers, all of them when tied. words: the words found in most free-text answers, with the number of answers containing each."
    },
    "question": {"type": "integer", "description": "Id of the question the metric is about. Omit for count of responses, trend of responses, sentiment of all text questions."},
    "filters": {"type": "array", "items": {"$ref": "#/$defs/filter"}, "description": "Conditions selecting the responses, ANDed."},
    "match": {"type": "array", "items": {"$ref": "#/$defs/filter"}, "description": "percent only: the condition whose share among the filtered responses is computed, ANDed."},
    "groupBy": {"type": "integer", "description": "Id of a select, multi_select, yes_no or rating question: the metric is also computed per answer of it."},
    "from": {"type": "string", "description": "Earliest submittedAt, inclusive: YYYY-MM-DD (UTC day) or RFC 3339."},
    "to": {"type": "string", "description": "Latest submittedAt, inclusive: YYYY-MM-DD (whole UTC day) or RFC 3339."},
    "interval": {"type": "string", "enum": ["day", "week", "month"], "description": "trend only; default chosen from the time span. Weeks start on Monday."},
    "limit": {"type": "integer", "minimum": 1, "maximum": 100, "description": "top (default 5), list (default 10), distribution of free text (default 10)."},
    "order": {"type": "string", "enum": ["desc", "asc"], "description": "top only: asc returns the least common answers first."},
    "percentile": {"type": "number", "exclusiveMinimum": 0, "maximum": 100, "description": "percentile only: which percentile, e.g. 90."}
  },
  "required": ["metric"],
  "additionalProperties": false,
  "$defs": {
    "filter": {
      "type": "object",
      "description": "One condition. Set question (an answer), field (submittedAt, score) or hiddenField. Unanswered questions and hidden fields without a value match only is_empty.",
      "properties": {
        "question": {"type": "integer", "description": "Id of the question whose answer is tested."},
        "field": {"type": "string", "enum": ["submittedAt", "score"]},
        "hiddenField": {"type": "string", "description": "Name of a hidden field of the form (listed as hiddenFields) whose value is tested: as text (equals, not_equals, contains), or as a number (gt, gte, lt, lte, between)."},
        "op": {
          "type": "string",
          "enum": ["equals", "not_equals", "contains", "gt", "gte", "lt", "lte", "between", "before", "after", "is_empty", "is_not_empty", "sentiment", "in"],
          "description": "equals/not_equals: same value (text case-insensitive; multi_select: an option chosen / none chosen; yes_no: true or false). contains: case-insensitive substring (multi_select: a chosen option containing it). gt/gte/lt/lte/between: numbers, dates, times, submittedAt, score. before/after: strictly earlier/later. sentiment: text answer whose sentiment is value (positive, neutral, negative). in: equals one of the values of the list value (an \"A or B\" condition)."
        },
        "value": {"description": "Operand: number, string, boolean, date YYYY-MM-DD, time HH:MM or RFC 3339 time. Lower bound of between. For in: a list of such values.", "type": ["number", "string", "boolean", "array"], "items": {"type": ["number", "string", "boolean"]}},
        "to": {"description": "Upper bound of between, inclusive.", "type": ["number", "string"]}
      },
      "required": ["op"],
      "additionalProperties": false
    }
  }
}`

// Schema returns the JSON Schema of the Query JSON that RunJSON accepts, for use as
// the parameters of an LLM function tool.
func Schema() json.RawMessage { return json.RawMessage(schema) }
