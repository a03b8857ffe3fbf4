// Package web serves what ethicsbot shows outside Slack: the commission's public notice
// board, with its Atom and ICS feeds, and each member's private calendar feed.
//
// The board shows the records `ethicsbot export --public` writes, read by the same store
// function, so nothing confidential can reach it that the export would not show; of them,
// it keeps back a case step's notice on a meeting's agenda until that agenda is posted
// (history.go).
// Pages are rendered on the server with html/template, which escapes every value: user
// text is data, never markup. They need no JavaScript.
//
// Of ethicsbot's packages, web imports only docket: the record, the settings in force and
// the annual report's figures reach it through the small interfaces and functions it
// declares (Records, Steps, Figures, CalendarTokens, CalendarCases, CalendarFeed's Member and
// PublicURL), which main wires to the store, commands and report.
package web
