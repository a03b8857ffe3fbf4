package cli

import (
	"fmt"
	"io"
	"strings"
	"time"

	"ethicsbot/app"
	"ethicsbot/config"
	"ethicsbot/store"
)

// runUpgradeCheck is `ethicsbot upgrade --check`: the preflight of an upgrade, run with the
// new binary before it replaces the old one, beside the running bot, with the service's
// ETHICSBOT_CONFIG and ETHICSBOT_DB. It says whether the new binary would start on the
// running configuration and record: the configuration as a start checks it, with the
// warnings of what the next release refuses; the migrations its first start would apply;
// the last verified backup's age; and whether an ethicsbot holds the record. It writes
// nothing, the record least of all (it is opened read-only). Exit status 0: the new binary
// would start; otherwise the status the start would exit with (exit.go).
func runUpgradeCheck(args []string, stdout, stderr io.Writer, getenv func(string) string, now time.Time) int {
	fail := failer(stderr, "upgrade")
	if len(args) != 1 || args[0] != "--check" {
		return fail(app.ExitUsage, "%s: the upgrade itself is replacing the binary and restarting the service "+
			"(docs/operations.md, \"Upgrade\"); --check is what to run first", usageOf("upgrade"))
	}
	status := app.ExitOK
	refuse := func(code int, format string, a ...any) {
		fmt.Fprintf(stdout, "REFUSED "+format+"\n", a...)
		if status == app.ExitOK {
			status = code
		}
	}
	// The configuration, as a start in a Slack mode checks it (check-config).
	cfg, err := config.Load(getenv)
	if err == nil && cfg.Path != "" {
		err = app.SlackReady(cfg)
	}
	switch {
	case err != nil:
		refuse(app.ExitConfig, "configuration: %v", err)
		cfg = config.Default() // the record is where the environment says, or the default
		if db := getenv("ETHICSBOT_DB"); db != "" {
			cfg.Database = db
		}
	case cfg.Path == "":
		fmt.Fprintln(stdout, "configuration: none (no ETHICSBOT_CONFIG, no ./ethicsbot.yml): the defaults")
	default:
		fmt.Fprintf(stdout, "configuration %s: accepted\n", cfg.Path)
		for _, w := range app.ConfigWarnings(cfg) {
			fmt.Fprintf(stdout, "  warning: %s\n", w)
		}
	}
	// The record, read-only: its schema and the migrations the first start applies.
	in, err := store.Inspect(cfg.Database)
	switch {
	case err != nil:
		refuse(app.ExitStatusOf(err), "record: %v", err)
	case !in.Exists:
		fmt.Fprintf(stdout, "record %s: none yet; the first start creates it\n", cfg.Database)
	case len(in.Pending) == 0:
		fmt.Fprintf(stdout, "record %s: schema version %d, this ethicsbot's: no migration pending\n", cfg.Database,
			in.Version)
	default:
		fmt.Fprintf(stdout, "record %s: schema version %d; the first start migrates it to %d (%s), after a verified "+
			"backup beside it; an older ethicsbot cannot read it after that\n", cfg.Database, in.Version, store.SchemaVersion(),
			strings.Join(in.Pending, ", "))
		if in.Replicated {
			fmt.Fprintln(stdout, "  Litestream replicates the record and holds it open, which the migration refuses: stop "+
				"litestream with ethicsbot, and start it again after ethicsbot has started")
		}
	}
	// The last verified backup (`ethicsbot backup`, the nightly timer).
	if at, ok := app.LastBackup(cfg.Database); ok {
		fmt.Fprintf(stdout, "last backup: %s, %s ago\n", at.UTC().Format(time.RFC3339),
			now.Sub(at).Round(time.Minute))
	} else {
		fmt.Fprintf(stdout, "last backup: none noted beside %s: take one first (ethicsbot backup PATH)\n",
			cfg.Database)
	}
	// Whether an ethicsbot holds the record: the running bot, which the upgrade stops.
	switch held, pid, err := store.Held(cfg.Database); {
	case err != nil:
		fmt.Fprintf(stdout, "lock: %v\n", err)
	case held && pid != "":
		fmt.Fprintf(stdout, "lock: held by process %s, the running ethicsbot: the upgrade stops it (systemctl "+
			"restart ethicsbot)\n", pid)
	case held:
		fmt.Fprintln(stdout, "lock: held by a running ethicsbot: the upgrade stops it (systemctl restart ethicsbot)")
	default:
		fmt.Fprintln(stdout, "lock: free: no ethicsbot runs on the record")
	}
	if status != app.ExitOK {
		fmt.Fprintln(stdout, "not ready: this ethicsbot would refuse to start; the running one is untouched")
		return status
	}
	fmt.Fprintln(stdout, "ready: this ethicsbot would start on this configuration and record")
	return app.ExitOK
}
