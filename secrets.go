package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// slackSecrets are the settings that may be read from a file instead of the environment,
// each with its systemd credential name: a token in the environment can be read by
// whoever can read the process's environment (/proc/PID/environ, `systemctl show`), a
// credential only by the service.
var slackSecrets = []struct{ env, credential string }{
	{"SLACK_BOT_TOKEN", "slack-bot-token"},
	{"SLACK_APP_TOKEN", "slack-app-token"},
	{"SLACK_SIGNING_SECRET", "slack-signing-secret"},
	// The SMTP relay's password (smtp.username), read the same ways.
	{"ETHICSBOT_SMTP_PASSWORD", "smtp-password"},
}

// secretsFromFiles returns getenv with each Slack secret read from where it is given: the
// variable itself, the file named by the variable + "_FILE", or the file of the same
// credential name in systemd's $CREDENTIALS_DIRECTORY (LoadCredential=). A secret given in
// two of these places, or a file that cannot be read, is an error naming both places and
// never the secret. One trailing newline, which editors and `echo` add, is dropped.
func secretsFromFiles(getenv func(string) string) (func(string) string, error) {
	values := map[string]string{}
	credDir := getenv("CREDENTIALS_DIRECTORY")
	for _, s := range slackSecrets {
		var sources []string
		if getenv(s.env) != "" {
			sources = append(sources, s.env)
		}
		file := getenv(s.env + "_FILE")
		if file != "" {
			sources = append(sources, s.env+"_FILE ("+file+")")
		}
		if credDir != "" {
			cred := filepath.Join(credDir, s.credential)
			if _, err := os.Stat(cred); err == nil {
				sources = append(sources, "the credential "+s.credential+" ($CREDENTIALS_DIRECTORY)")
				if file == "" {
					file = cred
				}
			}
		}
		switch {
		case len(sources) > 1:
			return nil, fmt.Errorf("%s is given %d times, as %s: give it once", s.env, len(sources),
				strings.Join(sources, " and "))
		case file == "":
			continue
		}
		b, err := os.ReadFile(file)
		if err != nil {
			return nil, fmt.Errorf("%s: cannot read %s: %v", sources[0], file, unwrapPath(err))
		}
		v := strings.TrimSuffix(strings.TrimSuffix(string(b), "\n"), "\r")
		switch {
		case v == "":
			return nil, fmt.Errorf("%s: %s is empty", sources[0], file)
		case strings.ContainsAny(v, "\r\n"):
			return nil, fmt.Errorf("%s: %s has more than one line; it must hold the secret alone", sources[0], file)
		}
		values[s.env] = v
	}
	if len(values) == 0 {
		return getenv, nil
	}
	return func(k string) string {
		if v, ok := values[k]; ok {
			return v
		}
		return getenv(k)
	}, nil
}

// unwrapPath is the reason of a file error without the path, which the caller names.
func unwrapPath(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}
