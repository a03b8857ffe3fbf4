package commands

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"ethicsbot/docket"
	"ethicsbot/outbox"
)

// CasesPage is how many cases one reply of `/ethics cases` or `/ethics search` lists; the
// reply says how to see the next page. Fifty lines keep a reply well within what Slack
// shows of a message.
const CasesPage = 50

// runCases lists every case, open and closed, that matches the filters, newest first.
func runCases(s *Service, ctx context.Context, req Request, a args) (Response, error) {
	which := cmp.Or(a.str("which"), "all")
	filters := []string{which}
	var keep []func(c *docket.Case) bool
	switch which {
	case "open":
		keep = append(keep, func(c *docket.Case) bool { return !c.Closed() })
	case "closed":
		keep = append(keep, (*docket.Case).Closed)
	}
	if a.has("year") {
		// The year of receipt, in the commission's zone: the year of the case number.
		y, err := strconv.Atoi(a.str("year"))
		if err != nil || len(a.str("year")) != 4 || y < docket.MinYear || y > docket.MaxYear {
			return Response{}, docket.Invalid("", "year",
				fmt.Sprintf("%q is not a year of receipt, such as 2026", a.str("year")))
		}
		prefix := a.str("year") + "-"
		keep = append(keep, func(c *docket.Case) bool { return strings.HasPrefix(c.Number, prefix) })
		filters = append(filters, "year="+a.str("year"))
	}
	// A list filtered by what a complaint alleges or where it stands would tell a recused
	// member that much of a case, even by its number alone: such a list leaves out the
	// cases they are recused from.
	confidential := which != "all" || a.has("status")
	section := ""
	if a.has("section") {
		confidential = true
		o := s.Engine.Ord
		section = strings.TrimPrefix(a.str("section"), "§")
		if section != o.HearingSection && section != o.ReferralSection {
			return Response{}, docket.Invalid("(C)(2), (C)(3)", "section",
				fmt.Sprintf("%q is not a section the ordinance deals with: %s or %s", a.str("section"), o.HearingSection,
					o.ReferralSection))
		}
		keep = append(keep, func(c *docket.Case) bool { return slices.Contains(c.Sections, section) })
		filters = append(filters, "section="+section)
	}
	if a.has("status") {
		st := docket.State(a.str("status"))
		keep = append(keep, func(c *docket.Case) bool { return c.State == st })
		filters = append(filters, "status="+string(st))
	}
	all, err := s.Record.AllCases(ctx)
	if err != nil {
		return Response{}, err
	}
	var cases []docket.Case
	for i := range all {
		c := &all[i]
		if !slices.ContainsFunc(keep, func(k func(*docket.Case) bool) bool { return !k(c) }) {
			if _, recused := c.Recused(req.User); recused && confidential {
				continue
			}
			cases = append(cases, *c)
		}
	}
	what := strings.Join(filters, " ")
	return s.caseList(cases, req.User, a, outbox.Format("Cases (%s)", what), outbox.Format("No cases match: %s.", what),
		"cases "+what)
}

// runSearch finds cases, open and closed, by the parties' names, an article number or
// words of the summary. A recused member is never shown a case they are recused from, not
// even its number: that would tell them the words are in it.
func runSearch(s *Service, ctx context.Context, req Request, a args) (Response, error) {
	words := a.str("words")
	page, err := pageOf(a)
	if err != nil {
		return Response{}, err
	}
	// Only the page asked for is read in full, however many cases the words are in.
	found, total, err := s.Record.Search(ctx, words, req.User, (page-1)*CasesPage, CasesPage)
	if err != nil {
		return Response{}, err
	}
	echo := strings.ReplaceAll(words, "`", "")
	return s.listPage(found, total, page, req.User, outbox.Format("Cases matching \"%s\"", echo),
		outbox.Format("No case matches \"%s\".", echo), fmt.Sprintf("search %s", echo))
}

// pageOf is the page of a list asked for with page=, 1 if none.
func pageOf(a args) (int, error) {
	if !a.has("page") {
		return 1, nil
	}
	n, err := strconv.Atoi(a.str("page"))
	if err != nil || n < 1 {
		return 0, docket.Invalid("", "page", fmt.Sprintf("%q is not a page number, such as 2", a.str("page")))
	}
	return n, nil
}

// caseList lists cases, newest first, one line each, a page of CasesPage at a time (page=
// in a): the title with the count, then the lines, then how to see the next page. A case
// the viewer is recused from shows only its number. again is the command that lists
// them, for the next page's hint.
func (s *Service) caseList(cases []docket.Case, viewer string, a args, title, none outbox.Markup,
	again string) (Response, error) {
	page, err := pageOf(a)
	if err != nil {
		return Response{}, err
	}
	slices.SortStableFunc(cases, func(x, y docket.Case) int {
		return cmp.Or(y.Received.Compare(x.Received), cmp.Compare(y.Number, x.Number))
	})
	first := min((page-1)*CasesPage, len(cases))
	return s.listPage(cases[first:min(first+CasesPage, len(cases))], len(cases), page, viewer, title, none, again)
}

// listPage is page number page of a list of total cases, newest first: shown, its cases,
// one line each (see caseList).
func (s *Service) listPage(shown []docket.Case, total, page int, viewer string, title, none outbox.Markup,
	again string) (Response, error) {
	if total == 0 {
		return reply(none), nil
	}
	pages := (total + CasesPage - 1) / CasesPage
	if page > pages {
		return Response{}, docket.Invalid("", "page",
			fmt.Sprintf("there is no page %d: the %d cases fill %d", page, total, pages))
	}
	first := (page - 1) * CasesPage
	lines := make([]outbox.Markup, len(shown))
	for i := range shown {
		lines[i] = s.caseLine(&shown[i], viewer)
	}
	text := title + outbox.Format(": %d, newest first", total)
	if pages > 1 {
		text += outbox.Format(", page %d of %d (cases %d to %d)", page, pages, first+1, first+len(shown))
	}
	text += ":\n" + outbox.Join(lines, "\n")
	if page < pages {
		text += outbox.Format("\nNext page: `/ethics %s page=%d`.", again, page+1)
	}
	return reply(capText(text, MaxMessageText, func(n int) outbox.Markup {
		return outbox.Format("…and %d more lines, past what one Slack message holds; narrow the list with year=, "+
			"section= or status=.", n)
	})), nil
}

// caseLine is one case in a list: number, state, section(s), receipt and respondent.
func (s *Service) caseLine(c *docket.Case, viewer string) outbox.Markup {
	if _, recused := c.Recused(viewer); recused {
		return outbox.Format("• *%s* · you are recused", c.Number)
	}
	state := stateName(c)
	if c.Closed() {
		state += ", closed"
	}
	return outbox.Format("• *%s* · %s · §%s · received %s · respondent %s", c.Number, state,
		strings.Join(c.Sections, ", §"),
		s.Engine.Cal.DateOf(c.Received).Long(), c.Respondent.Name)
}
