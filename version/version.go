// Package version says what build of ethicsbot this is: the release stamped at build time,
// or else what the Go command recorded in the binary. `ethicsbot version` prints it and
// /metrics labels ethicsbot_build_info with it.
package version

import (
	"fmt"
	"runtime"
	"runtime/debug"
)

// Stamped at build time with -ldflags, as deploy/release.sh and deploy/build-static.sh do:
//
//	go build -ldflags "-X ethicsbot/version.version=1.0.0 -X ethicsbot/version.commit=$(git rev-parse HEAD) \
//	  -X ethicsbot/version.commitTime=... -X ethicsbot/version.buildDate=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
//
// A release stamps all four, so that what `ethicsbot version` prints does not depend on the
// build machine's VCS settings (-buildvcs, a checkout without .git, a tarball of the
// source). Unstamped, the version is the module version the Go command recorded (from the
// commit's tag, or a pseudo-version), or "devel" where it recorded none, and the commit is
// the one the Go command recorded; the build date is then unknown, never guessed.
var (
	version    = ""
	commit     = ""
	commitTime = ""
	buildDate  = ""
)

// Info is what `ethicsbot version` prints.
type Info struct {
	Version, Commit, CommitTime, BuildDate, Go, Platform string
	Modified                                             bool
}

// Read gathers the stamped version and what the Go command recorded in the binary.
func Read() Info {
	b := Info{Version: version, BuildDate: buildDate, Go: runtime.Version(),
		Platform: runtime.GOOS + "/" + runtime.GOARCH}
	info, ok := debug.ReadBuildInfo()
	if ok {
		if b.Version == "" && info.Main.Version != "" && info.Main.Version != "(devel)" {
			b.Version = info.Main.Version
		}
		b.Go = info.GoVersion
		for _, s := range info.Settings {
			if commit != "" {
				// A stamped commit is the release's; what the Go command recorded of the
				// build machine's checkout is not mixed into it.
				break
			}
			switch s.Key {
			case "vcs.revision":
				b.Commit = s.Value
			case "vcs.time":
				b.CommitTime = s.Value
			case "vcs.modified":
				b.Modified = s.Value == "true"
			}
		}
	}
	if commit != "" {
		b.Commit, b.CommitTime = commit, commitTime
	}
	if b.Version == "" {
		b.Version = "devel"
	}
	return b
}

// String is the text `ethicsbot version` prints: the version, the commit, its time, the
// build date and the Go release, "unknown" for what the build does not say.
func (b Info) String() string {
	unknown := func(s string) string {
		if s == "" {
			return "unknown"
		}
		return s
	}
	commit := unknown(b.Commit)
	if b.Modified {
		commit += " (with uncommitted changes)"
	}
	return fmt.Sprintf("ethicsbot %s\ncommit:      %s\ncommit time: %s\nbuilt:       %s\ngo:          %s %s\n",
		b.Version, commit, unknown(b.CommitTime), unknown(b.BuildDate), b.Go, b.Platform)
}
