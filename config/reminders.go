package config

import (
	"reflect"
	"strings"

	"ethicsbot/reminders"
)

// fileReminderRoutes is reminders.to in the file: where each kind of reminder goes, dm (the
// clerks', or for meetings the sitting commissioners', direct messages), channel (the
// docket channel) or both. A kind left out goes where reminders.DefaultRoutes
// says: the clerk's tasks by direct message, the commission's steps and the (G) daily
// reminder in the docket channel, meetings and the digest by direct message. Each yaml key
// is a reminders.Kind, read by reminders.ParseRoute.
type fileReminderRoutes struct {
	ClerkTasks      string `yaml:"clerk_tasks"`
	CommissionSteps string `yaml:"commission_steps"`
	Expedited       string `yaml:"expedited"`
	Meetings        string `yaml:"meetings"`
	Digest          string `yaml:"digest"`
}

// parseReminderRoutes applies reminders.to to p; a kind or a route that is not one is
// refused by name, and p is left as it was.
func parseReminderRoutes(f fileReminderRoutes, p *reminders.Policy) error {
	routes := reminders.DefaultRoutes()
	v := reflect.ValueOf(f)
	for i := 0; i < v.NumField(); i++ {
		route := v.Field(i).String()
		if route == "" {
			continue
		}
		kind, _, _ := strings.Cut(v.Type().Field(i).Tag.Get("yaml"), ",")
		k, r, err := reminders.ParseRoute(kind, route)
		if err != nil {
			return err
		}
		routes[k] = r
	}
	p.Routes = routes
	return nil
}
