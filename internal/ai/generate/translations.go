package generate

// translations are the German, French and Spanish of the texts the generator adds
// to a form (template questions, default choices), keyed by the English text. A
// foreign prompt's form takes only translated template questions; a choice without
// a translation is the same in every language ("PayPal", "XL").
var translations = map[string][3]string{ // German, French, Spanish
	// Questions of the templates.
	"Full name":     {"Vollständiger Name", "Nom complet", "Nombre completo"},
	"Name":          {"Name", "Nom", "Nombre"},
	"Your name":     {"Ihr Name", "Votre nom", "Su nombre"},
	"First name":    {"Vorname", "Prénom", "Nombre"},
	"Email address": {"E-Mail-Adresse", "Adresse e-mail", "Correo electrónico"},
	"Email address (if you would like a reply)": {"E-Mail-Adresse (falls Sie eine Antwort wünschen)",
		"Adresse e-mail (si vous souhaitez une réponse)", "Correo electrónico (si desea una respuesta)"},
	"Email address (for follow-up questions)": {"E-Mail-Adresse (für Rückfragen)",
		"Adresse e-mail (pour vous recontacter)", "Correo electrónico (para preguntas de seguimiento)"},
	"Email address (optional, if you would like a reply)": {"E-Mail-Adresse (optional, falls Sie eine Antwort wünschen)",
		"Adresse e-mail (facultatif, si vous souhaitez une réponse)", "Correo electrónico (opcional, si desea una respuesta)"},
	"Work email":              {"Geschäftliche E-Mail-Adresse", "E-mail professionnel", "Correo electrónico del trabajo"},
	"Phone number":            {"Telefonnummer", "Numéro de téléphone", "Teléfono"},
	"Subject":                 {"Betreff", "Objet", "Asunto"},
	"Message":                 {"Nachricht", "Message", "Mensaje"},
	"Your message":            {"Ihre Nachricht", "Votre message", "Su mensaje"},
	"Comments":                {"Kommentare", "Commentaires", "Comentarios"},
	"Any other comments?":     {"Weitere Anmerkungen?", "Autres commentaires ?", "¿Algún otro comentario?"},
	"Company":                 {"Firma", "Entreprise", "Empresa"},
	"Company or organization": {"Firma oder Organisation", "Entreprise ou organisation", "Empresa u organización"},
	"Company size":            {"Unternehmensgröße", "Taille de l'entreprise", "Tamaño de la empresa"},
	"Job title":               {"Berufsbezeichnung", "Poste", "Puesto"},
	"How did you hear about us?": {"Wie haben Sie von uns erfahren?", "Comment avez-vous entendu parler de nous ?",
		"¿Cómo se enteró de nosotros?"},
	"How did you hear about this event?": {"Wie haben Sie von dieser Veranstaltung erfahren?",
		"Comment avez-vous entendu parler de cet événement ?", "¿Cómo se enteró de este evento?"},
	"How would you rate your overall experience?": {"Wie bewerten Sie Ihre Erfahrung insgesamt?",
		"Comment évaluez-vous votre expérience globale ?", "¿Cómo valora su experiencia en general?"},
	"What did you like most?":  {"Was hat Ihnen am besten gefallen?", "Qu'avez-vous le plus apprécié ?", "¿Qué es lo que más le gustó?"},
	"What could we improve?":   {"Was können wir verbessern?", "Que pourrions-nous améliorer ?", "¿Qué podríamos mejorar?"},
	"What could we do better?": {"Was können wir besser machen?", "Que pourrions-nous faire mieux ?", "¿Qué podríamos hacer mejor?"},
	"Would you recommend us to a friend?": {"Würden Sie uns einem Freund empfehlen?", "Nous recommanderiez-vous à un ami ?",
		"¿Nos recomendaría a un amigo?"},
	"How likely are you to recommend us to a friend or colleague?": {
		"Wie wahrscheinlich ist es, dass Sie uns einem Freund oder Kollegen empfehlen?",
		"Quelle est la probabilité que vous nous recommandiez à un ami ou un collègue ?",
		"¿Qué probabilidad hay de que nos recomiende a un amigo o colega?"},
	"What is the main reason for your score?": {"Was ist der Hauptgrund für Ihre Bewertung?",
		"Quelle est la principale raison de votre note ?", "¿Cuál es el motivo principal de su puntuación?"},
	"What could we do to improve your experience?": {"Was können wir tun, um Ihre Erfahrung zu verbessern?",
		"Que pourrions-nous faire pour améliorer votre expérience ?", "¿Qué podríamos hacer para mejorar su experiencia?"},
	"May we contact you about your feedback?": {"Dürfen wir Sie zu Ihrem Feedback kontaktieren?",
		"Pouvons-nous vous contacter au sujet de votre avis ?", "¿Podemos contactarle sobre su opinión?"},
	"Overall, how satisfied are you with our service?": {"Wie zufrieden sind Sie insgesamt mit unserem Service?",
		"Dans l'ensemble, êtes-vous satisfait de notre service ?", "En general, ¿qué tan satisfecho está con nuestro servicio?"},
	"How would you rate the quality of our product?": {"Wie bewerten Sie die Qualität unseres Produkts?",
		"Comment évaluez-vous la qualité de notre produit ?", "¿Cómo valora la calidad de nuestro producto?"},
	"How would you rate our customer support?": {"Wie bewerten Sie unseren Kundenservice?",
		"Comment évaluez-vous notre service client ?", "¿Cómo valora nuestra atención al cliente?"},
	"How long have you been a customer?": {"Wie lange sind Sie schon Kunde?", "Depuis combien de temps êtes-vous client ?",
		"¿Cuánto tiempo lleva siendo cliente?"},
	"Summary of the problem":         {"Kurzbeschreibung des Problems", "Résumé du problème", "Resumen del problema"},
	"Steps to reproduce":             {"Schritte zum Nachvollziehen", "Étapes pour reproduire", "Pasos para reproducirlo"},
	"What did you expect to happen?": {"Was haben Sie erwartet?", "Qu'attendiez-vous ?", "¿Qué esperaba que ocurriera?"},
	"What actually happened?":        {"Was ist tatsächlich passiert?", "Que s'est-il réellement passé ?", "¿Qué ocurrió realmente?"},
	"Severity":                       {"Schweregrad", "Gravité", "Gravedad"},
	"Browser":                        {"Browser", "Navigateur", "Navegador"},
	"Screenshot or attachment":       {"Screenshot oder Anhang", "Capture d'écran ou pièce jointe", "Captura de pantalla o archivo adjunto"},
	"Position you are applying for": {"Stelle, auf die Sie sich bewerben", "Poste pour lequel vous postulez",
		"Puesto al que se postula"},
	"LinkedIn profile URL": {"LinkedIn-Profil (URL)", "Profil LinkedIn (URL)", "Perfil de LinkedIn (URL)"},
	"Years of experience":  {"Jahre Berufserfahrung", "Années d'expérience", "Años de experiencia"},
	"Resume / CV":          {"Lebenslauf", "CV", "Currículum"},
	"Cover letter":         {"Anschreiben", "Lettre de motivation", "Carta de presentación"},
	"Earliest start date":  {"Frühestes Eintrittsdatum", "Date de début au plus tôt", "Fecha de incorporación más temprana"},
	"Will you attend?":     {"Nehmen Sie teil?", "Serez-vous présent ?", "¿Asistirá?"},
	"Number of guests (including you)": {"Anzahl der Gäste (einschließlich Ihnen)", "Nombre d'invités (vous compris)",
		"Número de invitados (incluido usted)"},
	"Meal preference":                   {"Menüwahl", "Choix du repas", "Preferencia de menú"},
	"Dietary restrictions or allergies": {"Ernährungseinschränkungen oder Allergien", "Restrictions alimentaires ou allergies", "Restricciones alimentarias o alergias"},
	"Message for the hosts":             {"Nachricht an die Gastgeber", "Message pour les hôtes", "Mensaje para los anfitriones"},
	"Dietary requirements":              {"Ernährungswünsche", "Régime alimentaire", "Necesidades alimentarias"},
	"Accessibility needs or other requests": {"Barrierefreiheit oder andere Wünsche", "Besoins d'accessibilité ou autres demandes",
		"Necesidades de accesibilidad u otras peticiones"},
	"What can we help you with?":            {"Wobei können wir Ihnen helfen?", "Comment pouvons-nous vous aider ?", "¿En qué podemos ayudarle?"},
	"Which service would you like to book?": {"Welche Leistung möchten Sie buchen?", "Quel service souhaitez-vous réserver ?", "¿Qué servicio desea reservar?"},
	"Preferred date":                        {"Wunschtermin", "Date souhaitée", "Fecha preferida"},
	"Preferred time":                        {"Bevorzugte Uhrzeit", "Heure souhaitée", "Hora preferida"},
	"Is this your first visit?":             {"Ist dies Ihr erster Besuch?", "Est-ce votre première visite ?", "¿Es su primera visita?"},
	"Notes or special requests":             {"Anmerkungen oder besondere Wünsche", "Remarques ou demandes particulières", "Notas o peticiones especiales"},
	"What would you like to order?":         {"Was möchten Sie bestellen?", "Que souhaitez-vous commander ?", "¿Qué desea pedir?"},
	"Quantity":                              {"Menge", "Quantité", "Cantidad"},
	"Preferred delivery date":               {"Gewünschtes Lieferdatum", "Date de livraison souhaitée", "Fecha de entrega preferida"},
	"Delivery address":                      {"Lieferadresse", "Adresse de livraison", "Dirección de entrega"},
	"Payment method":                        {"Zahlungsart", "Mode de paiement", "Método de pago"},
	"Special instructions":                  {"Besondere Hinweise", "Instructions particulières", "Instrucciones especiales"},
	"Which topics interest you?":            {"Welche Themen interessieren Sie?", "Quels sujets vous intéressent ?", "¿Qué temas le interesan?"},
	"How often would you like to hear from us?": {"Wie oft möchten Sie von uns hören?", "À quelle fréquence souhaitez-vous avoir de nos nouvelles ?",
		"¿Con qué frecuencia desea saber de nosotros?"},
	"I agree to receive emails and know I can unsubscribe at any time": {
		"Ich möchte E-Mails erhalten und weiß, dass ich mich jederzeit abmelden kann",
		"J'accepte de recevoir des e-mails et je sais que je peux me désabonner à tout moment",
		"Acepto recibir correos y sé que puedo darme de baja en cualquier momento"},
	"Date of the incident":  {"Datum des Vorfalls", "Date de l'incident", "Fecha del incidente"},
	"Time of the incident":  {"Uhrzeit des Vorfalls", "Heure de l'incident", "Hora del incidente"},
	"Where did it happen?":  {"Wo ist es passiert?", "Où cela s'est-il passé ?", "¿Dónde ocurrió?"},
	"What happened?":        {"Was ist passiert?", "Que s'est-il passé ?", "¿Qué ocurrió?"},
	"Photos or documents":   {"Fotos oder Dokumente", "Photos ou documents", "Fotos o documentos"},
	"Date of birth":         {"Geburtsdatum", "Date de naissance", "Fecha de nacimiento"},
	"Address":               {"Adresse", "Adresse", "Dirección"},
	"Why are you applying?": {"Warum bewerben Sie sich?", "Pourquoi postulez-vous ?", "¿Por qué lo solicita?"},
	"Supporting documents":  {"Unterlagen", "Pièces justificatives", "Documentos de apoyo"},
	"City or town":          {"Stadt oder Ort", "Ville", "Ciudad"},
	"Why are you signing?":  {"Warum unterschreiben Sie?", "Pourquoi signez-vous ?", "¿Por qué firma?"},
	"Keep me updated about this campaign": {"Halten Sie mich über diese Kampagne auf dem Laufenden",
		"Tenez-moi informé de cette campagne", "Quiero recibir novedades de esta campaña"},
	"Where are you from?":            {"Woher kommen Sie?", "D'où venez-vous ?", "¿De dónde es?"},
	"Your suggestion":                {"Ihr Vorschlag", "Votre suggestion", "Su sugerencia"},
	"Name (optional)":                {"Name (optional)", "Nom (facultatif)", "Nombre (opcional)"},
	"Emergency contact phone number": {"Telefonnummer für Notfälle", "Téléphone en cas d'urgence", "Teléfono de contacto de emergencia"},
	"I have read and agree to the terms of this waiver": {"Ich habe die Bedingungen dieser Erklärung gelesen und stimme ihnen zu",
		"J'ai lu et j'accepte les conditions de cette décharge", "He leído y acepto las condiciones de esta exención"},
	"Today's date": {"Heutiges Datum", "Date du jour", "Fecha de hoy"},

	// Default choices.
	"Search engine":       {"Suchmaschine", "Moteur de recherche", "Buscador"},
	"Social media":        {"Soziale Medien", "Réseaux sociaux", "Redes sociales"},
	"Friend or colleague": {"Freund oder Kollege", "Ami ou collègue", "Amigo o colega"},
	"Advertisement":       {"Werbung", "Publicité", "Publicidad"},
	"Other":               {"Sonstiges", "Autre", "Otro"},
	"Low":                 {"Niedrig", "Faible", "Baja"},
	"Medium":              {"Mittel", "Moyenne", "Media"},
	"High":                {"Hoch", "Élevée", "Alta"},
	"Critical":            {"Kritisch", "Critique", "Crítica"},
	"Vegetarian":          {"Vegetarisch", "Végétarien", "Vegetariano"},
	"Vegan":               {"Vegan", "Végétalien", "Vegano"},
	"Gluten-free":         {"Glutenfrei", "Sans gluten", "Sin gluten"},
	"Dairy-free":          {"Laktosefrei", "Sans lactose", "Sin lácteos"},
	"Nut allergy":         {"Nussallergie", "Allergie aux fruits à coque", "Alergia a los frutos secos"},
	"Halal":               {"Halal", "Halal", "Halal"},
	"Kosher":              {"Koscher", "Casher", "Kosher"},
	"More than 1,000":     {"Mehr als 1.000", "Plus de 1 000", "Más de 1.000"},
	"201-1,000":           {"201-1.000", "201-1 000", "201-1.000"},
	"Credit card":         {"Kreditkarte", "Carte de crédit", "Tarjeta de crédito"},
	"Debit card":          {"Debitkarte", "Carte de débit", "Tarjeta de débito"},
	"Bank transfer":       {"Überweisung", "Virement bancaire", "Transferencia bancaria"},
	"Cash":                {"Bar", "Espèces", "Efectivo"},
	"Meat":                {"Fleisch", "Viande", "Carne"},
	"Fish":                {"Fisch", "Poisson", "Pescado"},
	"Female":              {"Weiblich", "Femme", "Mujer"},
	"Male":                {"Männlich", "Homme", "Hombre"},
	"Non-binary":          {"Nicht-binär", "Non binaire", "No binario"},
	"Prefer not to say":   {"Keine Angabe", "Je préfère ne pas répondre", "Prefiero no decirlo"},
	"Under 18":            {"Unter 18", "Moins de 18 ans", "Menos de 18"},
	"65 or older":         {"65 oder älter", "65 ans ou plus", "65 o más"},
	"Email":               {"E-Mail", "E-mail", "Correo electrónico"},
	"Phone":               {"Telefon", "Téléphone", "Teléfono"},
	"Text message":        {"SMS", "SMS", "SMS"},
	"Full-time":           {"Vollzeit", "Temps plein", "Jornada completa"},
	"Part-time":           {"Teilzeit", "Temps partiel", "Media jornada"},
	"Contract":            {"Befristet", "CDD", "Contrato temporal"},
	"Internship":          {"Praktikum", "Stage", "Prácticas"},
	"Beginner":            {"Anfänger", "Débutant", "Principiante"},
	"Intermediate":        {"Fortgeschritten", "Intermédiaire", "Intermedio"},
	"Advanced":            {"Sehr fortgeschritten", "Avancé", "Avanzado"},
	"Expert":              {"Experte", "Expert", "Experto"},
	"High school":         {"Schulabschluss", "Baccalauréat", "Bachillerato"},
	"Associate degree":    {"Berufsausbildung", "BTS ou DUT", "Técnico superior"},
	"Bachelor's degree":   {"Bachelor", "Licence", "Grado"},
	"Master's degree":     {"Master", "Master", "Máster"},
	"Doctorate":           {"Promotion", "Doctorat", "Doctorado"},
	"Daily":               {"Täglich", "Tous les jours", "A diario"},
	"Weekly":              {"Wöchentlich", "Chaque semaine", "Cada semana"},
	"Monthly":             {"Monatlich", "Chaque mois", "Cada mes"},
	"Rarely":              {"Selten", "Rarement", "Rara vez"},
	"Never":               {"Nie", "Jamais", "Nunca"},
	"Desktop or laptop":   {"Computer oder Laptop", "Ordinateur", "Ordenador"},
	"Tablet":              {"Tablet", "Tablette", "Tableta"},
	"Mobile phone":        {"Smartphone", "Téléphone mobile", "Teléfono móvil"},
	"General admission":   {"Standard", "Entrée générale", "Entrada general"},
	"Student":             {"Student", "Étudiant", "Estudiante"},
	"Less than a month":   {"Weniger als einen Monat", "Moins d'un mois", "Menos de un mes"},
	"1-6 months":          {"1-6 Monate", "1 à 6 mois", "1-6 meses"},
	"6-12 months":         {"6-12 Monate", "6 à 12 mois", "6-12 meses"},
	"More than a year":    {"Mehr als ein Jahr", "Plus d'un an", "Más de un año"},
	"Product news":        {"Produktneuheiten", "Nouveautés produit", "Novedades del producto"},
	"Tips and tutorials":  {"Tipps und Anleitungen", "Conseils et tutoriels", "Consejos y tutoriales"},
	"Events":              {"Veranstaltungen", "Événements", "Eventos"},
	"Special offers":      {"Sonderangebote", "Offres spéciales", "Ofertas especiales"},
	"Monday":              {"Montag", "Lundi", "Lunes"},
	"Tuesday":             {"Dienstag", "Mardi", "Martes"},
	"Wednesday":           {"Mittwoch", "Mercredi", "Miércoles"},
	"Thursday":            {"Donnerstag", "Jeudi", "Jueves"},
	"Friday":              {"Freitag", "Vendredi", "Viernes"},
	"Saturday":            {"Samstag", "Samedi", "Sábado"},
	"Sunday":              {"Sonntag", "Dimanche", "Domingo"},
}

// descriptions are the one-sentence descriptions of forms in foreign languages.
var descriptions = map[language]string{
	german:  "Bitte füllen Sie das folgende Formular aus.",
	french:  "Merci de remplir le formulaire ci-dessous.",
	spanish: "Por favor, complete el siguiente formulario.",
}

// fallbackTitles name a foreign form whose prompt gives it no name.
var fallbackTitles = map[language]string{german: "Formular", french: "Formulaire", spanish: "Formulario"}

// translate returns s in the language, and whether it has a translation. English
// is its own translation.
func translate(s string, lang language) (string, bool) {
	if lang == english {
		return s, true
	}
	t, ok := translations[s]
	if !ok {
		return s, false
	}
	return t[translationIndex[lang]], true
}

// translationIndex is the index of each foreign language in translations.
var translationIndex = map[language]int{german: 0, french: 1, spanish: 2}

// translateOptions returns choices in the language: each translated, or as it is
// when it has no translation (a name, a size, a range).
func translateOptions(opts []string, lang language) []string {
	if lang == english {
		return opts
	}
	out := make([]string, len(opts))
	for i, o := range opts {
		out[i], _ = translate(o, lang)
	}
	return out
}

// localize returns the template questions in the language: their texts and
// choices translated; those without a translated text are left out.
func localize(qs []question, lang language) []question {
	if lang == english {
		return qs
	}
	var out []question
	for _, q := range qs {
		t, ok := translate(q.text, lang)
		if !ok {
			continue
		}
		q.text, q.options = t, translateOptions(q.options, lang)
		out = append(out, q)
	}
	return out
}
