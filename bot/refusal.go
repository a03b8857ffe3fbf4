package bot

import (
	"errors"
	"fmt"
	"strings"

	"github.com/slack-go/slack"

	"ethicsbot/outbox"
)

// refusal is what a Slack error code means when retrying cannot mend it, and what a
// person must do. One table serves delivery (the clerks' direct message), the start-up
// checks and the token checks.
type refusal struct {
	why   string
	fix   string // with %s for the destination (a channel link or a mention), if it names one
	token bool   // the token itself is refused: nothing can be said anywhere until it is renewed
	start bool   // stops ethicsbot at start: a restart with the same token would fail the same way
}

// Token is a Slack token as this install keeps it: what a person is told when Slack
// refuses it (at start, on /healthz, in the log) says where to put a new one, in the terms
// of the install: a credential file under systemd, not an environment variable.
type Token struct {
	Name string // "bot token", "app-level token"
	Fix  string // what to do when Slack refuses it
}

// BotToken is the bot token (xoxb-...), kept at place: "SLACK_BOT_TOKEN in ethicsbot's
// environment", "the file /etc/ethicsbot/bot-token (SLACK_BOT_TOKEN_FILE)".
func BotToken(place string) Token {
	return Token{Name: "bot token", Fix: "reinstall the app in Slack (api.slack.com/apps, Install App), put the new " +
		"Bot User OAuth Token (xoxb-...) in " + place + ", and restart ethicsbot"}
}

// AppToken is Socket Mode's app-level token (xapp-...), kept at place.
func AppToken(place string) Token {
	return Token{Name: "app-level token", Fix: "generate a new app-level token with the connections:write scope " +
		"(api.slack.com/apps, Basic Information, App-Level Tokens), put it in " + place + ", and restart ethicsbot"}
}

// tokenFix is what to do about a refused bot token given as SLACK_BOT_TOKEN: the refusals
// table's, which a Sender given its Token says in the install's terms instead.
var tokenFix = BotToken("SLACK_BOT_TOKEN").Fix

// refusals are Slack's error codes that retrying cannot mend, from the errors documented
// for chat.postMessage, conversations.open, conversations.history and auth.test. Any
// other error (a network failure, a 5xx, ratelimited, internal_error) is retried as
// before: it may pass by itself.
var refusals = map[string]refusal{
	"not_in_channel": {why: "ethicsbot is not a member of the channel",
		fix: "invite @ethicsbot to %s (in the channel, type `/invite @ethicsbot`)"},
	"is_archived": {why: "the channel is archived",
		fix: "unarchive %s (in the channel's settings): the messages waiting for it go only there"},
	"channel_not_found": {why: "the channel does not exist, or it is private and ethicsbot is " +
		"not a member",
		fix: "check the channel id in ethicsbot.yml, and invite @ethicsbot to %s (in the channel, type `/invite " +
			"@ethicsbot`)"},
	"restricted_action": {why: "a workspace setting stops ethicsbot posting there",
		fix: "ask a workspace admin to let ethicsbot post in %s"},
	"restricted_action_read_only_channel": {why: "the channel is read-only",
		fix: "let ethicsbot post in %s (channel settings, posting permissions)"},
	"restricted_action_thread_only_channel": {why: "the channel takes replies in threads only",
		fix: "let ethicsbot post in %s (channel settings, posting permissions)"},
	"ekm_access_denied": {why: "the workspace's administrators have suspended posting",
		fix: "ask a workspace admin to restore posting for ethicsbot"},
	"team_access_not_granted": {why: "the app is not granted access to that workspace",
		fix: "ask a workspace admin to grant ethicsbot access, then invite it to %s"},
	"msg_too_long": {why: "the message is longer than Slack takes",
		fix: "tell the city's IT: the message must be said in parts"},
	"user_not_found": {why: "there is no such Slack member", fix: "check the member ids in ethicsbot.yml"},
	"user_disabled": {why: "the member's account is deactivated",
		fix: "take %s out of ethicsbot.yml, or reactivate the account"},
	"user_not_visible": {why: "ethicsbot may not message that member",
		fix: "ask a workspace admin to let ethicsbot message %s"},
	"cannot_dm_bot": {why: "the member is a bot", fix: "name a person, not a bot, in ethicsbot.yml"},
	"missing_scope": {why: "the app lacks a scope it needs; reinstall it from manifest.yml",
		fix: "reinstall the app from manifest.yml (api.slack.com/apps, App Manifest, then Install App)", start: true},
	"invalid_auth":           {why: "the token is not valid", fix: tokenFix, token: true, start: true},
	"not_authed":             {why: "no token was sent", fix: tokenFix, token: true, start: true},
	"account_inactive":       {why: "the app's account is deactivated", fix: tokenFix, token: true, start: true},
	"token_revoked":          {why: "the token was revoked", fix: tokenFix, token: true, start: true},
	"token_expired":          {why: "the token has expired", fix: tokenFix, token: true, start: true},
	"not_allowed_token_type": {why: "the token is not a bot token", fix: tokenFix, token: true, start: true},
}

// refused returns err as an *outbox.Refusal for d if Slack refused it in a way retrying
// cannot mend, else nil.
func refused(err error, d outbox.Dest) *outbox.Refusal {
	var se slack.SlackErrorResponse
	if !errors.As(err, &se) {
		return nil
	}
	return refusalOf(se.Err, d)
}

// refusalOf is the refusal of Slack's error code for d, or nil if retrying may mend it.
func refusalOf(code string, d outbox.Dest) *outbox.Refusal {
	r, ok := refusals[code]
	if !ok {
		return nil
	}
	fix := outbox.Markup(r.fix)
	if strings.Contains(r.fix, "%s") {
		fix = outbox.Format(r.fix, d.Markup())
	}
	return &outbox.Refusal{Code: code, Why: r.why, Fix: fix, Token: r.token}
}

// startRefusal returns, if Slack's code refusing tok is one that a restart cannot mend,
// an error for start-up that says what it means and what to do.
func startRefusal(code string, tok Token) error {
	r, ok := refusals[code]
	if !ok || !r.start {
		return nil
	}
	fix := r.fix + ", and restart ethicsbot"
	if r.token {
		fix = tok.Fix
	}
	//lint:ignore ST1005 Slack is a name, and the message is shown as it is
	return fmt.Errorf("Slack refused the %s (%s): %s. To do: %s", tok.Name, code, r.why, fix)
}

// sendError is a failure to reach Slack, told in words fit to show on /healthz and in the
// outbox's record: Slack's error code, never the API's URL (see slackError).
type sendError struct{ err error }

func (e *sendError) Error() string { return slackError(e.err) }
func (e *sendError) Unwrap() error { return e.err }

// deliveryError is err as the outbox's deliverer should see it: a Refusal, or a failure
// that may pass, told without the API's URL. A refused token's fix is tok's.
func deliveryError(err error, d outbox.Dest, tok Token) error {
	if err == nil {
		return nil
	}
	if r := refused(err, d); r != nil {
		if r.Token && tok.Fix != "" {
			r.Fix = outbox.Format("%s", tok.Fix)
		}
		return r
	}
	return &sendError{err}
}
