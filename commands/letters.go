package commands

import (
	"context"
	"errors"
	"strings"

	"ethicsbot/docket"
	"ethicsbot/letters"
	"ethicsbot/outbox"
)

// runLetters produces a case's papers as PDFs: every one the case calls for as it stands,
// or the one named. A recused member gets none (Service.mayTouch refuses them first): the
// letters hold the complaint's confidential details.
func runLetters(s *Service, ctx context.Context, req Request, a args) (Response, error) {
	if s.Letters == nil {
		return Response{}, docket.Conflict("", "", "letters are not set up here; see docs/clerk.md, \"Letters\"")
	}
	if name := a.str("meeting_name"); name != "" {
		return s.agendaLetter(ctx, req, name)
	}
	var only letters.Kind
	if k := a.str("kind"); k != "" {
		kind, err := letters.ParseKind(strings.ToLower(k))
		if err != nil {
			return Response{}, err
		}
		only = kind
	}
	c, err := s.Record.Case(ctx, a.str("number"))
	if err != nil {
		return Response{}, err
	}
	docs, err := s.Letters.MakeDue(ctx, &c, only, s.Engine.Cal.DateOf(s.Now()), s.Record)
	var refused letters.Refusals
	if !errors.As(err, &refused) && err != nil {
		return Response{}, err
	}
	text := outbox.Format("Case %s: %d document(s) produced:", c.Number, len(docs))
	note := outbox.Format("Case %s: %d document(s), produced by %s:", c.Number, len(docs), outbox.Mention(req.User))
	files := make([]File, len(docs))
	for i, d := range docs {
		state := outbox.Format("")
		switch {
		case d.Sent != nil && d.Bears != "":
			// The copy as sent is never changed: it bears the number typed at mailing.
			state = outbox.Format(" (as sent, dated %s, SHA-256 %s; bears article %s, corrected to %s)", d.Sent.Dated.String(),
				d.Sent.SHA256[:12], d.Bears, d.Article)
		case d.Sent != nil:
			// The copy kept with the mailing, never made again.
			state = outbox.Format(" (as sent, dated %s, SHA-256 %s)", d.Sent.Dated.String(), d.Sent.SHA256[:12])
		case !d.Mailed.IsZero():
			state = outbox.Format(" (mailed %s; no copy was kept at mailing; this is a re-print, not the letter as sent)",
				d.Mailed.String())
		case d.Draft:
			state = outbox.Format(" (draft: record its mailing, then print the copy as sent)")
		}
		text += outbox.Format("\n• `%s` %s, %s: %s", string(d.Kind), d.Rule, d.Kind.Name(), d.Name) + state
		note += outbox.Format("\n• %s %s: %s", d.Kind.Name(), d.Rule, d.Name) + state
		files[i] = File{Name: d.Name, Title: d.Title, Data: d.Data}
	}
	if len(refused) > 0 {
		// One letter that cannot be made keeps back none of the others; each is named.
		text += outbox.Format("\n%d document(s) could not be produced:", len(refused))
		for _, r := range refused {
			text += outbox.Format("\n• `%s` %s, %s: %s", string(r.Kind), r.Kind.Rule(), r.Kind.Name(), r.Err.Error())
		}
	}
	if len(docs) == 0 {
		return Response{Messages: []Message{{Text: text}}}, nil
	}
	return Response{Messages: []Message{{Text: text}}, Files: files, FilesNote: note}, nil
}

// agendaLetter produces a meeting's one agenda, as its notice posts it (5 ILCS 120/2.02):
// every item, the case steps by case number and step, the closed ones with their
// exception; one page when it is short.
func (s *Service) agendaLetter(ctx context.Context, req Request, name string) (Response, error) {
	m, _, err := s.findMeeting(ctx, name)
	if err != nil {
		return Response{}, err
	}
	d, err := s.Letters.AgendaPDF(m.Doc(), s.Engine.Cal.DateOf(s.Now()))
	if err != nil {
		return Response{}, err
	}
	text := outbox.Format("Meeting %s: its agenda, %s: %s", m.Name, d.Rule, d.Name)
	note := outbox.Format("Meeting %s: its agenda %s, produced by %s: %s", m.Name, d.Rule,
		outbox.Mention(req.User), d.Name)
	return Response{Messages: []Message{{Text: text}}, Files: []File{{Name: d.Name, Title: d.Title, Data: d.Data}},
		FilesNote: note}, nil
}
