package bot

import (
	"context"
	"log/slog"
	"time"

	"github.com/slack-go/slack"

	"ethicsbot/outbox"
)

// Channel is a channel ethicsbot posts to, with the setting that names it.
type Channel struct {
	Setting string // "channels.notices"
	ID      string // "C0123456789"
}

// ChannelProblem is a channel ethicsbot cannot post to, as found at start.
type ChannelProblem struct {
	Channel
	Refusal *outbox.Refusal
}

// channelSeries is the series of the direct messages that tell the clerks what the
// start-up check found.
const channelSeries = "channel-check"

// CheckChannels asks Slack (conversations.info) whether ethicsbot is a member of each
// channel and whether it is archived, logs what it finds, and returns the channels it
// cannot post to, each with what to do. A channel Slack cannot tell about (the app lacks
// channels:read or groups:read, Slack is unreachable) is logged and left out: the outbox
// finds out when it posts.
func CheckChannels(ctx context.Context, api *slack.Client, channels []Channel, log *slog.Logger) []ChannelProblem {
	if log == nil {
		log = slog.Default()
	}
	var problems []ChannelProblem
	for _, c := range channels {
		to := outbox.Dest{Channel: c.ID}
		info, err := api.GetConversationInfoContext(ctx, &slack.GetConversationInfoInput{ChannelID: c.ID})
		code := ""
		switch {
		case err != nil:
			if r := refused(err, to); r != nil && !r.Token && r.Code != "missing_scope" {
				code = r.Code
				break
			}
			log.Warn("could not check a channel with Slack (conversations.info); posts to it will show whether it works",
				"setting", c.Setting, "channel", c.ID, "err", slackError(err))
			continue
		case info.ID == "":
			log.Warn("Slack did not describe a channel (conversations.info)", "setting", c.Setting, "channel", c.ID)
			continue
		case info.IsArchived:
			code = "is_archived"
		case !info.IsMember:
			code = "not_in_channel"
		default:
			log.Info("channel checked: ethicsbot is a member, and it is not archived", "setting", c.Setting, "channel", c.ID)
			continue
		}
		r := refusalOf(code, to)
		log.Error("ethicsbot cannot post to a channel it needs", "setting", c.Setting, "channel", c.ID, "code", code, "why",
			r.Why, "fix", r.Fix.Plain())
		problems = append(problems, ChannelProblem{Channel: c, Refusal: r})
	}
	return problems
}

// Posts are the direct messages that tell people (the clerks) of p: at most one a day for
// each channel and problem, however often ethicsbot restarts, since each is a post of the
// outbox keyed by the day.
func (p ChannelProblem) Posts(people []outbox.Dest, now time.Time, zone *time.Location) []outbox.Post {
	to := outbox.Dest{Channel: p.ID}
	text := outbox.Format(":warning: *ethicsbot cannot post to %s* (`%s` in ethicsbot.yml): %s (`%s`).\n"+
		"*To do:* %s. Until then, what ethicsbot must say there waits in the outbox, and goes once it can.",
		to.Markup(), p.Setting, p.Refusal.Why, p.Refusal.Code, p.Refusal.Fix)
	step := p.Setting + ":" + p.Refusal.Code + ":" + now.In(zone).Format(time.DateOnly)
	posts := make([]outbox.Post, 0, len(people))
	for _, who := range people {
		posts = append(posts, outbox.Post{Key: outbox.Key{Series: channelSeries, Step: step, To: who}, Text: text, Due: now})
	}
	return posts
}
