package app

import (
	"context"
	"log/slog"
	"os"
	"reflect"
	"strings"

	"ethicsbot/commands"
	"ethicsbot/config"
	"ethicsbot/docket"
	"ethicsbot/outbox"
	"ethicsbot/reminders"
)

// SettingsOf is who is who and where posts go, as commands needs them, with the reminder
// planner in force, so that a correction's reply says what it does to the reminders.
func SettingsOf(cfg config.Config, planner *reminders.Planner) commands.Settings {
	st := commands.Settings{Roles: cfg.Roles, Channels: cfg.Channels, Voting: cfg.Voting, PublicURL: cfg.PublicURL,
		DocumentLimit: cfg.DocumentLimit,
		Officers:      cfg.Letters.OfficerKeys(), Regular: cfg.Regular, MailRelay: cfg.SMTP.Enabled()}
	if planner != nil {
		st.Reminders = planner
	}
	return st
}

// plannerOf is the reminder planner the configuration describes: every clerk gets the
// clerk's reminders and the digest.
func plannerOf(engine *docket.Engine, cfg config.Config) *reminders.Planner {
	return &reminders.Planner{Engine: engine, Policy: cfg.Reminders,
		People: reminders.People{Clerks: cfg.Roles.Clerks, Commissioners: cfg.Roles.Commissioners,
			Docket: cfg.Channels.Docket}, Regular: cfg.Regular}
}

// clerkDests are the clerks' direct messages: where ethicsbot says that a message could
// not be delivered.
func clerkDests(r commands.Roles) []outbox.Dest {
	out := make([]outbox.Dest, len(r.Clerks))
	for i, u := range r.Clerks {
		out[i] = outbox.Dest{User: u}
	}
	return out
}

// firstClerk is the user the console acts as at start.
func firstClerk(r commands.Roles) string {
	if len(r.Clerks) == 0 {
		return ""
	}
	return r.Clerks[0]
}

// reloader puts a changed configuration file in force without a restart, on SIGHUP:
// roles, channels, the reminder policy and public_url. The rest (the database, the
// calendar, the ordinance, the sweep's schedule) is built into what is running and
// changes only with a restart.
type reloader struct {
	cfg       config.Config // in force; only Reload reads or writes it, one call at a time
	getenv    func(string) string
	svc       *commands.Service
	sweeper   *reminders.Sweeper
	deliverer *outbox.Deliverer
	log       *slog.Logger
	// observe, if set, is told of each reload: nil if the file was taken, else why not.
	observe func(err error)
}

// watch reloads the configuration at each signal on hup until ctx ends.
func (r *reloader) watch(ctx context.Context, hup <-chan os.Signal) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-hup:
			r.Reload()
		}
	}
}

// Reload reads the configuration file again and puts what may change while ethicsbot runs
// in force. A file that is not valid, or lacks what Slack needs, is refused and the
// configuration in force is kept; the log says the file, the line and the problem. A
// changed setting that needs a restart is logged as such and left as it was.
func (r *reloader) Reload() (err error) {
	if r.observe != nil {
		defer func() { r.observe(err) }()
	}
	next, err := config.Read(r.cfg.Path, r.getenv)
	if err == nil {
		err = SlackReady(next)
	}
	if err == nil {
		// 5 ILCS 120/2.03: a change of the regular meeting dates is published 10 days ahead.
		err = r.svc.CheckScheduleChange(next.Regular)
	}
	if err != nil {
		// err names the file, the line and the problem.
		r.log.Error("configuration not reloaded: the file is refused and the configuration in force is kept", "err", err)
		return err
	}
	if restart := config.NeedsRestart(r.cfg, next); len(restart) > 0 {
		r.log.Warn("configuration: changed settings left as they were: each needs a restart to take effect",
			"config", r.cfg.Path, "settings", strings.Join(restart, ", "))
	}
	old := r.cfg
	r.cfg.Roles, r.cfg.Channels, r.cfg.Reminders, r.cfg.PublicURL = next.Roles, next.Channels, next.Reminders,
		next.PublicURL
	r.cfg.Regular = next.Regular
	// Who signs the letters follows the people at once, as everything else that prints
	// a name does: the chair and the clerk are recomputed from the roster.
	signers := config.SignersChanged(old, next)
	r.cfg.Letters.Chair, r.cfg.Letters.Clerk = next.Letters.Chair, next.Letters.Clerk
	if r.svc.Letters != nil {
		r.svc.Letters.SetSigners(r.cfg.Letters.Chair, r.cfg.Letters.Clerk)
	}
	planner := plannerOf(r.sweeper.Planner.Engine, r.cfg)
	r.svc.Configure(SettingsOf(r.cfg, planner))
	r.sweeper.SetPlanner(planner)
	r.deliverer.SetReport(outbox.Dest{Channel: r.cfg.Channels.Docket})
	r.deliverer.SetAlert(clerkDests(r.cfg.Roles))

	var changed []string
	if old.Channels.Docket != r.cfg.Channels.Docket {
		changed = append(changed, "channels.docket")
	}
	if old.Channels.Notices != r.cfg.Channels.Notices {
		changed = append(changed, "channels.notices")
	}
	if !reflect.DeepEqual(old.Reminders, r.cfg.Reminders) {
		changed = append(changed, "reminders")
	}
	if old.PublicURL != r.cfg.PublicURL {
		changed = append(changed, "public_url")
	}
	if !old.Regular.Equal(r.cfg.Regular) {
		// 5 ILCS 120/2.03: a change of the schedule is noticed; its publication in a
		// newspaper 10 days ahead is the clerk's.
		changed = append(changed, "meetings.regular")
		if err := r.svc.AnnounceSchedule(context.Background(), old.Regular); err != nil {
			r.log.Error("the notice of the changed schedule of regular meetings could not be queued", "err", err)
		}
	}
	added, removed := config.RoleChanges(old.Roles, r.cfg.Roles)
	renamed := config.Renamed(old.Roles, r.cfg.Roles)
	if len(added)+len(removed)+len(renamed) > 0 {
		changed = append(changed, "roles")
	}
	if len(signers) > 0 {
		changed = append(changed, "letters' signers")
	}
	if len(changed) == 0 {
		changed = []string{"nothing"}
	}
	attrs := []any{"config", r.cfg.Path, "changed", strings.Join(changed, ", "),
		"commissioners", len(r.cfg.Roles.Commissioners), "clerks", len(r.cfg.Roles.Clerks), "attorney",
		r.cfg.Roles.Attorney != ""}
	if len(added) > 0 {
		attrs = append(attrs, "added", strings.Join(added, ", "))
	}
	if len(removed) > 0 {
		attrs = append(attrs, "removed", strings.Join(removed, ", "))
	}
	if len(renamed) > 0 {
		attrs = append(attrs, "renamed", strings.Join(renamed, "; "))
	}
	if len(signers) > 0 {
		attrs = append(attrs, "signers", strings.Join(signers, "; "))
	}
	r.log.Info("configuration reloaded", attrs...)
	return nil
}
