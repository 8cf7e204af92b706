package form

// The operators a condition can usefully apply to each type of answer. The API
// accepts every operator on every type, as the contract does (decisions.md says
// how each compares, e.g. greater_than on a text answer compares it as a
// number when it is one); these lists are what the builder offers, so that an
// owner picks among the comparisons that can hold.
var (
	orderedOperators = []string{OpEquals, OpNotEquals, OpGreaterThan, OpLessThan, OpIsEmpty, OpIsNotEmpty}
	textOperators    = []string{OpEquals, OpNotEquals, OpContains, OpIsEmpty, OpIsNotEmpty}
	yesNoOperators   = []string{OpEquals, OpNotEquals, OpIsEmpty, OpIsNotEmpty}
	fileOperators    = []string{OpIsEmpty, OpIsNotEmpty}
)

// ScoreOperators are the operators offered for a condition on the running
// score (valueType score): the score is always a number, never empty.
var ScoreOperators = []string{OpEquals, OpNotEquals, OpGreaterThan, OpLessThan}

// HiddenOperators are the operators offered for a condition on a hidden
// field: its value is text, compared as a number when it is one, and may be
// missing.
var HiddenOperators = conditionOperators

// Operators are the operators offered for a condition on an answer to a
// question of type t: greater_than and less_than for numbers, ratings,
// sliders, amounts, dates and times; contains for text and choices; a file is
// only answered or not.
func (t QuestionType) Operators() []string {
	switch t {
	case Number, Currency, Slider, Rating, Date, Time:
		return orderedOperators
	case Text, Textarea, Email, Phone, URL, Select, MultiSelect:
		return textOperators
	case YesNo:
		return yesNoOperators
	case FileUpload:
		return fileOperators
	}
	return nil
}
