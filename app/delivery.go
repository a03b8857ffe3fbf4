package app

import (
	"context"
	"log/slog"
	"time"

	"github.com/slack-go/slack"

	"ethicsbot/bot"
	"ethicsbot/config"
	"ethicsbot/outbox"
	"ethicsbot/store"
)

// checkChannels checks at start that ethicsbot is a member of the docket and notices
// channels and that neither is archived: the log says what it found, and the clerks are
// told by direct message of each channel ethicsbot cannot post to, with what to do.
func checkChannels(ctx context.Context, api *slack.Client, cfg config.Config, db *store.Store, d *outbox.Deliverer,
	log *slog.Logger, now func() time.Time) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	problems := bot.CheckChannels(ctx, api,
		[]bot.Channel{{Setting: "channels.docket", ID: cfg.Channels.Docket},
			{Setting: "channels.notices", ID: cfg.Channels.Notices}}, log)
	if len(problems) == 0 {
		return
	}
	zone := d.Zone
	if zone == nil {
		zone = time.UTC
	}
	var posts []outbox.Post
	for _, p := range problems {
		posts = append(posts, p.Posts(clerkDests(cfg.Roles), now(), zone)...)
	}
	if err := db.Enqueue(context.WithoutCancel(ctx), posts); err != nil {
		log.Error("could not tell the clerks what the channel check found", "err", err)
		return
	}
	d.Kick()
}
