package form

// QuestionType is one of the 15 kinds of question.
type QuestionType string

// The question types, in the order the API reference lists them.
const (
	Text        QuestionType = "text"
	Textarea    QuestionType = "textarea"
	Email       QuestionType = "email"
	Number      QuestionType = "number"
	Phone       QuestionType = "phone"
	URL         QuestionType = "url"
	Date        QuestionType = "date"
	Time        QuestionType = "time"
	Select      QuestionType = "select"
	MultiSelect QuestionType = "multi_select"
	Rating      QuestionType = "rating"
	Slider      QuestionType = "slider"
	YesNo       QuestionType = "yes_no"
	FileUpload  QuestionType = "file_upload"
	Currency    QuestionType = "currency"
)

// QuestionTypes lists every question type.
var QuestionTypes = []QuestionType{
	Text, Textarea, Email, Number, Phone, URL, Date, Time,
	Select, MultiSelect, Rating, Slider, YesNo, FileUpload, Currency,
}

// Valid reports whether t is one of the 15 types.
func (t QuestionType) Valid() bool {
	for _, v := range QuestionTypes {
		if v == t {
			return true
		}
	}
	return false
}

// HasOptions reports whether questions of type t choose among options.
func (t QuestionType) HasOptions() bool { return t == Select || t == MultiSelect }
