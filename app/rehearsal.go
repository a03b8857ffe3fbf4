package app

import "path/filepath"

// Rehearsal is a console run with the commission's own configuration on a record that is
// not the commission's: an empty one, or a verified copy of the real one, in a private
// folder of its own. Nothing it does reaches the real record or Slack.
type Rehearsal struct {
	Dir    string // the private folder: the record's copy and the letters
	CopyOf string // the real record copied, or "" for an empty record
}

// Database is the rehearsal's own record.
func (r *Rehearsal) Database() string { return filepath.Join(r.Dir, "rehearsal.db") }

// Letters is where the rehearsal writes the documents its commands produce.
func (r *Rehearsal) Letters() string { return filepath.Join(r.Dir, "letters") }
