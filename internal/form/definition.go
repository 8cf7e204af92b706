package form

import (
	"encoding/json"
	"fmt"
	"strconv"
)

// The definition of a form is the form as a self-contained, versioned JSON
// document, to keep in a file and to import again, here or on another server
// (GET /forms/{id}/definition, POST /forms/import). It holds what an owner made:
// the details, the settings and the questions with their logic. It holds nothing
// of the server's: no id, share token, publication, dates, responses or webhook
// (neither its URL nor its secret). Questions are named by refs, numbers unique
// in the document, wherever the logic or the settings name a question.
//
// It is not the public definition of GET /f/{shareUrl}/definition, which is
// what a respondent's page needs of a published form (with its question ids and
// without its scoring).

// DefinitionVersion is the version of the definition format: what
// Form.Definition writes in formaDefinition, and the only one a Definition is
// decoded from.
const DefinitionVersion = 1

// Definition is a form's definition. Its settings are the form's Settings,
// whose fields it carries at the top level, as the API shows a form's.
type Definition struct {
	FormaDefinition int         `json:"formaDefinition"`
	Title           string      `json:"title"`
	Description     string      `json:"description"`
	DisplayMode     DisplayMode `json:"displayMode"`
	Settings
	Questions []DefinitionQuestion `json:"questions"`
}

// DefinitionQuestion is a question of a definition: a question's wire fields
// (QuestionJSON) with its ref in place of its id and order.
type DefinitionQuestion struct {
	Ref              int64             `json:"ref"`
	Type             QuestionType      `json:"type"`
	Question         string            `json:"question"`
	Required         bool              `json:"required"`
	Options          []string          `json:"options,omitempty"`
	SliderConfig     *SliderConfig     `json:"sliderConfig,omitempty"`
	CurrencyConfig   *CurrencyConfig   `json:"currencyConfig,omitempty"`
	ConditionalLogic *ConditionalLogic `json:"conditionalLogic,omitempty"`
}

// definitionFields is Definition without its methods, for decoding.
type definitionFields Definition

// UnmarshalJSON reads the version first: a document of another version (or of
// none) is an Invalid *Error naming formaDefinition, whatever else it holds.
// Then it decodes strictly (DecodeStrict).
func (d *Definition) UnmarshalJSON(b []byte) error {
	var v struct {
		Version json.RawMessage `json:"formaDefinition"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	if string(v.Version) != strconv.Itoa(DefinitionVersion) {
		return FieldInvalid("formaDefinition", "must be %d, the version of the definition format this server reads", DefinitionVersion)
	}
	return DecodeStrict(b, (*definitionFields)(d))
}

// Definition returns the definition of f. Each question's ref is its position
// (1, 2, …), and the logic and the settings name questions by their refs.
func (f *Form) Definition() Definition {
	refs := make(map[int64]int64, len(f.Questions))
	for i, q := range f.Questions {
		refs[q.ID] = int64(i + 1)
	}
	d := Definition{FormaDefinition: DefinitionVersion, Title: f.Title, Description: f.Description,
		DisplayMode: f.DisplayMode, Settings: f.Settings.Clone(), Questions: make([]DefinitionQuestion, len(f.Questions))}
	d.Settings.RemapQuestions(refs)
	for i, q := range f.Questions {
		d.Questions[i] = DefinitionQuestion{Ref: refs[q.ID], Type: q.Type, Question: q.Text, Required: q.Required,
			Options: q.Options, SliderConfig: q.Slider, CurrencyConfig: q.Currency}
		if q.Logic != nil {
			d.Questions[i].ConditionalLogic = q.Logic.Remap(refs)
		}
	}
	return d
}

// Form validates d and returns the form it describes, without owner or ids:
// its details and questions are checked by NewForm as POST /forms checks them,
// the refs must be positive and unique, the logic is checked as adding a
// question checks it, and the settings as PATCH /forms/{id} checks them
// (FormPatch.ApplyPatch), with the refs as the question ids both may name. The
// questions' IDs are their refs, which their logic and the settings still name
// (store.ImportForm renames them). Its errors are Invalid *Errors naming the
// fields as the document does (questions[2].conditionalLogic.showIf.questionId,
// thankYou.message).
func (d *Definition) Form() (*Form, error) {
	f, err := NewForm(d.input())
	if err != nil {
		return nil, err
	}
	var p Problems
	refs := d.refs(&p)
	for i, dq := range d.Questions {
		q := &f.Questions[i]
		q.ID, q.Logic = dq.Ref, dq.ConditionalLogic
		if q.Logic != nil {
			ValidateLogic(q.Logic, refs, fmt.Sprintf("questions[%d].conditionalLogic", i), &p)
		}
	}
	if err := p.Err(); err != nil {
		return nil, err
	}
	return f, d.applySettings(f)
}

// input is the body of POST /forms that d amounts to without its settings and
// its questions' logic, which POST /forms cannot take (they may name questions,
// which have no ids on create).
func (d *Definition) input() FormInput {
	in := FormInput{Title: &d.Title, Description: &d.Description, DisplayMode: d.DisplayMode,
		Questions: make([]QuestionInput, len(d.Questions))}
	for i, q := range d.Questions {
		in.Questions[i] = QuestionInput{Type: q.Type, Question: &q.Question, Required: q.Required, Options: q.Options,
			SliderConfig: q.SliderConfig, CurrencyConfig: q.CurrencyConfig}
	}
	return in
}

// applySettings gives f the settings of d as PATCH /forms/{id} gives a form
// settings: the body of a PATCH carrying them, by their JSON names, which the
// PATCH body shares with Settings. A setting PATCH does not take is refused,
// named.
func (d *Definition) applySettings(f *Form) error {
	settings, err := json.Marshal(d.Settings)
	if err != nil {
		return err
	}
	var patch FormPatch
	if err := DecodeStrict(settings, &patch); err != nil {
		return err
	}
	if patch.empty() {
		return nil
	}
	return patch.ApplyPatch(f)
}

// refs checks the questions' refs and returns the valid ones: the question ids
// the logic of d may name.
func (d *Definition) refs(p *Problems) map[int64]bool {
	refs := make(map[int64]bool, len(d.Questions))
	for i, q := range d.Questions {
		field := fmt.Sprintf("questions[%d].ref", i)
		switch {
		case q.Ref < 1:
			p.Add(field, "must be a positive integer")
		case refs[q.Ref]:
			p.Add(field, "duplicates ref %d: each question's ref must be unique", q.Ref)
		default:
			refs[q.Ref] = true
		}
	}
	return refs
}
