package commands_test

import (
	"strings"
	"testing"

	"ethicsbot/outbox"
)

// TestMediaRequests: the clerk records a news medium's annual request (5 ILCS
// 120/2.02(b)), lists it and withdraws it; each meeting notice of a year the request
// covers gets a copy, e-mailed where the medium gave an address, in the notice's own
// transaction; a withdrawn or lapsed request gets none.
func TestMediaRequests(t *testing.T) {
	s, clk, db := MustService(t)
	mustDo(t, s, clerk, `media add name="Springfield Register" email=news@example.org filed=2026-12-01 year=2027`,
		"Recorded request 1: Springfield Register, filed Tue 2026-12-01, for the notices of the commission's meetings "+
			"in 2027 (5 ILCS 120/2.02(b)). It gets a copy of each notice of a meeting in 2027, by e-mail to "+
			"news@example.org")
	mustDo(t, s, clerk, `media add name="Capitol Radio" address="1 State St | Springfield, IL 62701"`,
		"Recorded request 2: Capitol Radio, filed Fri 2026-12-04, for the notices of the commission's meetings in 2026")
	mustDo(t, s, clerk, `media add name="Old Gazette" email=old@example.org filed=2026-01-05 year=2026`, "request 3")
	mustDo(t, s, clerk, `media withdraw 3 reason="asked to stop"`,
		"Request 3 of Old Gazette (old@example.org, 2026) withdrawn on Fri 2026-12-04: no more copies go to it.")
	r := mustDo(t, s, clerk, `media list`, "1. *Springfield Register*, news@example.org: for 2027, filed 2026-12-01; "+
		"from 1 Jan 2027.")
	for _, want := range []string{"2. *Capitol Radio*, by post to 1 State St, Springfield, IL 62701: for 2026",
		"3. *Old Gazette*, old@example.org: for 2026, filed 2026-01-05; withdrawn 2026-12-04 (asked to stop)."} {
		if !strings.Contains(replyText(r), want) {
			t.Errorf("media list lacks %q:\n%s", want, replyText(r))
		}
	}
	mustDo(t, s, clerk, `media list year=2025`, "No news medium has filed a request")

	// Refusals name the rule and change nothing.
	for _, c := range []struct{ text, want string }{
		{`media add name="X"`, "give where the copies go"},
		{`media add name="X" email=x@example.org year=2029`, "covers 2026 or 2027"},
		{`media add name="X" email=x@example.org filed=2026-12-05`, "after today"},
		{`media add name="X" email="a b@example.org"`, "is not an e-mail address"},
		{`media add name="X" email=x#1@example.org`, "does not send to"},
		{`media withdraw 3`, "was withdrawn on 2026-12-04 already"},
		{`media withdraw 9`, "there is no request 9"},
		{`media withdraw 1 on=2026-11-01`, "it is withdrawn on that day or later"},
		{`media list name=X`, "media list takes no name="},
	} {
		if got := replyText(do(s, clerk, c.text)); !strings.Contains(got, c.want) || !strings.Contains(got, "2.02(b)") {
			t.Errorf("/ethics %s: %s\nwant %q and the rule", c.text, got, c.want)
		}
	}
	if got := replyText(do(s, comm, `media list`)); strings.Contains(got, "Springfield Register") {
		t.Errorf("a commissioner read the clerk's list: %s", got)
	}
	if all, err := db.MediaRequests(ctx); err != nil || len(all) != 3 {
		t.Fatalf("requests %v, %v; want the 3 recorded", all, err)
	}

	// A special meeting in January 2027, noticed in December 2026: the 2027 request gets
	// it by e-mail, the 2026 postal request by the clerk's hand, the withdrawn one nothing.
	mustDo(t, s, clerk, fileLine, "Filed as case")
	mustDo(t, s, clerk, `meeting 2027-01-05T17:00 place="City Hall, Room 201" special`, "special meeting created")
	mustDo(t, s, clerk, `schedule 2026-001 sufficiency meeting=2027-01-05`, "sufficiency meeting added")
	clk.now = clk.now.Add(1)
	mustDo(t, s, clerk, `posted 2027-01-05`, "notice and agenda posted")
	rows, err := db.Outbox(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var notice outbox.Row
	copies := map[string]outbox.Row{}
	for _, r := range rows {
		switch {
		case r.Key.Series == outbox.MeetingSeries:
			notice = r
		case r.Key.Series == outbox.MediaSeries:
			copies[r.Key.To.String()] = r
		}
	}
	if notice.Text == "" {
		t.Fatal("no meeting notice")
	}
	mail, ok := copies["mailto:news@example.org"]
	if !ok || mail.Key != outbox.MediaCopyKey(notice.Key, outbox.Dest{Mail: "news@example.org"}) ||
		!strings.HasPrefix(string(mail.Text), string(notice.Text)) ||
		!strings.Contains(string(mail.Text), "Springfield Register filed on Tue 2026-12-01 a request") {
		t.Errorf("the e-mailed copy: %+v", mail)
	}
	post, ok := copies["#C_DOCKET"]
	if !ok || !strings.Contains(string(post.Text), "*To post by mail* (5 ILCS 120/2.02(b)): a copy of this public notice "+
		"to Capitol Radio, 1 State St, Springfield, IL 62701") {
		t.Errorf("the clerk's note to post a copy: %+v", post)
	}
	if _, ok := copies["mailto:old@example.org"]; ok || len(copies) != 2 {
		t.Errorf("copies %v: want the two standing requests' only", copies)
	}
	// The notice's every copy is on the meetings' chain's record: verify walks the requests.
	if r, err := db.Verify(ctx); err != nil || r.Broken != nil {
		t.Fatalf("verify: %+v %v", r.Broken, err)
	}
}
