package generate

import (
	"strings"

	"forma/internal/ai/text"
)

// The words of German, French and Spanish prompts. A concept's or an intent's
// foreign phrases are tried, besides its English ones, only on prompts in their
// language: the same word may mean two things in two languages (Spanish "nombre"
// is a name, French "nombre de" a count).

// foreignConceptLists are the phrases of each concept by language, written as
// people type them; see phrases for how they are compared.
var foreignConceptLists = map[string]map[language]string{
	"timezone": {german: "zeitzone", french: "fuseau horaire", spanish: "zona horaria"},
	"identifier": {
		german: "nummer|kundennummer|bestellnummer|rechnungsnummer|mitgliedsnummer|versicherungsnummer|" +
			"kennzeichen|postleitzahl|plz|benutzername|steuernummer|ausweisnummer|matrikelnummer|personalnummer|" +
			"iban",
		french: "numéro|numéro de commande|numéro de client|numéro de membre|numéro de dossier|code postal|" +
			"identifiant|immatriculation|plaque d'immatriculation|numéro de sécurité sociale|nom d'utilisateur|" +
			"numéro de série|iban",
		spanish: "número de pedido|número de cliente|número de socio|número de seguro|número de factura|" +
			"número de documento|número de identificación|número de cuenta|número de serie|código postal|" +
			"matrícula|dni|nif|rut|curp|pasaporte|nombre de usuario|iban",
	},
	"email": {
		german:  "e-mail|e-mail-adresse|email-adresse|mail|mailadresse|mail-adresse",
		french:  "e-mail|courriel|adresse e-mail|adresse email|adresse mail|adresse électronique|mail",
		spanish: "correo|correo electrónico|email|e-mail|mail|dirección de correo|dirección de correo electrónico",
	},
	"phone": {
		german: "telefon|telefonnummer|handy|handynummer|mobilnummer|mobiltelefon|rufnummer|tel|festnetz|" +
			"notfallkontakt|notfallnummer|whatsapp",
		french: "téléphone|numéro de téléphone|portable|mobile|tél|numéro de portable|téléphone portable|" +
			"contact d'urgence|téléphone d'urgence|whatsapp",
		spanish: "teléfono|número de teléfono|móvil|celular|número de celular|número de móvil|tel|whatsapp|" +
			"contacto de emergencia|teléfono de emergencia",
	},
	"portfolio": {german: "portfolio|arbeitsproben", french: "portfolio", spanish: "portafolio|portfolio"},
	"website": {
		german:  "webseite|website|homepage|internetseite|link|url",
		french:  "site web|site internet|site|lien|url",
		spanish: "sitio web|página web|web|enlace|link|url",
	},
	"resume": {german: "lebenslauf|cv", french: "cv|curriculum vitae", spanish: "currículum|currículo|curriculum vitae|cv|hoja de vida"},
	"file": {
		german: "hochladen|upload|datei|anhang|foto|fotos|bild|bilder|dokument|dokumente|scan|nachweis|beleg|" +
			"quittung|zeugnis|zeugnisse|screenshot|ausweis|ausweiskopie",
		french: "fichier|pièce jointe|photo|photos|image|images|document|documents|justificatif|certificat|scan|" +
			"capture d'écran|capture|reçu|télécharger|joindre|copie",
		spanish: "archivo|adjunto|foto|fotos|imagen|imágenes|documento|documentos|comprobante|certificado|captura|" +
			"captura de pantalla|recibo|subir|copia",
	},
	"address": {
		german:  "adresse|anschrift|lieferadresse|rechnungsadresse|postanschrift|straße|strasse|wohnadresse",
		french:  "adresse|adresse postale|adresse de livraison|domicile|rue",
		spanish: "dirección|domicilio|dirección de envío|dirección postal|calle",
	},
	"birthdate": {
		german:  "geburtsdatum|geburtstag|geboren am",
		french:  "date de naissance|né le|née le|anniversaire",
		spanish: "fecha de nacimiento|cumpleaños",
	},
	"weekday": {
		german:  "wochentag|bevorzugter tag|welcher tag",
		french:  "jour de la semaine|jour préféré|quel jour",
		spanish: "día de la semana|día preferido|qué día",
	},
	"date": {
		german: "datum|termin|tag|wunschtermin|startdatum|enddatum|anreise|abreise|anreisedatum|abreisedatum|" +
			"lieferdatum|eintrittsdatum|frist|stichtag|ab wann|beginn|ende",
		french: "date|jour|date d'arrivée|date de départ|arrivée|départ|date souhaitée|date de début|échéance|" +
			"date limite|date de livraison|à partir de quand",
		spanish: "fecha|día|fecha de llegada|fecha de salida|llegada|salida|fecha de inicio|fecha límite|" +
			"fecha de entrega|entrega|a partir de cuándo",
	},
	"time": {
		german:  "uhrzeit|zeit|uhr|ankunftszeit|abholzeit|zeitfenster|lieferzeit|wunschzeit",
		french:  "heure|horaire|heure d'arrivée|créneau|heure souhaitée",
		spanish: "hora|horario|hora de llegada|franja horaria",
	},
	"nps": {
		german:  "net promoter|weiterempfehlungswahrscheinlichkeit",
		french:  "net promoter|probabilité de recommandation",
		spanish: "net promoter|probabilidad de recomendación",
	},
	"likelihood": {
		german:  "wie wahrscheinlich|wahrscheinlichkeit|wahrscheinlich",
		french:  "probabilité|quelle probabilité|probable",
		spanish: "probabilidad|qué tan probable|probable",
	},
	"percent": {german: "prozent|prozentsatz", french: "pourcentage|pour cent", spanish: "porcentaje|por ciento"},
	"salary": {
		german:  "gehalt|gehaltsvorstellung|gehaltswunsch|lohn|stundenlohn|vergütung",
		french:  "salaire|prétentions salariales|rémunération|taux horaire",
		spanish: "salario|sueldo|pretensión salarial|expectativa salarial",
	},
	"amount": {
		german:  "budget|preis|kosten|betrag|spende|gebühr|einkommen|umsatz|schadenshöhe|beitrag|mitgliedsbeitrag",
		french:  "budget|prix|coût|montant|don|frais|revenu|revenus|cotisation|tarif",
		spanish: "presupuesto|precio|costo|coste|monto|importe|donación|cuota|ingresos|tarifa",
	},
	"rating": {
		german:  "bewertung|bewerten|zufriedenheit|zufrieden|qualität|sterne|note",
		french:  "note|évaluation|évaluer|satisfaction|satisfait|qualité|étoiles|noter",
		spanish: "calificación|valoración|puntuación|satisfacción|satisfecho|calidad|estrellas|calificar|valorar",
	},
	"age": {german: "alter|wie alt", french: "âge|quel âge", spanish: "edad|qué edad|cuántos años tienes"},
	"experience": {
		german:  "berufserfahrung|jahre erfahrung|erfahrung in jahren|jahre|jahren",
		french:  "années d'expérience|ans d'expérience|années|ans",
		spanish: "años de experiencia|años",
	},
	"quantity": {
		german: "anzahl|menge|wie viele|wie viel|stückzahl|personenzahl|gruppengröße|teilnehmerzahl|gewicht|" +
			"körpergröße|größe in cm|fläche|volumen|durchschnitt|notendurchschnitt",
		french:  "nombre de|nombre|quantité|combien|poids|taille en cm|volume|superficie|surface|moyenne",
		spanish: "número de|cantidad|cuántos|cuántas|cuánto|peso|estatura|altura|superficie|volumen|promedio|nota media",
	},
	"terms": {
		german: "agb|nutzungsbedingungen|datenschutz|datenschutzerklärung|teilnahmebedingungen|satzung|regeln|" +
			"hausordnung",
		french:  "conditions générales|cgu|cgv|règlement|politique de confidentialité|conditions",
		spanish: "términos|términos y condiciones|condiciones|política de privacidad|reglamento|normas|aviso de privacidad",
	},
	"consent": {
		german: "einverständnis|einverstanden|zustimmung|ich stimme zu|akzeptiere|akzeptieren|erlaubnis|" +
			"genehmigung|einwilligung",
		french:  "consentement|accepte|accord|autorisation|autorise|droit à l'image",
		spanish: "consentimiento|acepto|aceptar|autorización|autorizo|permiso|de acuerdo",
	},
	"newsletter": {
		german:  "newsletter|abonnieren",
		french:  "newsletter|infolettre|abonner|abonnement",
		spanish: "boletín|newsletter|suscribirse|suscripción",
	},
	"attendance": {
		german:  "teilnahme|teilnehmen|dabei|zusage",
		french:  "présence|participation|participerez|serez-vous présent",
		spanish: "asistencia|asistirás|asistirá|asistir|asistiré",
	},
	"yesno": {
		german:  "erstes mal|neukunde|über 18|volljährig|raucher|führerschein",
		french:  "première fois|nouveau client|plus de 18 ans|majeur|fumeur|permis de conduire",
		spanish: "primera vez|cliente nuevo|mayor de edad|fumador|carné de conducir|licencia de conducir",
	},
	"message": {
		german:  "nachricht|ihre nachricht|mitteilung",
		french:  "message|votre message",
		spanish: "mensaje|su mensaje|tu mensaje",
	},
	"comments": {
		german: "kommentar|kommentare|anmerkung|anmerkungen|bemerkung|bemerkungen|hinweis|hinweise|notizen|" +
			"wünsche|sonderwünsche|sonstiges|fragen|feedback|anliegen|vorschlag|vorschläge|" +
			"verbesserungsvorschlag|verbesserungsvorschläge",
		french: "commentaire|commentaires|remarque|remarques|suggestion|suggestions|notes|questions|" +
			"demandes particulières|autre chose|précisions|informations complémentaires|avis",
		spanish: "comentario|comentarios|observaciones|sugerencia|sugerencias|notas|preguntas|" +
			"peticiones especiales|algo más|información adicional|opinión",
	},
	"description": {
		german: "beschreibung|beschreiben|beschreibe|erklären|details|grund|warum|motivation|anschreiben|" +
			"motivationsschreiben|über sie|über dich|gefallen|verbessern|besser|verbesserung|allergien|allergie|" +
			"unverträglichkeiten|medikamente|vorerkrankungen|erwartungen|ziele|problem|was ist passiert|" +
			"schadensbeschreibung",
		french: "description|décrire|décrivez|détails|raison|motif|pourquoi|motivation|lettre de motivation|" +
			"biographie|à propos de vous|améliorer|amélioration|points forts|points faibles|apprécié|aimé|" +
			"allergies|allergie|médicaments|antécédents|attentes|objectifs|problème|que s'est-il passé",
		spanish: "descripción|describa|describe|detalles|motivo|razón|por qué|motivación|carta de motivación|" +
			"carta de presentación|biografía|sobre ti|sobre usted|mejorar|mejoras|gustó|alergias|alergia|" +
			"medicamentos|expectativas|objetivos|problema|qué pasó",
	},
	"hear": {
		german:  "von uns erfahren|auf uns aufmerksam|aufmerksam geworden",
		french:  "comment avez-vous connu|nous avez-vous connus|entendu parler de nous",
		spanish: "cómo nos conociste|cómo nos conoció|cómo se enteró|cómo te enteraste|supiste de nosotros",
	},
	"gender": {german: "geschlecht|anrede", french: "sexe|genre|civilité", spanish: "sexo|género"},
	"shirt": {
		german:  "t-shirt-größe|t-shirt größe|shirtgröße|konfektionsgröße|größe",
		french:  "taille de t-shirt|taille t-shirt|taille de tee-shirt|taille",
		spanish: "talla|talla de camiseta|talla de playera",
	},
	"companysize": {
		german:  "unternehmensgröße|firmengröße|mitarbeiterzahl",
		french:  "taille de l'entreprise|nombre de salariés",
		spanish: "tamaño de la empresa|número de empleados",
	},
	"agerange":      {german: "altersgruppe|altersklasse", french: "tranche d'âge", spanish: "rango de edad|grupo de edad"},
	"contactmethod": {german: "kontaktart|kontaktweg", french: "moyen de contact", spanish: "medio de contacto"},
	"employment":    {german: "anstellungsart|beschäftigungsart", french: "type de contrat|type d'emploi", spanish: "tipo de empleo|tipo de contrato"},
	"level": {
		german:  "niveau|kenntnisstand|level|erfahrungslevel|spielstärke",
		french:  "niveau|niveau d'expérience",
		spanish: "nivel|nivel de experiencia",
	},
	"education": {
		german:  "abschluss|bildungsabschluss|schulabschluss|höchster abschluss",
		french:  "diplôme|niveau d'études",
		spanish: "nivel de estudios|estudios",
	},
	"priority":  {german: "priorität|dringlichkeit|schweregrad", french: "priorité|urgence|gravité", spanish: "prioridad|urgencia|gravedad"},
	"frequency": {german: "wie oft|häufigkeit", french: "fréquence|combien de fois", spanish: "frecuencia|cada cuánto"},
	"payment": {
		german:  "zahlungsart|zahlungsmethode|zahlung|bezahlung",
		french:  "mode de paiement|moyen de paiement|paiement",
		spanish: "método de pago|forma de pago|pago",
	},
	"browser": {german: "browser", french: "navigateur", spanish: "navegador"},
	"os":      {german: "betriebssystem", french: "système d'exploitation", spanish: "sistema operativo"},
	"device":  {german: "gerät", french: "appareil", spanish: "dispositivo"},
	"dietary": {
		german:  "ernährung|ernährungsweise|essenswünsche",
		french:  "régime alimentaire|restrictions alimentaires|préférences alimentaires|régime",
		spanish: "dieta|restricciones alimentarias|preferencias alimentarias",
	},
	"meal":   {german: "menü|menüwahl|hauptgericht", french: "menu|plat principal|choix du menu|repas", spanish: "menú|plato principal|plato"},
	"ticket": {german: "ticketart|tickettyp", french: "type de billet", spanish: "tipo de entrada"},
	"place": {
		german:  "land|stadt|ort|wohnort|staatsangehörigkeit|nationalität",
		french:  "pays|ville|lieu|nationalité|localisation",
		spanish: "país|ciudad|lugar|nacionalidad|ubicación",
	},
	"company": {
		german:  "firma|unternehmen|firmenname|arbeitgeber|organisation|schule|universität|hochschule|verein",
		french:  "entreprise|société|nom de l'entreprise|employeur|organisation|école|université|association",
		spanish: "empresa|compañía|nombre de la empresa|organización|escuela|universidad|institución",
	},
	"jobtitle": {
		german:  "position|stelle|beruf|berufsbezeichnung|tätigkeit|titel|rolle",
		french:  "poste|fonction|métier|profession|titre|intitulé du poste",
		spanish: "puesto|cargo|profesión|ocupación|título",
	},
	"firstname": {german: "vorname|rufname", french: "prénom", spanish: "nombre de pila"},
	"lastname":  {german: "nachname|familienname|zuname", french: "nom de famille", spanish: "apellido|apellidos"},
	"name":      {german: "name|vollständiger name|ihr name", french: "nom|nom complet|votre nom", spanish: "nombre|nombre completo|su nombre|tu nombre"},
}

// foreignIntentLists are the phrases of each intent by language, keyed by the
// intent's English title.
var foreignIntentLists = map[string]map[language]string{
	"Net Promoter Score Survey": {german: "net promoter", french: "net promoter", spanish: "net promoter"},
	"Customer Satisfaction Survey": {
		german:  "kundenzufriedenheit|zufriedenheitsumfrage",
		french:  "satisfaction client|enquête de satisfaction|questionnaire de satisfaction",
		spanish: "satisfacción del cliente|encuesta de satisfacción",
	},
	"Bug Report": {
		german:  "fehlermeldung|fehlerbericht|bug",
		french:  "rapport de bug|signaler un bug|bug",
		spanish: "reporte de error|informe de error|bug",
	},
	"Job Application": {
		german:  "bewerbung|bewerbungsformular|stellenbewerbung|job|praktikum",
		french:  "candidature|emploi|recrutement|offre d'emploi|stage",
		spanish: "solicitud de empleo|empleo|trabajo|candidatura|vacante|prácticas",
	},
	"RSVP": {
		german:  "hochzeit|party|feier|einladung|zusage",
		french:  "mariage|fête|soirée|invitation|rsvp",
		spanish: "boda|fiesta|invitación|confirmación de asistencia",
	},
	"Event Registration": {
		german:  "veranstaltung|konferenz|tagung|workshop|seminar|kurs|turnier|wettkampf|lauf|marathon|ferienlager|sommerfest|fest",
		french:  "conférence|événement|atelier|séminaire|webinaire|tournoi|marathon|course|cours",
		spanish: "conferencia|evento|taller|seminario|curso|torneo|maratón|carrera|campamento",
	},
	"Contact Sales": {
		german:  "angebot|kostenvoranschlag|angebotsanfrage|vertrieb|demo",
		french:  "devis|demande de devis|demande d'information|prospect|démo",
		spanish: "presupuesto|cotización|solicitud de presupuesto|solicitud de información|demo",
	},
	"Book an Appointment": {
		german:  "buchung|termin|terminbuchung|terminvereinbarung|reservierung|reservieren|tischreservierung|hotelbuchung",
		french:  "réservation|rendez-vous|réserver|prise de rendez-vous",
		spanish: "reserva|reservación|cita|agendar|reservar",
	},
	"Order Form": {
		german:  "bestellung|bestellformular|bestellen|kauf",
		french:  "commande|bon de commande|achat",
		spanish: "pedido|orden de compra|compra",
	},
	"Quiz": {german: "quiz", french: "quiz", spanish: "quiz|trivia"},
	"Newsletter Signup": {
		german:  "newsletter|abonnieren|verteiler",
		french:  "newsletter|infolettre|abonnement",
		spanish: "boletín|newsletter|suscripción",
	},
	"Contact Us": {
		german:  "kontakt|kontaktformular|kontaktieren|rückruf|rückrufbitte|support",
		french:  "contact|contactez-nous|nous contacter|support",
		spanish: "contacto|contáctenos|contactar|soporte",
	},
	"Incident Report": {
		german:  "schadensmeldung|unfallmeldung|vorfall|unfall|schaden|meldung",
		french:  "déclaration de sinistre|sinistre|incident|accident|signalement",
		spanish: "reporte|informe|incidente|accidente|siniestro|denuncia",
	},
	"Application": {
		german:  "antrag|mitgliedsantrag|aufnahmeantrag|mitgliedschaft",
		french:  "adhésion|demande d'adhésion|bulletin d'adhésion|dossier",
		spanish: "solicitud|membresía|afiliación",
	},
	"Feedback Form": {
		german:  "feedback|rückmeldung|bewertung|meinung",
		french:  "avis|retour|retour d'expérience|évaluation",
		spanish: "opinión|evaluación|valoración",
	},
	"Survey": {
		german:  "umfrage|fragebogen|befragung",
		french:  "sondage|questionnaire|enquête",
		spanish: "encuesta|cuestionario|sondeo",
	},
}

// foreignFormNouns name a form in German, French and Spanish.
var foreignFormNouns = wordSet("formular formulare bogen fragebogen umfrage anmeldung buchung bestellung meldung " +
	"antrag anfrage bewerbung reservierung befragung formulaire sondage questionnaire enquête inscription " +
	"réservation demande candidature bulletin devis déclaration commande formulario encuesta cuestionario " +
	"inscripción solicitud reserva pedido registro reporte confirmación")

// foreignFiller are the words of German, French and Spanish prompts that say
// nothing about a field: asking, making, articles, possessives.
var foreignFiller = wordSet("ich brauche benötige möchte hätte gerne ein eine einen einem einer für unser unsere " +
	"unseren unserem bitte erstelle erstellen mach mache kurze kurzes kurzer kurz einfache einfaches neue neues " +
	"der die das den dem des ihr ihre ihren zum zur je besoin voudrais veux un une pour notre nos créer crée fais " +
	"faire simple court courte petit petite nouveau nouvelle le la les du des votre vos necesito quiero una para " +
	"nuestro nuestra nuestros crea crear haz hacer por favor corto corta sencillo sencilla nuevo nueva rápida " +
	"rápido el los las su sus tu tus")

// foreignArticles open a field without being part of it ("die Lieferadresse",
// "votre e-mail", "su teléfono").
var foreignArticles = wordSet("der die das den dem ein eine einen ihr ihre ihren ihrer ihres le la les un une " +
	"des du votre vos son sa ses leur leurs el los las unos unas su sus tu tus")

// questionGloss reads the question words of each language as the English ones the
// type rules know ("wann" asks "when", "combien" "how many").
var questionGloss = map[language]map[string]string{
	german: {"was": "what", "wie": "how", "welche": "which", "welcher": "which", "welches": "which",
		"welchen": "which", "welchem": "which", "wann": "when", "wo": "where", "woher": "where",
		"wohin": "where", "warum": "why", "wieso": "why", "weshalb": "why", "wer": "who", "wen": "who",
		"wem": "who", "ab wann": "when", "seit wann": "when", "bis wann": "when", "wie viele": "how many",
		"wie viel": "how many", "wie oft": "how often"},
	french: {"que": "what", "quoi": "what", "quel": "which", "quelle": "which", "quels": "which",
		"quelles": "which", "lequel": "which", "laquelle": "which", "comment": "how", "quand": "when",
		"ou": "where", "pourquoi": "why", "qui": "who", "combien": "how many", "est-ce": "do",
		"a quelle frequence": "how often", "a partir de quand": "when", "depuis quand": "when"},
	spanish: {"que": "what", "cual": "which", "cuales": "which", "como": "how", "cuando": "when",
		"donde": "where", "por que": "why", "quien": "who", "quienes": "who", "cuanto": "how many",
		"cuanta": "how many", "cuantos": "how many", "cuantas": "how many", "con que frecuencia": "how often",
		"a partir de cuando": "when"},
}

// germanSubjects follow the verb of a German yes/no question ("Haben Sie ...?").
var germanSubjects = text.Set("sie du ihr wir es")

// frenchInversions end the verb of a French question ("Avez-vous ...?",
// "Le produit correspond-il ...?").
var frenchInversions = []string{"-vous", "-tu", "-il", "-elle", "-on", "-nous", "-ils", "-elles"}

// frenchInversion reports whether w is a French verb inverted with its subject.
func frenchInversion(w string) bool {
	for _, end := range frenchInversions {
		if strings.HasSuffix(w, end) && len(w) > len(end)+1 {
			return true
		}
	}
	return false
}
