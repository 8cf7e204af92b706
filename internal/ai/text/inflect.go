package text

// irregularVerbs are English verbs whose past tense is not their base form with
// "-ed": base form, past tense, past participle.
var irregularVerbs = [][3]string{
	{"begin", "began", "begun"}, {"bring", "brought", "brought"}, {"build", "built", "built"},
	{"buy", "bought", "bought"}, {"catch", "caught", "caught"}, {"choose", "chose", "chosen"},
	{"come", "came", "come"}, {"drive", "drove", "driven"}, {"eat", "ate", "eaten"},
	{"feel", "felt", "felt"}, {"find", "found", "found"}, {"fly", "flew", "flown"},
	{"forget", "forgot", "forgotten"}, {"get", "got", "got"}, {"give", "gave", "given"},
	{"go", "went", "gone"}, {"grow", "grew", "grown"}, {"hear", "heard", "heard"},
	{"keep", "kept", "kept"}, {"know", "knew", "known"}, {"learn", "learnt", "learnt"},
	{"leave", "left", "left"}, {"lose", "lost", "lost"}, {"make", "made", "made"},
	{"meet", "met", "met"}, {"pay", "paid", "paid"}, {"run", "ran", "run"},
	{"say", "said", "said"}, {"see", "saw", "seen"}, {"sell", "sold", "sold"},
	{"send", "sent", "sent"}, {"speak", "spoke", "spoken"}, {"spend", "spent", "spent"},
	{"take", "took", "taken"}, {"teach", "taught", "taught"}, {"tell", "told", "told"},
	{"think", "thought", "thought"}, {"wear", "wore", "worn"}, {"win", "won", "won"},
	{"write", "wrote", "written"},
}

// regularPasts are past tenses in "-ed" whose base form is not what is left
// without the "-ed" ("liked", "tried", "preferred"), or that are common enough to
// list ("learned").
var regularPasts = map[string]string{
	"agreed": "agree", "attended": "attend", "booked": "book", "discovered": "discover", "enjoyed": "enjoy",
	"expected": "expect", "experienced": "experience", "joined": "join", "learned": "learn", "liked": "like",
	"loved": "love", "missed": "miss", "needed": "need", "noticed": "notice", "ordered": "order",
	"preferred": "prefer", "purchased": "purchase", "received": "receive", "started": "start",
	"stayed": "stay", "tried": "try", "used": "use", "visited": "visit", "wanted": "want",
}

// pastTenses and irregularForms map forms to base forms; see PastTense and
// IrregularBase.
var pastTenses, irregularForms = func() (past, forms map[string]string) {
	past, forms = map[string]string{}, map[string]string{}
	for w, base := range regularPasts {
		past[w] = base
	}
	for _, v := range irregularVerbs {
		past[v[1]], forms[v[1]] = v[0], v[0]
		if v[2] != v[0] {
			forms[v[2]] = v[0]
		}
	}
	return past, forms
}()

// PastTense returns the base form of a lower-case past tense it knows ("heard" →
// "hear", "liked" → "like"), for turning "what they liked" into "What did you
// like?"; ok is false for other words.
func PastTense(w string) (base string, ok bool) {
	base, ok = pastTenses[w]
	return base, ok
}

// IrregularBase returns the base form of a lower-case past tense or past
// participle of an irregular verb ("gave" and "given" → "give"); ok is false for
// other words, and for a participle that is the base form itself ("come").
func IrregularBase(w string) (base string, ok bool) {
	base, ok = irregularForms[w]
	return base, ok
}
