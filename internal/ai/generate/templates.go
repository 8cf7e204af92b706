package generate

import (
	"forma/internal/ai/text"
	"forma/internal/form"
)

// intent is a common kind of form. A prompt that names one without listing fields
// gets its template; a prompt that lists only a few fields gets them merged into the
// template when enrich is set.
type intent struct {
	phrases     []text.Phrase
	title       string
	description string
	required    []string // concepts this kind of form needs answered
	enrich      bool
	template    []question
}

// tq is a template question. Its key is also the concept by which a parsed question
// takes its place in mergeTemplate.
func tq(concept string, typ form.QuestionType, wording string, required bool, options ...string) question {
	return question{key: concept, concept: concept, typ: typ, text: wording, required: required, options: options}
}

// npsQuestion is the standard 0 to 10 recommendation question.
func npsQuestion(required bool) question {
	q := tq("nps", form.Slider, "How likely are you to recommend us to a friend or colleague?", required)
	q.slider = &form.SliderConfig{Min: 0, Max: 10, Step: 1}
	return q
}

var (
	nameQ     = tq("name", form.Text, "Full name", true)
	emailQ    = tq("email", form.Email, "Email address", true)
	phoneQ    = tq("phone", form.Phone, "Phone number", false)
	hearQ     = tq("hear", form.Select, "How did you hear about us?", false, referralOptions...)
	feedbackQ = []question{
		tq("rating", form.Rating, "How would you rate your overall experience?", true),
		tq("liked", form.Textarea, "What did you like most?", false),
		tq("improve", form.Textarea, "What could we improve?", false),
		tq("recommend", form.YesNo, "Would you recommend us to a friend?", false),
		tq("comments", form.Textarea, "Any other comments?", false),
		tq("name", form.Text, "Name", false),
		tq("email", form.Email, "Email address (if you would like a reply)", false),
	}
)

// intents are tried in order; the first whose phrase the prompt's header contains
// wins, so the specific ones come first, and feedback on any kind of thing ("feedback
// about our webinar") is feedback.
var intents = []*intent{
	{phrases: phrases("nps|net promoter"), title: "Net Promoter Score Survey",
		description: "Tell us how likely you are to recommend us; it takes less than a minute.",
		required:    []string{"nps"}, enrich: true,
		template: []question{npsQuestion(true),
			tq("reason", form.Textarea, "What is the main reason for your score?", false),
			tq("improve", form.Textarea, "What could we do to improve your experience?", false),
			tq("followup", form.YesNo, "May we contact you about your feedback?", false),
			tq("email", form.Email, "Email address", false)}},
	{phrases: phrases("customer satisfaction|csat|satisfaction survey"), title: "Customer Satisfaction Survey",
		description: "Help us understand how satisfied you are with our service.",
		required:    []string{"rating"}, enrich: true,
		template: []question{
			tq("rating", form.Rating, "Overall, how satisfied are you with our service?", true),
			tq("quality", form.Rating, "How would you rate the quality of our product?", false),
			tq("support", form.Rating, "How would you rate our customer support?", false),
			npsQuestion(false),
			tq("tenure", form.Select, "How long have you been a customer?", false,
				"Less than a month", "1-6 months", "6-12 months", "More than a year"),
			tq("improve", form.Textarea, "What could we do better?", false),
			tq("email", form.Email, "Email address (if you would like a reply)", false)}},
	{phrases: phrases("bug|defect|crash report|issue report|problem report|report a problem|report an issue"),
		title: "Bug Report", description: "Help us fix problems by telling us what went wrong.",
		required: []string{"description"}, enrich: true,
		template: []question{
			tq("summary", form.Text, "Summary of the problem", true),
			tq("description", form.Textarea, "Steps to reproduce", true),
			tq("expected", form.Textarea, "What did you expect to happen?", false),
			tq("actual", form.Textarea, "What actually happened?", true),
			tq("priority", form.Select, "Severity", false, severityOptions...),
			tq("browser", form.Select, "Browser", false, browserOptions...),
			tq("file", form.FileUpload, "Screenshot or attachment", false),
			tq("email", form.Email, "Email address (for follow-up questions)", false)}},
	{phrases: phrases("feedback|evaluation|opinion"), title: "Feedback Form",
		description: "We would love to hear what you think; your feedback helps us improve.",
		enrich:      true, template: feedbackQ},
	{phrases: phrases("survey|questionnaire|poll"), title: "Survey",
		description: "Thank you for taking a few minutes to answer our questions.",
		template:    feedbackQ},
	{phrases: phrases("incident|incident report|accident|damage|damage report|insurance claim"),
		title: "Incident Report", description: "Tell us what happened, when and where.",
		required: []string{"description"}, enrich: true,
		template: []question{nameQ, emailQ, phoneQ,
			tq("date", form.Date, "Date of the incident", true),
			tq("time", form.Time, "Time of the incident", false),
			tq("place", form.Text, "Where did it happen?", true),
			tq("description", form.Textarea, "What happened?", true),
			tq("file", form.FileUpload, "Photos or documents", false)}},
	{phrases: phrases("job application|job|jobs|hiring|career|careers|vacancy|recruitment|employment application|internship"),
		title: "Job Application", description: "Tell us about yourself and upload your resume to apply.",
		required: []string{"resume"}, enrich: true,
		template: []question{nameQ, emailQ, phoneQ,
			tq("jobtitle", form.Text, "Position you are applying for", true),
			tq("linkedin", form.URL, "LinkedIn profile URL", false),
			tq("experience", form.Number, "Years of experience", false),
			tq("resume", form.FileUpload, "Resume / CV", true),
			tq("description", form.Textarea, "Cover letter", false),
			tq("date", form.Date, "Earliest start date", false),
			hearQ}},
	{phrases: phrases("application|apply|admission|enrollment|enrolment|scholarship|grant application"),
		title: "Application", description: "Tell us about yourself to apply.",
		required: []string{"description"}, enrich: true,
		template: []question{nameQ, emailQ, phoneQ,
			tq("birthdate", form.Date, "Date of birth", false),
			tq("address", form.Textarea, "Address", false),
			tq("description", form.Textarea, "Why are you applying?", true),
			tq("file", form.FileUpload, "Supporting documents", false)}},
	{phrases: phrases("rsvp|wedding|party|invitation|dinner|celebration"), title: "RSVP",
		description: "Please let us know whether you can make it.",
		required:    []string{"attendance"}, enrich: true,
		template: []question{nameQ,
			tq("email", form.Email, "Email address", false),
			tq("attendance", form.YesNo, "Will you attend?", true),
			tq("quantity", form.Number, "Number of guests (including you)", false),
			tq("meal", form.Select, "Meal preference", false, conceptByKey("meal").options...),
			tq("dietary", form.Text, "Dietary restrictions or allergies", false),
			tq("message", form.Textarea, "Message for the hosts", false)}},
	{phrases: phrases("event registration|registration|register|conference|workshop|webinar|meetup|" +
		"event|summit|camp|tournament|race|marathon|5k|10k|fun run"),
		title: "Event Registration", description: "Register for the event by filling in your details below.",
		enrich: true,
		template: []question{nameQ, emailQ, phoneQ,
			tq("company", form.Text, "Company or organization", false),
			tq("jobtitle", form.Text, "Job title", false),
			tq("dietary", form.MultiSelect, "Dietary requirements", false, dietaryOptions...),
			tq("comments", form.Textarea, "Accessibility needs or other requests", false),
			tq("hear", form.Select, "How did you hear about this event?", false, referralOptions...)}},
	{phrases: phrases("lead|leads|lead capture|lead generation|demo request|request a demo|book a demo|" +
		"sales|quote|inquiry|enquiry|b2b|prospect"),
		title: "Contact Sales", description: "Tell us about your needs and our team will get back to you.",
		enrich: true,
		template: []question{nameQ,
			tq("email", form.Email, "Work email", true),
			tq("company", form.Text, "Company", true),
			tq("jobtitle", form.Text, "Job title", false),
			phoneQ,
			tq("companysize", form.Select, "Company size", false, companySizes...),
			tq("description", form.Textarea, "What can we help you with?", false),
			hearQ}},
	{phrases: phrases("booking|book a|book an|appointment|reservation|reserve|schedule a|scheduling|consultation"),
		title: "Book an Appointment", description: "Choose a date and time that suits you and we will confirm your booking.",
		required: []string{"date", "time"}, enrich: true,
		template: []question{nameQ, emailQ, phoneQ,
			tq("service", form.Text, "Which service would you like to book?", false),
			tq("date", form.Date, "Preferred date", true),
			tq("time", form.Time, "Preferred time", true),
			tq("yesno", form.YesNo, "Is this your first visit?", false),
			tq("comments", form.Textarea, "Notes or special requests", false)}},
	{phrases: phrases("order|orders|purchase|preorder|pre-order|checkout"),
		title: "Order Form", description: "Place your order and we will confirm the details by email.",
		required: []string{"quantity"}, enrich: true,
		template: []question{nameQ, emailQ, phoneQ,
			tq("product", form.Text, "What would you like to order?", true),
			tq("quantity", form.Number, "Quantity", true),
			tq("date", form.Date, "Preferred delivery date", false),
			tq("address", form.Textarea, "Delivery address", true),
			tq("payment", form.Select, "Payment method", false, paymentOptions...),
			tq("comments", form.Textarea, "Special instructions", false)}},
	{phrases: phrases("quiz|trivia|exam|knowledge test"), title: "Quiz",
		description: "Test your knowledge: answer the questions below.",
		template: []question{
			tq("name", form.Text, "Your name", true),
			tq("email", form.Email, "Email address (to receive your score)", false),
			tq("q1", form.Select, "What is the capital of France?", true, "Berlin", "Madrid", "Paris", "Rome"),
			tq("q2", form.Select, "Which planet is known as the Red Planet?", true, "Venus", "Mars", "Jupiter", "Saturn"),
			tq("q3", form.Number, "How many continents are there?", true),
			tq("q4", form.MultiSelect, "Which of these are primary colors of light?", true, "Red", "Green", "Blue", "Yellow"),
			tq("q5", form.Select, "True or false: water boils at 100 °C at sea level.", true, "True", "False")}},
	{phrases: phrases("newsletter|mailing list|subscribe|subscription|email list|waitlist|wait list"),
		title: "Newsletter Signup", description: "Subscribe to get our latest news and updates in your inbox.",
		enrich: true,
		template: []question{emailQ,
			tq("firstname", form.Text, "First name", false),
			tq("topics", form.MultiSelect, "Which topics interest you?", false,
				"Product news", "Tips and tutorials", "Events", "Special offers"),
			tq("frequency", form.Select, "How often would you like to hear from us?", false, "Weekly", "Monthly"),
			tq("consent", form.YesNo, "I agree to receive emails and know I can unsubscribe at any time", true)}},
	{phrases: phrases("contact|contact us|get in touch|reach us|support|ticket|help desk|helpdesk"),
		title: "Contact Us", description: "Send us a message and we will get back to you as soon as possible.",
		required: []string{"message"}, enrich: true,
		template: []question{nameQ, emailQ, phoneQ,
			tq("subject", form.Text, "Subject", false),
			tq("message", form.Textarea, "Message", true)}},
	{phrases: phrases("petition|open letter"), title: "Petition",
		description: "Add your name to support this petition.", enrich: true,
		template: []question{nameQ, emailQ,
			tq("place", form.Text, "City or town", false),
			tq("comments", form.Textarea, "Why are you signing?", false),
			tq("newsletter", form.YesNo, "Keep me updated about this campaign", false)}},
	{phrases: phrases("guest book|guestbook|visitor book|visitors book|condolence book|memory book"), title: "Guest Book",
		description: "Leave us a few words.", required: []string{"message"}, enrich: true,
		template: []question{tq("name", form.Text, "Your name", true),
			tq("place", form.Text, "Where are you from?", false),
			tq("message", form.Textarea, "Your message", true)}},
	{phrases: phrases("suggestion box|suggestion form|suggestion|suggestions|idea box"), title: "Suggestion Box",
		description: "Share your ideas with us; every suggestion is read.", required: []string{"comments"}, enrich: true,
		template: []question{tq("comments", form.Textarea, "Your suggestion", true),
			tq("name", form.Text, "Name (optional)", false),
			tq("email", form.Email, "Email address (optional, if you would like a reply)", false)}},
	{phrases: phrases("waiver|liability|release form|disclaimer|consent form|hold harmless"), title: "Waiver",
		description: "Please read the terms and confirm that you agree to them.", required: []string{"terms"}, enrich: true,
		template: []question{nameQ,
			tq("birthdate", form.Date, "Date of birth", false),
			tq("phone", form.Phone, "Emergency contact phone number", false),
			tq("terms", form.YesNo, "I have read and agree to the terms of this waiver", true),
			tq("date", form.Date, "Today's date", true)}},
}

// genericIntent is the kind of a form that names no known kind ("a pizza form"):
// it asks who is writing and what they have to say.
var genericIntent = &intent{title: fallbackTitle, description: "Please answer the questions below.",
	template: []question{nameQ, emailQ, tq("comments", form.Textarea, "Comments", false)}}

// foreignIntentPhrases are the phrases of each intent, by its title and language.
var foreignIntentPhrases = func() map[string]map[language][]text.Phrase {
	out := map[string]map[language][]text.Phrase{}
	for title, lists := range foreignIntentLists {
		out[title] = map[language][]text.Phrase{}
		for lang, list := range lists {
			out[title][lang] = phrases(list)
		}
	}
	return out
}()

// findIntent returns the first intent named in ws (read by words) in a prompt of
// the given language, or nil. "In order to" does not name an order.
func findIntent(ws []string, lang language) *intent {
	var kept []string
	for i, w := range ws {
		if w == "order" && i > 0 && ws[i-1] == "in" {
			continue
		}
		kept = append(kept, w)
	}
	for _, in := range intents {
		if text.AnyForms(kept, in.phrases) || text.AnyForms(kept, foreignIntentPhrases[in.title][lang]) {
			return in
		}
	}
	return nil
}
