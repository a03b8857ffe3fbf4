package letters

import (
	"fmt"
	"slices"
	"strings"

	"ethicsbot/docket"
)

// Data is what a letter's template is given.
type Data struct {
	Kind Kind
	Rule string // the subsection the letter fulfils: "(B)"
	Name string // what it is: "notice of the complaint to the respondent"
	Case string // the case number
	Date string // the letter's date: "Monday 7 December 2026"
	From Party  // the commission
	// Signer is who signs the letter for the commission, name and title: the chair or the
	// clerk as the configuration names them (letters.signers); empty (Signer.Name.Empty)
	// when it names nobody, and the letter is signed "For the" commission.
	Signer Party
	To     Party // the recipient, with the postal address recorded for a party (docket.SetParty)
	// Copies are who receives a copy: the party's representative, if one is recorded.
	Copies    []Party
	Certified bool // the ordinance requires certified mail, return receipt requested
	// Article is the certified-mail article number once the mailing is recorded, in
	// groups of four digits; "" until then.
	Article     string
	Respondent  Text
	Complainant Text
	Sections    string // "§103.10" or "§103.10, §103.05"
	Received    string // the date the commission received the complaint
	// Summary is the complaint's text, given only to the letters that transmit it: the
	// (B) notice to the respondent and the (C)(3) referral. Empty in the others.
	Summary     Text
	Meeting     *Meeting // (B): the sufficiency meeting; (H): the meeting on a frivolous complaint; nil in other letters
	Hearing     *Meeting // (C)(2): the hearing, with a ruling of probable cause; else nil
	Ruling      string   // (C): the ruling as recorded, "probable_cause"; "" before it
	RulingWords string   // the ruling in words: "there is probable cause to proceed"
	RulingDate  string
	// Parts are the rulings on each part of a complaint alleging both sections, which
	// (C)(2) and (C)(3) send different ways; nil when there is one ruling.
	Parts []Part
	// Referred is true when the complaint, or a part of it, was referred to the attorney
	// under (C)(3).
	Referred  bool
	Decision  *Outcome // (E)(2): the recommendation and/or fine; nil before it
	Final     *Outcome // (F): the final recommendation; nil before it
	Attorney  Party    // the attorney designated by the corporate authorities (C)(2), (C)(3)
	Officer   Party    // the officer with authority to discipline (E)(2), (F)
	Documents []Text   // (C)(3): the documents transmitted with the referral
	// Enclosures are what goes in the envelope with the letter, as the letter lists them:
	// the complaint as received (B), the case file's index and documents (C)(3).
	Enclosures []Text
	// Demanded is the date the respondent's (F) demand for a public hearing was received;
	// "" before one.
	Demanded string
	// HearingClosed is true when a session of the hearing was closed to the public, which
	// gives the respondent (F)'s right to demand a public hearing.
	HearingClosed bool
	// DemandBy is, after a closed hearing, the last day the respondent's written demand for
	// a public hearing may reach the commission (F): "Monday 25 January 2027"; "" otherwise.
	DemandBy string
	// Fine is the fine the letter imposes or confirms on its recipient, with how and by when
	// to pay: the (E)(2) recommendation and the (F) final recommendation to the respondent,
	// the (H) finding to the complainant; nil in the other letters, and without a fine.
	Fine *FineTerms
	// FineMin and FineMax are the range of a fine (H) sets: "$1,001" and "$5,000".
	FineMin, FineMax string
	// Frivolous is the (H) finding that the complaint was knowingly frivolous; nil before it.
	Frivolous *Outcome
	// ComplaintEnclosed is true when the complaint as received, from the case file, follows
	// the letter in its packet (Packet): the letter then does not print the complaint's
	// text as entered in the record.
	ComplaintEnclosed bool
}

// Part is the ruling on one part of a complaint alleging both sections.
type Part struct {
	Section string // "103.05"
	Ruling  string // "attorney_referral"
	Words   string // the ruling in words
}

// NoticeData is what a meeting notice's template is given: only what the ordinance makes
// public about a meeting. It has no field for the complaint or the parties' names, so no
// template can post them.
type NoticeData struct {
	Kind    Kind
	Rule    string // (C)(1), (D) or (F)
	Case    string
	Date    string // the notice's date
	From    Party  // the commission
	Meeting Meeting
	Agenda  []Text // numbered items, as docket.CaseAgenda words them
}

// Party is a sender or recipient: name, title and address, which may be empty.
type Party struct {
	Name    Text
	Title   Text
	Address Text // one or more lines
}

// Meeting is a meeting as a letter or notice gives it.
type Meeting struct {
	Name      string // "sufficiency meeting"
	Date      string // "Monday 7 December 2026"
	Time      string // "17:00 CST"
	Place     Text
	Open      bool // open to the public; else closed under Authority
	Authority Text // the Open Meetings Act exception that allows closing it
}

// Outcome is an (E)(2) decision or an (F) final recommendation.
type Outcome struct {
	Date           string
	Findings       Text   // (E): the particular findings
	Recommendation Text   // (E)(2): the discipline recommended; (F): the final recommendation
	Fine           string // "$2,500", or "" without a fine
}

// FineTerms is a fine as the letter to the person fined states it: the amount, the
// payee, where and how to pay, and the date due.
type FineTerms struct {
	Amount string // "$2,500"
	// Due is the last day to pay: "Tuesday 16 February 2027"; "" while a demand for a
	// public hearing stays the fine (F).
	Due string
	// IfNoDemand is true when Due holds only if no demand for a public hearing reaches the
	// commission by Data.DemandBy (F): a demand stays the fine.
	IfNoDemand bool
	// Stayed is true when the respondent's demand for a public hearing stays the fine (F).
	Stayed  bool
	Payee   Text
	Address Text
	Methods []Text
}

const (
	longDate = "Monday 2 January 2006"
	clock    = "15:04 MST"
)

// missing is the error for a setting a document needs and the configuration lacks.
func missing(setting string, k Kind) error {
	return docket.Invalid(k.Rule(), setting,
		fmt.Sprintf("is not set: the %s needs it; add it to ethicsbot.yml (see docs/clerk.md, \"Letters\")", k.Name()))
}

func party(a Addressee) Party {
	return Party{Name: T(a.Name), Title: T(a.Title), Address: T(a.Address)}
}

// configured checks that a configured addressee has a name and an address.
func configured(a Addressee, key string, k Kind) (Party, error) {
	if strings.TrimSpace(a.Name) == "" {
		return Party{}, missing("letters."+key+".name", k)
	}
	if strings.TrimSpace(a.Address) == "" {
		return Party{}, missing("letters."+key+".address", k)
	}
	return party(a), nil
}

// addressed is a party as a letter to them is addressed, and the copy to their
// representative. A letter to a party whose postal address is not recorded is refused,
// naming the party and the command that records it: the ordinance sends the parties'
// papers by certified mail (B), (C)(2), which needs the address.
func addressed(c *docket.Case, p docket.Person, who docket.Party, k Kind) (Party, []Party, error) {
	if strings.TrimSpace(p.Address) == "" {
		return Party{}, nil, docket.Invalid(k.Rule(), string(who)+"_address", fmt.Sprintf(
			"the %s's postal address is not recorded: the %s needs it; record it with /ethics party %s %s "+
				"address=\"line 1 | line 2\"",
			who, k.Name(), c.Number, who))
	}
	to := Party{Name: T(p.Name), Address: T(p.Address)}
	if r := p.Representative; r.Name != "" {
		return to, []Party{{Name: T(r.Name), Address: T(r.Address)}}, nil
	}
	return to, nil, nil
}

func (m *Maker) meeting(k docket.MeetingKind, mt docket.Meeting) Meeting {
	start := mt.Start.In(m.loc)
	return Meeting{Name: k.Name(), Date: start.Format(longDate), Time: start.Format(clock), Place: T(mt.Place),
		Open: !mt.Closed, Authority: T(mt.Authority)}
}

func (m *Maker) day(d docket.Date) string {
	if d.IsZero() {
		return ""
	}
	return d.In(m.loc).Format(longDate)
}

// data gathers what document k's template is given: a *Data for a letter, a *NoticeData
// for a notice.
func (m *Maker) data(c *docket.Case, k Kind, today docket.Date) (any, error) {
	from := m.cfg.Commission
	if strings.TrimSpace(from.Name) == "" {
		from.Name = "Ethics Commission"
	}
	if strings.TrimSpace(from.Address) == "" {
		return nil, missing("letters.commission.address", k)
	}
	if mk, ok := noticeOf[k]; ok {
		var agenda []Text
		for i, item := range docket.CaseAgenda(mk, c.Number) {
			agenda = append(agenda, T(fmt.Sprintf("%d. %s", i+1, item)))
		}
		return &NoticeData{Kind: k, Rule: k.Rule(), Case: c.Number, Date: m.day(today), From: party(from),
			Meeting: m.meeting(mk, c.Meeting(mk)), Agenda: agenda}, nil
	}
	info, _ := docket.Paper(k).Info()
	// (E)(2), (F): the officer the case names; a letter to another ignores an unknown one.
	officer, officerSetting, officerErr := m.cfg.officer(c, k)
	if officerErr != nil && info.To == docket.Officer {
		return nil, officerErr
	}
	d := &Data{Kind: k, Rule: info.Rule, Name: info.Name, Case: c.Number, Date: m.day(today), From: party(from),
		Article:    article(c, docket.Paper(k)),
		Respondent: T(c.Respondent.Name), Complainant: T(c.Complainant.Name),
		Sections: "§" + strings.Join(c.Sections, ", §"), Received: c.Received.In(m.loc).Format(longDate),
		Ruling: string(c.Ruling), RulingWords: c.Ruling.Words(), RulingDate: m.day(c.RulingDate),
		Demanded: m.day(c.DemandReceived),
		Referred: c.Ruling == docket.AttorneyReferral || c.ReferralRuling == docket.AttorneyReferral,
		Attorney: party(m.cfg.Attorney), Officer: party(officer), Signer: m.signer(info)}
	// The table of papers says which the ordinance sends certified (B), (C)(2), (H); a
	// paper the clerk chose to send certified as well carries its article number and the
	// endorsement too.
	d.Certified = info.Certified || d.Article != ""
	d.Enclosures = enclosures(c, info)
	if c.Ground != "" {
		// (C)(2), (I): the dismissal names its ground.
		d.RulingWords = docket.DismissalWords(c.Ruling, c.Ground)
	}
	if c.ReferralRuling != "" {
		for _, sec := range c.Sections {
			r := c.Ruling
			if sec == c.ReferralSection {
				r = c.ReferralRuling
			}
			d.Parts = append(d.Parts, Part{Section: sec, Ruling: string(r), Words: r.Words()})
		}
	}
	var err error
	switch info.To {
	case docket.Respondent:
		d.To, d.Copies, err = addressed(c, c.Respondent, docket.Respondent, k)
	case docket.Complainant:
		d.To, d.Copies, err = addressed(c, c.Complainant, docket.Complainant, k)
	case docket.Attorney:
		d.To, err = configured(m.cfg.Attorney, "attorney", k)
	case docket.Officer:
		d.To, err = configured(officer, officerSetting, k)
	}
	if err != nil {
		return nil, err
	}
	// What the paper must give, as its row in docket's table of papers says.
	if info.Complaint {
		// (B): a copy of the complaint to the respondent; (C)(3): the complaint to the attorney.
		d.Summary = T(c.Summary)
	}
	if info.Meeting != "" {
		// (B): the sufficiency meeting's date, time and place; (H): the meeting at which
		// the complainant is heard.
		d.Meeting = ptr(m.meeting(info.Meeting, c.Meeting(info.Meeting)))
	}
	if info.Hearing && c.Hearing.Scheduled() {
		// (C)(2): the notice of probable cause includes the hearing date.
		d.Hearing = ptr(m.meeting(docket.HearingMeeting, c.Hearing))
	}
	if info.Documents {
		// (C)(3): all documents in the commission's custody.
		d.Documents = m.documents(c, docket.Paper(k))
	}
	if dc := c.Decision; dc != nil {
		// (E)(2) and (E)(1): the letters of the decision, a recommendation or a dismissal.
		d.Decision = &Outcome{Date: m.day(dc.On), Findings: T(dc.Findings), Recommendation: T(dc.Recommendation),
			Fine: fine(dc.Fine)}
	}
	if f := c.Final; f != nil {
		d.Final = &Outcome{Date: m.day(f.On), Recommendation: T(f.Text), Fine: fine(f.Fine)}
	}
	if h := c.Frivolous; h != nil {
		d.Frivolous = &Outcome{Date: m.day(h.On), Findings: T(h.Text), Fine: fine(h.Fine)}
	}
	eng := m.cfg.Engine
	d.FineMin, d.FineMax, d.HearingClosed = fine(eng.Ord.FineMin), fine(eng.Ord.FineMax), c.HearingClosed
	if by, ok := eng.DemandBy(c); ok {
		d.DemandBy = m.day(by)
	}
	if rule, ok := finedBy[docket.Paper(k)]; ok {
		if f, ok := eng.FineBy(c, rule); ok {
			if d.Fine, err = m.fineTerms(f, k); err != nil {
				return nil, err
			}
		}
	}
	return d, nil
}

// finedBy pairs each letter to a person fined with the act whose fine it states: the
// (E)(2) recommendation and the (F) final recommendation to the respondent, the (H)
// finding to the complainant. A letter to the officer with authority to discipline states
// the fine, not how to pay it.
var finedBy = map[docket.Paper]string{
	docket.RecommendationToResp: "(E)(2)",
	docket.FinalToRespondent:    "(F)",
	docket.FrivolousFinding:     "(H)",
}

// fineTerms is fine f as letter k to the person fined states it, with the configured
// payee, address and ways to pay; refused, naming the setting, when they are not
// configured: a letter imposing a fine that does not say how to pay it cannot be mailed.
func (m *Maker) fineTerms(f docket.Fine, k Kind) (*FineTerms, error) {
	p := m.cfg.Payment
	switch {
	case strings.TrimSpace(p.Payee) == "":
		return nil, missing("payment.payee", k)
	case strings.TrimSpace(p.Address) == "":
		return nil, missing("payment.address", k)
	case len(p.Methods) == 0:
		return nil, missing("payment.methods", k)
	}
	t := &FineTerms{Amount: fine(f.Amount), Due: m.day(f.Due.Due), IfNoDemand: !f.DemandBy.IsZero() && !f.Stayed,
		Stayed: f.Stayed, Payee: T(p.Payee), Address: T(p.Address)}
	for _, w := range p.Methods {
		t.Methods = append(t.Methods, T(w))
	}
	return t, nil
}

func ptr[T any](v T) *T { return &v }

func fine(n int) string {
	if n == 0 {
		return ""
	}
	return "$" + docket.Dollars(n)
}

// article is the certified-mail article number recorded for paper p, in groups of four
// digits, or "". Mailings recorded before papers were named carry no Paper: a (B) notice
// is then known by its rule and recipient, and a dismissal notice likewise.
func article(c *docket.Case, p docket.Paper) string {
	if ml, ok := c.Sent(p); ok {
		return groups(ml.Article)
	}
	info, _ := p.Info()
	if !info.Certified {
		return ""
	}
	for _, ml := range c.Mailings {
		if ml.Paper != "" || ml.Recipient != info.To || ml.Article == "" {
			continue
		}
		if ml.Satisfies == info.Rule {
			return groups(ml.Article)
		}
	}
	return ""
}

// groups writes an article number as USPS prints it: 9407 1118 9876 5432 1016 34.
func groups(n string) string {
	var parts []string
	for len(n) > 4 {
		parts, n = append(parts, n[:4]), n[4:]
	}
	return strings.Join(append(parts, n), " ")
}

// documents lists what the (C)(3) referral transmits: the complaint, and each paper the
// commission has sent on it, but for the paper p being produced: a transmittal does not
// transmit itself, even once its own mailing is recorded.
func (m *Maker) documents(c *docket.Case, p docket.Paper) []Text {
	how := "its text as entered in the record is attached"
	if complaintDocument(c) >= 0 {
		how = "as received, with the case file's other documents, listed in the enclosed index"
	}
	out := []Text{T(fmt.Sprintf("The complaint of %s against %s, alleging a violation of §%s, received %s (%s).",
		c.Complainant.Name, c.Respondent.Name, strings.Join(c.Sections, ", §"), c.Received.In(m.loc).Format(longDate), how))}
	for _, ml := range c.Mailings {
		if ml.Paper == p {
			continue
		}
		what := "notice " + ml.Satisfies + " to the " + string(ml.Recipient)
		if info, ok := ml.Paper.Info(); ok {
			what = info.Name + " " + info.Rule
		}
		line := fmt.Sprintf("The %s, mailed %s", what, m.day(ml.Mailed))
		if ml.Article != "" {
			line += ", certified mail article " + groups(ml.Article)
		}
		if !ml.Returned.IsZero() {
			line += ", return receipt signed " + m.day(ml.Returned)
		}
		out = append(out, T(line+"."))
	}
	if !c.RulingDate.IsZero() {
		out = append(out,
			T(fmt.Sprintf("The commission's ruling of %s (C)(1), (C)(3): %s.", m.day(c.RulingDate), c.Ruling.Words())))
	}
	return out
}

// enclosures lists what goes in the envelope with paper info of case c: the complaint as
// received with the (B) notice to the respondent, and with the (C)(3) transmittal the
// index of the case file and every document in it. A case whose file holds no complaint
// document encloses the complaint's text as entered in the record, and says so.
func enclosures(c *docket.Case, info docket.PaperInfo) []Text {
	switch {
	case info.Documents:
		// The index goes in the packet only with the documents it lists (Packet): an empty
		// case file encloses neither.
		var out []Text
		if len(c.Documents) > 0 {
			out = append(out, T(fmt.Sprintf("Index of the case file (%s)", docket.Count(len(c.Documents), "document"))))
		}
		for i, doc := range c.Documents {
			out = append(out, T(fmt.Sprintf("%d. %s (%s)", i+1, doc.Title, doc.Kind)))
		}
		if complaintDocument(c) < 0 {
			out = append(out,
				T("The complaint as entered in the record (no copy of the complaint as received is in the case file)"))
		}
		return out
	case info.Complaint:
		if i := complaintDocument(c); i >= 0 {
			return []Text{T("Copy of the complaint as received: " + c.Documents[i].Title)}
		}
		return []Text{T("Copy of the complaint as entered in the record (no copy of the complaint as received is in " +
			"the case file)")}
	}
	return nil
}

// complaintDocument is the index in c.Documents of the complaint as received, the first
// document of that kind; -1 if the case file holds none.
func complaintDocument(c *docket.Case) int {
	return slices.IndexFunc(c.Documents, func(d docket.Document) bool { return d.Kind == docket.ComplaintDocument })
}
