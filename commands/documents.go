package commands

import (
	"context"
	"fmt"
	"strings"

	"ethicsbot/docket"
	"ethicsbot/letters"
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
		return reply(outbox.Format("Case %s has no documents in its case file. Add them with `ethicsbot attach %s FILE... "+
			"--kind complaint` on the server.", c.Number, c.Number)), nil
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
			d.Title, d.Kind, mediaNames[d.MediaType], docket.Size(d.Size), d.SHA256[:12], outbox.Mention(d.AddedBy),
			d.Added.Long(), added[d.SHA256])
	}
	text += outbox.Format("\n`ethicsbot documents %s --out DIR` writes them out; `/ethics void %s <event> "+
		"reason=\"...\"` withdraws one.", c.Number, c.Number)
	return reply(text), nil
}

// AttachShortcut is the callback_id of the message shortcut "Add to a case file"
// (manifest.yml), used on a message sharing files in the docket channel.
const AttachShortcut = "ethics_attach"

// Shortcut answers the message shortcut "Add to a case file" by user on a message in
// channel that shares files: the attach form, with the files filled in, asking for the
// case, the kind and the title. Only the files of a message in the private docket channel
// are taken: a complaint shared elsewhere has been shown to whoever is there, and the
// docket channel is where the commission's confidential papers are.
func (s *Service) Shortcut(ctx context.Context, user, channel string, files []string) Response {
	sub, _ := lookup("attach")
	role := s.Settings().Roles.Of(user)
	switch {
	case role == Nobody:
		return reply(notAuthorised)
	case !s.allowed(sub, role):
		return s.onlyFor(sub)
	case channel != s.Settings().Channels.Docket || channel == "":
		return reply("Not done: only files shared in the private docket channel are added to a case file; share the file " +
			"there, then use the shortcut on that message.")
	case len(files) == 0:
		return reply("Not done: that message shares no file. Use the shortcut on a message that shares the PDF or the " +
			"scanned images.")
	}
	m := s.modal(ctx, sub, user, map[string]string{"files": strings.Join(files, ",")})
	WithChannel(m, channel)
	return Response{Modal: m}
}

// runAttach adds the files shared in Slack (files=, filled in by the shortcut) to the case
// file: each is fetched, judged by its content and bounded like a file attached on the
// command line, and all are recorded in one transaction, or none.
func runAttach(s *Service, ctx context.Context, req Request, a args) (Response, error) {
	ids := strings.FieldsFunc(a.str("files"), func(r rune) bool { return r == ',' || r == ' ' })
	if len(ids) == 0 {
		return Response{}, docket.Invalid("", "files",
			"share the files in the docket channel, then use the message shortcut \"Add to a case file\" on that message: a "+
				"typed command carries no file")
	}
	if s.Files == nil {
		return Response{}, docket.Conflict("", "files",
			"ethicsbot cannot fetch files from Slack here (the console); use `ethicsbot attach` on the server")
	}
	if a.has("title") && len(ids) > 1 {
		return Response{}, docket.Invalid("", "title",
			"a title names one document; the message shares several, so each is titled by its file's name")
	}
	limit := s.Settings().DocumentLimit
	if limit <= 0 {
		limit = docket.DefaultDocumentLimit
	}
	docs := make([]docket.Upload, len(ids))
	for i, id := range ids {
		name, size, err := s.Files.Info(ctx, id)
		if err != nil {
			return Response{}, docket.Invalid("", "files",
				fmt.Sprintf("the file %s could not be fetched (%v); try again, or use `ethicsbot attach` on the server", id, err))
		}
		if size > limit {
			return Response{}, docket.Invalid("", "files",
				fmt.Sprintf("%s is %s; the limit for a document is %s", name, docket.Size(size), docket.Size(limit)))
		}
		data, err := s.Files.Download(ctx, id, limit)
		if err != nil {
			return Response{}, docket.Invalid("", "files",
				fmt.Sprintf("the file %s could not be fetched (%v); try again, or use `ethicsbot attach` on the server", name, err))
		}
		docs[i] = docket.Upload{Name: name, Data: data, Title: a.str("title"), Kind: docket.DocumentKind(a.str("kind"))}
	}
	if err := letters.CheckUploads(ctx, docs, limit); err != nil {
		return Response{}, err
	}
	ctx, posts := s.sayer(ctx)
	res, err := s.Record.Attach(ctx, s.act(req), a.str("number"), limit, docs)
	if err != nil {
		return Response{}, err
	}
	if res.Replayed {
		return reply(outbox.Format("Already added to case %s (this request was received twice; nothing new was recorded).",
			res.Case.Number)), nil
	}
	done := make([]outbox.Markup, len(res.Steps))
	for i, st := range res.Steps {
		done[i] = s.done(st)
	}
	text := outbox.Format("Case %s: %s. `/ethics documents %s` lists the case file.", res.Case.Number,
		outbox.Join(done, "; "), res.Case.Number)
	return Response{Messages: []Message{{Text: text}}, Posts: *posts}, nil
}
