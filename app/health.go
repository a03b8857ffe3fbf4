package app

import (
	"os"
	"path/filepath"

	"ethicsbot/bot"
)

// tokenPlace says where this install keeps the Slack secret env (SLACK_BOT_TOKEN), in the
// terms a person renewing it needs, as secretsFromFiles found it: the systemd credential
// (LoadCredential=, whose file under /etc/ethicsbot/credentials/ is the one to change; the
// copy in $CREDENTIALS_DIRECTORY is made anew at each start), the file the variable +
// "_FILE" names, or the variable itself.
func tokenPlace(getenv func(string) string, env string) string {
	for _, s := range slackSecrets {
		if s.env != env {
			continue
		}
		if dir := getenv("CREDENTIALS_DIRECTORY"); dir != "" && getenv(env+"_FILE") == "" {
			if _, err := os.Stat(filepath.Join(dir, s.credential)); err == nil {
				return "the credential file that ethicsbot's systemd unit names in LoadCredential=" + s.credential +
					":… (/etc/ethicsbot/credentials/" + s.credential + " in deploy/ethicsbot.service)"
			}
		}
	}
	if file := getenv(env + "_FILE"); file != "" {
		return "the file " + file + " (" + env + "_FILE)"
	}
	return env + " in ethicsbot's environment"
}

// slackTokens are the bot and app-level tokens as this install keeps them.
func slackTokens(getenv func(string) string) (botToken, appToken bot.Token) {
	return bot.BotToken(tokenPlace(getenv, "SLACK_BOT_TOKEN")), bot.AppToken(tokenPlace(getenv, "SLACK_APP_TOKEN"))
}
