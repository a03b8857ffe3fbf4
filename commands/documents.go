package commands

import (
	"context"

	"ethicsbot/docket"
	"ethicsbot/outbox"
)

// mediaNames are the media types of the case file as people name them.
var mediaNames = map[string]string{docket.MediaPDF: "PDF", docket.MediaPNG: "PNG image", docket.MediaJPEG: "JPEG image"}

// runDocuments lists a case's file: each document with its title, kind, type, size, the
// start of its SHA-256, who added it, when, and the event that added it, which a void
// withdraws. A recused member is refused before this runs (mayTouch), like every command
// that names a case.
func runDocuments(s *Service, ctx context.Context, req Request, a args) (Response, error) {
	number := a.str("number")
	c, err := s.Record.Case(ctx, number)
	if err != nil {
		return Response{}, err
	}
	if len(c.Documents) == 0 {
		return reply(outbox.Format("Case %s has no documents in its case file. Add them with `ethicsbot attach %s FILE... --kind complaint` on the server.", c.Number, c.Number)), nil
	}
	entries, err := s.Record.Entries(ctx, c.Number)
	if err != nil {
		return Response{}, err
	}
	added := map[string]int{} // the event that added each document, by its SHA-256
	for _, en := range entries {
		if d, ok := en.Action.(docket.AddDocument); ok && !voided(entries, en.Seq) {
			added[d.SHA256] = en.Seq
		}
	}
	text := outbox.Format("Case file of case %s, %d documents (confidential):", c.Number, len(c.Documents))
	for _, d := range c.Documents {
		text += outbox.Format("\n• *%s*: %s, %s, %s, SHA-256 %s…, added by %s on %s (event %d)",
			d.Title, d.Kind, mediaNames[d.MediaType], docket.Size(d.Size), d.SHA256[:12], outbox.Mention(d.AddedBy), d.Added.Long(), added[d.SHA256])
	}
	text += outbox.Format("\n`ethicsbot documents %s --out DIR` writes them out; `/ethics void %s <event> reason=\"...\"` withdraws one.", c.Number, c.Number)
	return reply(text), nil
}

// Say is what ethicsbot says of a step recorded outside a Slack command, such as a
// document attached from the command line: the docket channel's line, and any public
// notice. Its posts go to the outbox with the step's event (store.Attach's say).
func (s *Service) Say(st docket.Step) []outbox.Post { return s.say(st) }
