package bot

import "github.com/slack-go/slack"

// ViewRequestID is the idempotency key of a modal's submission: the view's id and hash,
// which a retry repeats. Without a view id there is no key, rather than one that two
// different submissions would share. commands keys it further to the user and the
// subcommand, so that it repeats only the same user's same command.
func ViewRequestID(v slack.View) string {
	if v.ID == "" {
		return ""
	}
	return "view:" + v.ID + ":" + v.Hash
}
