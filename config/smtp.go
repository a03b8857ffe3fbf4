package config

import (
	"fmt"
	"strings"
	"time"

	"ethicsbot/mailer"
)

// fileSMTP is the smtp section of the file: the city's SMTP relay, through which the
// copies of the meeting notices are e-mailed to the news media that asked for them (5 ILCS
// 120/2.02(b)). Without it, nothing is e-mailed: a copy waits in the outbox, and the clerks
// are told to send it by hand.
//
//	smtp:
//	  host: smtp.city.example
//	  port: 587                  # default: 587 for starttls, 465 for tls, 25 otherwise
//	  security: starttls         # starttls (default), tls, opportunistic or none
//	  from: "Ethics Commission <ethics@city.example>"
//	  username: ethicsbot        # if the relay asks ethicsbot to sign in
//	  ca_file: /etc/ethicsbot/city-ca.pem  # if a private authority signed the relay's certificate
//	  timeout: 30s
//
// The password is a secret, like the Slack tokens: it is never in this file, but in
// ETHICSBOT_SMTP_PASSWORD, a file named by ETHICSBOT_SMTP_PASSWORD_FILE, or the systemd
// credential smtp-password (app/secrets.go).
type fileSMTP struct {
	Host     string `yaml:"host"`
	Port     int    `yaml:"port"`
	Security string `yaml:"security"`
	From     string `yaml:"from"`
	Username string `yaml:"username"`
	CAFile   string `yaml:"ca_file"`
	Timeout  string `yaml:"timeout"`
}

// SMTPPasswordEnv is the variable that holds the relay's password (app/secrets.go reads it from
// a file or a credential too).
const SMTPPasswordEnv = "ETHICSBOT_SMTP_PASSWORD"

// parseSMTP applies the smtp section to cfg; a refusal is placed at the line of the key at
// fault.
func parseSMTP(cfg *Config, f fileConfig, at func(path ...string) func(error) error) error {
	s := f.SMTP
	if s == (fileSMTP{}) {
		return nil
	}
	c := mailer.Config{Host: s.Host, Port: s.Port, Security: mailer.Security(s.Security), From: s.From,
		Username: s.Username, CAFile: s.CAFile}
	if s.Timeout != "" {
		d, err := time.ParseDuration(s.Timeout)
		if err != nil || d < time.Second || d > 10*time.Minute {
			return at("smtp", "timeout")(fmt.Errorf("smtp.timeout %q is not a duration such as 30s, from 1s to 10m",
				s.Timeout))
		}
		c.Timeout = d
	}
	if err := c.Check(); err != nil {
		// mailer's messages begin with the key at fault.
		key := "smtp"
		for _, k := range []string{"host", "port", "from", "security", "ca_file"} {
			if strings.HasPrefix(err.Error(), k) {
				key = k
			}
		}
		path := []string{"smtp"}
		if key != "smtp" {
			path = append(path, key)
		}
		return at(path...)(fmt.Errorf("smtp: %v", err))
	}
	cfg.SMTP = c
	return nil
}
