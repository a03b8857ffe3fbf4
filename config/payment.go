package config

import (
	"errors"
	"fmt"
	"strings"

	"ethicsbot/docket"
	"ethicsbot/letters"
)

// filePayment is the payment section of the file: to whom and how a fine is paid, and in
// how many days. (E)(2), (F) and (H) let the commission impose a fine but say nothing of
// its payment; a letter that imposes or confirms one gives these, so that the person
// fined knows whom to pay, how, and by when. The section is optional: without it, a
// letter with a fine is refused, naming the setting to add (letters.Payment).
type filePayment struct {
	Payee   string   `yaml:"payee"`   // "City of Springfield": to whom a check is made payable
	Address string   `yaml:"address"` // where a payment is mailed or brought, lines by "|" or a YAML block
	Methods []string `yaml:"methods"` // each way to pay, one sentence each
	// DueDays is the term to pay, in calendar days from the day the fine may be enforced
	// (docket.FinePayment); 30 by default.
	DueDays *int `yaml:"due_days"`
}

// maxPaymentMethods bounds payment.methods: each is a line of every letter with a fine.
const maxPaymentMethods = 6

// parsePayment applies the payment section to cfg.
func parsePayment(cfg *Config, f fileConfig, at func(path ...string) func(error) error) error {
	p := f.Payment
	pay := letters.Payment{Payee: strings.TrimSpace(p.Payee), Address: docket.AddressLines(p.Address)}
	for _, m := range p.Methods {
		pay.Methods = append(pay.Methods, strings.TrimSpace(m))
	}
	if set := pay.Payee != "" || pay.Address != "" || len(pay.Methods) > 0; set {
		for _, c := range []struct {
			key, value string
			max        int
		}{{"payee", pay.Payee, docket.MaxName}, {"address", strings.ReplaceAll(pay.Address, "\n", " "), docket.MaxText}} {
			if c.value == "" {
				return at("payment")(fmt.Errorf("payment.%s is not set: a letter that imposes a fine (E)(2), (F), (H) "+
					"gives the payee, the address and how to pay; set payee, address and methods together", c.key))
			}
			if err := docket.CheckLine("payment."+c.key, "(H)", c.value, true, c.max); err != nil {
				return at("payment", c.key)(err)
			}
		}
		if len(pay.Methods) == 0 || len(pay.Methods) > maxPaymentMethods {
			return at("payment", "methods")(fmt.Errorf("payment.methods lists %d ways to pay: give 1 to %d, each a "+
				"sentence such as \"by check or money order payable to the City of Springfield, mailed to the address "+
				"above\"", len(pay.Methods), maxPaymentMethods))
		}
		for _, m := range pay.Methods {
			if err := docket.CheckLine("payment.methods", "(H)", m, true, docket.MaxName); err != nil {
				return at("payment", "methods")(err)
			}
		}
	}
	cfg.Letters.Payment = pay
	if p.DueDays == nil {
		return nil
	}
	if _, both := f.Ordinance.Periods[string(docket.FinePayment)]; both {
		return at("payment", "due_days")(errors.New("payment.due_days and ordinance.periods.fine_payment both set " +
			"the term to pay a fine: keep payment.due_days alone"))
	}
	if err := cfg.Ordinance.Override(docket.FinePayment, *p.DueDays, docket.Days); err != nil {
		return at("payment", "due_days")(fmt.Errorf("payment.due_days %d is not a number of days from 1 to 366: the "+
			"ordinance gives no term to pay a fine, and this is the commission's", *p.DueDays))
	}
	return nil
}
