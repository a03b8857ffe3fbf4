package config

import (
	"bytes"
	"fmt"
	"path"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// A Deprecation is a form of a setting that the previous release accepted and this one
// refuses. A configuration that one release accepts starts the next: such a form is
// accepted for one release more, with a warning at its line that says what to change, and
// refused only in the release after. CHANGELOG.md lists each row under "Deprecated" in the
// release that Since names, and the row is removed, so its form refused, in the next one
// (TestDeprecationsLastOneRelease holds the table to that schedule).
type Deprecation struct {
	// Settings are the settings the row covers, as dotted paths; "*" stands for any key of
	// a map ("letters.officers.*.address"). For a rename, the one old name.
	Settings []string
	// Renamed is the new name of a renamed setting, its last key only: the setting stays in
	// its section, "" if the form of its value changed instead.
	Renamed string
	// Rule names the check whose refusal the row turns into a warning, as the check calls
	// softened; "" for a rename.
	Rule string
	// Since is the release that accepts the old form with a warning, as CHANGELOG.md heads
	// it ("1.0.0"): "Unreleased" until that release is made.
	Since string
}

// deprecations is the table of forms this release accepts with a warning and the next
// refuses.
var deprecations = []Deprecation{
	// A recipient's address on one line wraps in the envelope's window, and the Postal
	// Service reads the city, state and ZIP code from one last line (USPS Publication 28,
	// 2). The sample configuration wrote the officer's and the attorney's on one line until
	// the window was checked at load (letters.CheckWindow).
	{Settings: []string{"letters.officer.address", "letters.attorney.address", "letters.officers.*.address"},
		Rule: "window", Since: "1.0.0"},
}

// deprecationFor is the row of the table that covers setting under rule, or nil.
func deprecationFor(rule, setting string) *Deprecation {
	for i, d := range deprecations {
		if d.Rule != rule {
			continue
		}
		for _, pattern := range d.Settings {
			if ok, _ := path.Match(strings.ReplaceAll(pattern, ".", "/"), strings.ReplaceAll(setting, ".", "/")); ok {
				return &deprecations[i]
			}
		}
	}
	return nil
}

// softened is what Parse does with err, a refusal of setting by the check rule, placed at
// its line: if a row of the table covers it, the refusal becomes a warning in cfg, saying
// that the next release refuses it, and softened returns nil; otherwise it returns err.
func softened(cfg *Config, rule, setting string, err error) error {
	if deprecationFor(rule, setting) == nil {
		return err
	}
	cfg.Deprecated = append(cfg.Deprecated, err.Error()+". This release accepts it, with this warning; the next "+
		"refuses it")
	return nil
}

// renamed writes each old name of a renamed setting that the file b uses (root is b
// parsed) with its new name, in place on its line, so that every later refusal keeps its
// line, and returns the text with the warnings that say to rename them. An old name beside
// its new one, or written in quotes, is refused at its line.
func renamed(b []byte, root *yaml.Node) ([]byte, []string, error) {
	var warnings []string
	lines := bytes.SplitAfter(b, []byte("\n"))
	for _, d := range deprecations {
		if d.Renamed == "" {
			continue
		}
		old := strings.Split(d.Settings[0], ".")
		key, parent := keyAt(root, old)
		if key == nil {
			continue
		}
		newName := strings.Join(append(old[:len(old)-1:len(old)-1], d.Renamed), ".")
		if k, _ := keyAt(parent, []string{d.Renamed}); k != nil {
			return nil, nil, lineError{key.Line, fmt.Sprintf("%s is the old name of %s, which line %d sets too: give it "+
				"once, as %s", d.Settings[0], newName, k.Line, newName)}
		}
		line := lines[key.Line-1]
		at := byteOffset(line, key.Column-1)
		if key.Style != 0 || !bytes.HasPrefix(line[at:], []byte(key.Value)) {
			return nil, nil, lineError{key.Line, fmt.Sprintf("%s is now called %s: rename it", d.Settings[0], newName)}
		}
		lines[key.Line-1] = append(append(append([]byte{}, line[:at]...), d.Renamed...), line[at+len(key.Value):]...)
		warnings = append(warnings, fmt.Sprintf("line %d: %s is now called %s: rename it. This release accepts the old "+
			"name, with this warning; the next refuses it", key.Line, d.Settings[0], newName))
	}
	return bytes.Join(lines, nil), warnings, nil
}

// keyAt is the key node at path in the document n, and the mapping that holds it; nil if
// the file does not set it.
func keyAt(n *yaml.Node, path []string) (key, parent *yaml.Node) {
	if n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		n = n.Content[0]
	}
	for _, k := range path {
		if n == nil || n.Kind != yaml.MappingNode {
			return nil, nil
		}
		var next *yaml.Node
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == k {
				key, parent, next = n.Content[i], n, n.Content[i+1]
				break
			}
		}
		if next == nil {
			return nil, nil
		}
		n = next
	}
	return key, parent
}

// byteOffset is the offset in line of its column'th character.
func byteOffset(line []byte, column int) int {
	at := 0
	for i := 0; i < column && at < len(line); i++ {
		_, size := utf8.DecodeRune(line[at:])
		at += size
	}
	return at
}
