package generate

import (
	"slices"

	"forma/internal/ai/text"
	"forma/internal/form"
)

// concept is a kind of field that forms commonly ask for, recognised by its words.
type concept struct {
	key     string            // identity, shared with the templates for de-duplication
	typ     form.QuestionType // the type such a field gets
	phrases []text.Phrase     // any of these in a fragment means this concept
	label   string            // the question text when the fragment names the concept plainly; "" keeps the user's words
	options []string          // default choices for select types
	slider  *form.SliderConfig
	// essential marks fields that a form of any kind needs answered: the first name
	// and email address, and every agreement (a yes/no concept).
	essential bool
	// synonymous concepts mean the same by each of their phrases, so the label
	// fits all of them; otherwise it fits only the first ("mobile number" stays).
	synonymous bool
}

func c(key string, typ form.QuestionType, list, label string) concept {
	return concept{key: key, typ: typ, phrases: phrases(list), label: label}
}

func (k concept) withOptions(opts ...string) concept { k.options = opts; return k }
func (k concept) essentialField() concept            { k.essential = true; return k }
func (k concept) synonyms() concept                  { k.synonymous = true; return k }
func (k concept) withSlider(min, max float64) concept {
	k.slider = &form.SliderConfig{Min: min, Max: max, Step: 1}
	return k
}

// Default choices shared by concepts and templates.
var (
	referralOptions = []string{"Search engine", "Social media", "Friend or colleague", "Advertisement", "Other"}
	severityOptions = []string{"Low", "Medium", "High", "Critical"}
	browserOptions  = []string{"Chrome", "Firefox", "Safari", "Edge", "Other"}
	dietaryOptions  = []string{"Vegetarian", "Vegan", "Gluten-free", "Dairy-free", "Nut allergy", "Halal", "Kosher", "Other"}
	companySizes    = []string{"1-10", "11-50", "51-200", "201-1,000", "More than 1,000"}
	paymentOptions  = []string{"Credit card", "Debit card", "PayPal", "Bank transfer", "Cash"}
)

// concepts are tried together; the best match wins (see matchConcept), and on a tie
// the one listed first.
var concepts = []concept{
	c("timezone", form.Text, "time zone|timezone", "Time zone").synonyms(),
	c("identifier", form.Text, "order number|order id|invoice number|account number|reference number|booking reference|"+
		"confirmation number|membership number|member id|student id|employee id|license plate|licence plate|"+
		"license number|serial number|tracking number|ticket number|vat number|tax id|id number|passport number|"+
		"policy number|zip|zip code|postal code|postcode|model number|handle|username|user name", ""),
	c("email", form.Email, "email|e-mail|email address|e-mail address", "Email address").essentialField().synonyms(),
	c("phone", form.Phone, "phone|phone number|telephone|telephone number|tel|mobile|mobile number|mobile phone|"+
		"cell|cell phone|cellphone|cell number|contact number|whatsapp|whatsapp number|emergency contact", "Phone number"),
	c("linkedin", form.URL, "linkedin|linkedin profile|linkedin url|linkedin profile url", "LinkedIn profile URL").synonyms(),
	c("github", form.URL, "github|github profile|github url|github link", "GitHub profile URL").synonyms(),
	c("portfolio", form.URL, "portfolio|portfolio link|portfolio url|portfolio website", "Portfolio URL").synonyms(),
	c("website", form.URL, "website|web site|homepage|url|link|links|web address", "Website"),
	c("resume", form.FileUpload, "resume|résumé|cv|curriculum vitae", "Resume / CV").synonyms(),
	c("file", form.FileUpload, "upload|attachment|attach|file|photo|picture|image|screenshot|document|headshot|"+
		"logo|scan|receipt|transcript|slides|video|id card|insurance card|proof of|pdf", ""),
	c("address", form.Textarea, "address|mailing address|postal address|shipping address|delivery address|"+
		"billing address|home address|street address|current address", "Address"),
	c("birthdate", form.Date, "date of birth|birthday|birth date|birthdate|dob", "Date of birth").synonyms(),
	c("weekday", form.Select, "day of the week|preferred day|best day|which day|days of the week", "").
		withOptions(weekdays...),
	c("date", form.Date, "date|start date|end date|event date|due date|deadline|check-in|check-out|move-in|"+
		"arrival date|departure date|when can you start|graduation date|wedding date|day", ""),
	c("time", form.Time, "time|preferred time|arrival time|pickup time|delivery time|start time|end time|"+
		"time slot|time of day|time to call", "Preferred time"),
	c("nps", form.Slider, "nps|net promoter|net promoter score|likely to recommend|likelihood to recommend",
		"How likely are you to recommend us to a friend or colleague?").withSlider(0, 10).synonyms(),
	c("likelihood", form.Slider, "how likely|likelihood|how confident|confidence", "").withSlider(0, 10),
	c("percent", form.Slider, "percentage|percent|%", "").withSlider(0, 100),
	c("salary", form.Currency, "salary|salary expectation|expected salary|desired salary|compensation|"+
		"hourly rate|hourly wage|wage|day rate|daily rate|pay rate", ""),
	c("amount", form.Currency, "budget|price|cost|amount|donation|fee|income|revenue|spend|deposit|"+
		"how much|willing to pay", ""),
	c("rating", form.Rating, "rate|rating|stars|star rating|satisfaction|satisfied|quality|overall experience", ""),
	c("age", form.Number, "age|how old", "Age").synonyms(),
	c("experience", form.Number, "years of experience|years experience|experience in years|years", "Years of experience").synonyms(),
	c("quantity", form.Number, "quantity|qty|how many|number of|headcount|party size|team size|group size|"+
		"guests|attendees|occupants|children|gpa|weight|height|how much time|square feet|square foot|sq ft|count|"+
		"square meters|square metres|acres|hectares|miles|kilometers|kilometres|km", ""),
	c("terms", form.YesNo, "terms|terms and conditions|terms of service|privacy policy|waiver|rules|code of conduct",
		"I agree to the terms and conditions").essentialField(),
	c("consent", form.YesNo, "consent|photo release|permission|gdpr|opt in|opt-in|agree|accept", "").essentialField(),
	c("newsletter", form.YesNo, "newsletter|subscribe|mailing list|marketing emails|email updates",
		"Would you like to subscribe to our newsletter?"),
	c("attendance", form.YesNo, "attending|attendance|will attend|able to attend|plus one|plus-one", "Will you attend?"),
	c("yesno", form.YesNo, "first time|first visit|new patient|new customer|returning customer|over 18|"+
		"18 or older|relocate|sponsorship|authorized to work|work authorization|driver's license|"+
		"drivers license|anonymous|smoke|smoker|follow up|follow-up|come back|yes or no", ""),
	c("message", form.Textarea, "message|your message|msg", "Message").synonyms(),
	c("comments", form.Textarea, "comment|feedback|suggestion|notes|note|additional information|additional info|"+
		"additional details|anything else|other information|questions|any questions|special requests|"+
		"special request|instructions|requests|remarks|concerns|complaint|thoughts|other thoughts", ""),
	c("description", form.Textarea, "describe|description|explain|details|detail|what happened|"+
		"steps to reproduce|expected behavior|expected behaviour|expected result|actual behavior|"+
		"actual behaviour|actual result|reason|why|motivation|cover letter|bio|biography|about yourself|"+
		"about you|personal statement|statement|abstract|story|improve|improvement|better|"+
		"medical conditions|medical issues|medical information|medical history|health issues|health conditions|"+
		"health problems|medications|allergies|allergy|liked|like most|like best|enjoy|enjoyed|disliked|"+
		"expected to learn|went wrong|go wrong|challenge|hope|hope to|goals|expectations|review|review text|discuss|"+
		"tell us|tell me|did you like|you liked|like about|achieve", ""),
	c("hear", form.Select, "hear about us|heard about us|hear about|heard about|find us|found us|"+
		"found out about us|referral source|referred by", "How did you hear about us?").withOptions(referralOptions...).synonyms(),
	c("gender", form.Select, "gender", "Gender").withOptions("Female", "Male", "Non-binary", "Prefer not to say").synonyms(),
	c("shirt", form.Select, "t-shirt size|tshirt size|shirt size|jersey size", "T-shirt size").
		withOptions("XS", "S", "M", "L", "XL", "XXL").synonyms(),
	c("companysize", form.Select, "company size|organization size|organisation size", "Company size").
		withOptions(companySizes...).synonyms(),
	c("agerange", form.Select, "age range|age group|age bracket", "Age range").
		withOptions("Under 18", "18-24", "25-34", "35-44", "45-54", "55-64", "65 or older").synonyms(),
	c("contactmethod", form.Select, "contact method|method of contact|best way to contact|best way to reach|"+
		"how to contact", "Preferred contact method").withOptions("Email", "Phone", "Text message").synonyms(),
	c("employment", form.Select, "employment type|job type", "Employment type").
		withOptions("Full-time", "Part-time", "Contract", "Internship").synonyms(),
	c("level", form.Select, "experience level|skill level|level of experience|proficiency", "Experience level").
		withOptions("Beginner", "Intermediate", "Advanced", "Expert"),
	c("education", form.Select, "education|education level|highest education|degree|highest degree", "Highest level of education").
		withOptions("High school", "Associate degree", "Bachelor's degree", "Master's degree", "Doctorate", "Other"),
	c("priority", form.Select, "priority|severity|urgency|importance", "").withOptions(severityOptions...),
	c("frequency", form.Select, "how often|frequency", "").withOptions("Daily", "Weekly", "Monthly", "Rarely", "Never"),
	c("payment", form.Select, "payment method|payment|pay by|payment option|how would you like to pay", "Payment method").
		withOptions(paymentOptions...).synonyms(),
	c("browser", form.Select, "browser|web browser", "Browser").withOptions(browserOptions...).synonyms(),
	c("os", form.Select, "operating system|os|platform", "Operating system").
		withOptions("Windows", "macOS", "Linux", "iOS", "Android", "Other"),
	c("device", form.Select, "device|device type", "Device").withOptions("Desktop or laptop", "Tablet", "Mobile phone", "Other").synonyms(),
	c("dietary", form.MultiSelect, "dietary requirements|dietary restrictions|dietary needs|dietary preferences|"+
		"diet|dietary", "Dietary requirements").withOptions(dietaryOptions...),
	c("meal", form.Select, "meal preference|meal choice|meal option|entree|entrée|main course", "Meal preference").
		withOptions("Meat", "Fish", "Vegetarian", "Vegan"),
	c("ticket", form.Select, "ticket type", "Ticket type").withOptions("General admission", "VIP", "Student").synonyms(),
	c("place", form.Text, "country|country of residence|nationality|city|town|location|free time|spare time", ""),
	c("company", form.Text, "company|company name|organization|organisation|organization name|business|"+
		"business name|employer|current employer|school|university|institution", ""),
	c("jobtitle", form.Text, "job title|title|role|job role|position|current role|occupation|profession", ""),
	c("firstname", form.Text, "first name|given name|forename", "First name").essentialField().synonyms(),
	c("lastname", form.Text, "last name|surname|family name", "Last name").essentialField().synonyms(),
	c("contactname", form.Text, "contact name|emergency contact name|contact person", ""),
	c("name", form.Text, "name|full name|your name", "Full name").essentialField().synonyms(),
}

// conceptPhrases are the phrases of each concept (by its index in concepts) that
// are tried on a prompt in each language: the English ones, and those of the
// prompt's language (foreignConceptLists).
var conceptPhrases = func() map[language][][]text.Phrase {
	byLang := map[language][][]text.Phrase{}
	for _, lang := range append([]language{english}, foreignLanguages...) {
		for _, k := range concepts {
			byLang[lang] = append(byLang[lang], slices.Concat(k.phrases, phrases(foreignConceptLists[k.key][lang])))
		}
	}
	for key := range foreignConceptLists {
		conceptByKey(key) // a key without a concept is a mistake in the table
	}
	return byLang
}()

// conceptByKey returns the concept with the given key.
func conceptByKey(key string) concept {
	for _, k := range concepts {
		if k.key == key {
			return k
		}
	}
	panic("generate: no concept " + key)
}
