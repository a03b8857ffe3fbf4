package app

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
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
		b, err := readSecret(file)
		if err != nil {
			return nil, fmt.Errorf("%s: cannot read %s: %v", sources[0], file, err)
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

// maxSecret is the most a secret's file may hold: a Slack token is under a hundred bytes.
const maxSecret = 64 << 10

// readSecret reads the secret's file at path, which must be a regular file: a named pipe
// would block the start until something wrote to it, a device such as /dev/zero would never
// end, and a folder cannot be read. Each is refused at once, and the file is opened without
// waiting (O_NONBLOCK), so that a file swapped for a pipe after the look cannot block
// either.
func readSecret(path string) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, unwrapPath(err)
	}
	if err := regularFile(fi); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, unwrapPath(err)
	}
	defer f.Close()
	if fi, err = f.Stat(); err != nil {
		return nil, unwrapPath(err)
	}
	if err := regularFile(fi); err != nil {
		return nil, err
	}
	b, err := io.ReadAll(io.LimitReader(f, maxSecret+1))
	if err != nil {
		return nil, unwrapPath(err)
	}
	if len(b) > maxSecret {
		return nil, fmt.Errorf("it holds more than %d KB, which no secret does: give the file that holds the secret alone",
			maxSecret>>10)
	}
	return b, nil
}

// regularFile refuses a file that is not a regular file, saying what it is.
func regularFile(fi os.FileInfo) error {
	var what string
	switch t := fi.Mode().Type(); {
	case t.IsRegular():
		return nil
	case t&fs.ModeNamedPipe != 0:
		what = "a named pipe (FIFO), which would keep ethicsbot waiting for a writer"
	case t&fs.ModeDevice != 0:
		what = "a device"
	case t.IsDir():
		what = "a folder"
	default:
		what = "not a regular file (" + t.String() + ")"
	}
	return fmt.Errorf("it is %s: give the regular file that holds the secret", what)
}

// unwrapPath is the reason of a file error without the path, which the caller names.
func unwrapPath(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}
