package docket

import (
	"fmt"
	"regexp"
	"strings"
)

// The news media's requests for the commission's meeting notices. 5 ILCS 120/2.02(b): the
// public body "shall supply copies of the notice of its regular meetings, and of the notice
// of any special, emergency, rescheduled or reconvened meeting, to any news medium that has
// filed an annual request for such notice", and gives such a medium notice of the special,
// emergency, rescheduled or reconvened meetings in the manner the members get theirs; an
// emergency meeting's notice goes to it "as soon as practicable, but in any event prior to
// the holding of such meeting" (2.02(a)).
//
// A request is a fact of the commission's public record, with the date it was filed: it
// is recorded as an event, and a copy of each notice is derived from the requests on
// record when the notice is recorded.

// OMAMedia is the rule of the copies of the notices for the news media.
const OMAMedia = "5 ILCS 120/2.02(b)"

// MediaRequest is a news medium's annual request for the commission's meeting notices.
type MediaRequest struct {
	ID     int64  `json:"id"`               // 1, 2, ... in the order filed on record
	Name   string `json:"name"`             // the news medium, e.g. "Springfield Register"
	Email  string `json:"email,omitempty"`  // where its copies are e-mailed
	Postal string `json:"postal,omitempty"` // its postal address, lines joined by "\n", if it gave one
	Filed  Date   `json:"filed"`            // the day the request was filed with the clerk
	Year   int    `json:"year"`             // the calendar year whose meetings it covers
	// Withdrawn is the day the medium withdrew the request, or the clerk recorded it in
	// error; zero while it stands.
	Withdrawn Date   `json:"withdrawn,omitzero"`
	Reason    string `json:"reason,omitempty"` // why it was withdrawn, for the record
}

// mediaEmail is an e-mail address ethicsbot sends a medium's copies to: plain characters
// only, so that the address can name the outbox's destination as it is (no quoted local
// part, no second "@", no space).
var mediaEmail = regexp.MustCompile(`^[A-Za-z0-9._%+'-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$`)

// CheckMediaRequest checks a request as the clerk records it on today: a name, an e-mail
// or a postal address (2.02(b) gives copies where the medium can be reached), the day it
// was filed (not after today), and the year it covers: the year of filing or the next, as
// a request filed in December for the coming year's meetings. An annual request covers
// one year; a request for a later year is filed when that year comes.
func CheckMediaRequest(r MediaRequest, today Date) error {
	if err := CheckLine("name", OMAMedia, r.Name, true, MaxName); err != nil {
		return err
	}
	if r.Email == "" && r.Postal == "" {
		return Invalid(OMAMedia, "email",
			"give where the copies go: email=news@example.org, or a postal address, address=\"12 Main St | Springfield, IL\"")
	}
	if r.Email != "" {
		if err := CheckEmail("email", OMAMedia, r.Email); err != nil {
			return err
		}
		if !mediaEmail.MatchString(r.Email) {
			return Invalid(OMAMedia, "email", fmt.Sprintf("%q is an address ethicsbot does not send to: give a plain one "+
				"such as news@example.org (letters, digits and . _ %% + ' - before the @)", r.Email))
		}
	}
	if err := CheckAddress("address", OMAMedia, r.Postal, false); err != nil {
		return err
	}
	if r.Filed.IsZero() {
		return Invalid(OMAMedia, "filed", "give the day the request was filed, e.g. filed=2026-12-01")
	}
	if r.Filed > today {
		return Invalid(OMAMedia, "filed", fmt.Sprintf("the request cannot have been filed on %s, after today (%s)",
			r.Filed, today))
	}
	fy, _, _ := r.Filed.Parts()
	if r.Year != fy && r.Year != fy+1 {
		return Invalid(OMAMedia, "year", fmt.Sprintf("a request filed on %s covers %d or %d: an annual request is for "+
			"the year it is filed in, or the next when it is filed ahead (year=%d)", r.Filed, fy, fy+1, fy+1))
	}
	return nil
}

// Standing reports whether the request stands: recorded and not withdrawn.
func (r MediaRequest) Standing() bool { return r.Withdrawn.IsZero() }

// Covers reports whether the request stands and covers one of years.
func (r MediaRequest) Covers(years []int) bool {
	if !r.Standing() {
		return false
	}
	for _, y := range years {
		if y == r.Year {
			return true
		}
	}
	return false
}

// Lapses is the last day the request covers: 31 December of its year. From the next day
// the medium gets no copy until it files a request for the new year.
func (r MediaRequest) Lapses() Date {
	d, _ := ParseDate(fmt.Sprintf("%04d-12-31", r.Year))
	return d
}

// Renews reports whether r is the same medium's request for a later year than old: the
// same e-mail address, or the same name.
func (r MediaRequest) Renews(old MediaRequest) bool {
	if !r.Standing() || r.Year <= old.Year {
		return false
	}
	return r.Email != "" && strings.EqualFold(r.Email, old.Email) ||
		strings.EqualFold(strings.Join(strings.Fields(r.Name), " "), strings.Join(strings.Fields(old.Name), " "))
}

// Where says where the medium's copies go: its e-mail address, else "by post to" its
// address on one line.
func (r MediaRequest) Where() string {
	if r.Email != "" {
		return r.Email
	}
	return "by post to " + strings.ReplaceAll(r.Postal, "\n", ", ")
}

// CopyNote is what ends each copy of a notice e-mailed to the medium: why it gets it, and
// how long.
func (r MediaRequest) CopyNote() string {
	return fmt.Sprintf("You receive this copy of the Ethics Commission's public notice because %s filed on %s a request "+
		"for the notices of the commission's meetings in %d (%s). The request lapses after 31 December %d; to go on "+
		"receiving the notices, file a request for the next year with the commission's clerk.",
		r.Name, r.Filed.Long(), r.Year, OMAMedia, r.Year)
}

// MediaRequested records a news medium's annual request for the commission's meeting
// notices. Its Request has no ID: the record numbers it.
type MediaRequested struct {
	Request MediaRequest `json:"request"`
}

// Kind names the event.
func (MediaRequested) Kind() string { return "media_requested" }

// MediaWithdrawn records that a news medium withdrew its request, or that it was recorded
// in error: no more copies go to it under that request.
type MediaWithdrawn struct {
	ID     int64  `json:"id"`
	On     Date   `json:"on"`
	Reason string `json:"reason,omitempty"`
}

// Kind names the event.
func (MediaWithdrawn) Kind() string { return "media_withdrawn" }

// Withdraw is r withdrawn by w, or a refusal: a request withdrawn before, or a day before
// it was filed.
func (r MediaRequest) Withdraw(w MediaWithdrawn, today Date) (MediaRequest, error) {
	switch {
	case !r.Standing():
		return r, Conflict(OMAMedia, "id", fmt.Sprintf("request %d (%s) was withdrawn on %s already", r.ID, r.Name,
			r.Withdrawn))
	case w.On.IsZero():
		return r, Invalid(OMAMedia, "on", "give the day it was withdrawn, e.g. on=2027-03-01")
	case w.On < r.Filed || w.On > today:
		return r, Invalid(OMAMedia, "on", fmt.Sprintf("request %d was filed on %s: it is withdrawn on that day or later, "+
			"and not after today (%s)", r.ID, r.Filed, today))
	}
	if err := CheckLine("reason", OMAMedia, w.Reason, false, MaxName); err != nil {
		return r, err
	}
	r.Withdrawn, r.Reason = w.On, w.Reason
	return r, nil
}
