package config

import (
	"ethicsbot/docket"
)

// fileMail is the mail section of the file: the commission's next step after a certified
// mailing came back (docket.MailPolicy). (B) and (C)(2) require the mailing, "by certified
// mail, return receipt requested", not its delivery; what follows a refused, unclaimed or
// undeliverable piece is the commission's choice.
type fileMail struct {
	AfterUnclaimed     string `yaml:"after_unclaimed"`     // refused or unclaimed: first_class (default), hand, certified or none
	AfterUndeliverable string `yaml:"after_undeliverable"` // undeliverable: certified (default), first_class, hand or none
}

// parseMail applies the mail section to cfg; a next step that is not one of
// docket.NextSteps is refused with its line.
func parseMail(cfg *Config, f fileConfig, at func(path ...string) func(error) error) error {
	for _, s := range []struct {
		key, value string
		dst        *docket.NextStep
	}{{"after_unclaimed", f.Mail.AfterUnclaimed, &cfg.Mail.Unclaimed},
		{"after_undeliverable", f.Mail.AfterUndeliverable, &cfg.Mail.Undeliverable}} {
		if s.value == "" {
			continue
		}
		if err := docket.CheckNextStep(docket.NextStep(s.value)); err != nil {
			return at("mail", s.key)(err)
		}
		*s.dst = docket.NextStep(s.value)
	}
	return nil
}
