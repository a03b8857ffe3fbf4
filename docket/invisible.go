package docket

import "fmt"

// invisibleNames names the invisible format characters a one-line field refuses, one by
// one: zero-width spaces and joiners, the marks and overrides that set the direction of
// text, and the invisible operators. Each shows as nothing, so a name, a place or an Open
// Meetings Act authority holding one could look like another (a "Jane Roe" that does not
// match the "Jane Roe" of a search, or of a conflict check), or read as something else.
var invisibleNames = map[rune]string{
	'\u061c': "ARABIC LETTER MARK",
	'\u200b': "ZERO WIDTH SPACE",
	'\u200c': "ZERO WIDTH NON-JOINER",
	'\u200d': "ZERO WIDTH JOINER",
	'\u200e': "LEFT-TO-RIGHT MARK",
	'\u200f': "RIGHT-TO-LEFT MARK",
	'\u202a': "LEFT-TO-RIGHT EMBEDDING",
	'\u202b': "RIGHT-TO-LEFT EMBEDDING",
	'\u202c': "POP DIRECTIONAL FORMATTING",
	'\u202d': "LEFT-TO-RIGHT OVERRIDE",
	'\u202e': "RIGHT-TO-LEFT OVERRIDE",
	'\u2060': "WORD JOINER",
	'\u2061': "FUNCTION APPLICATION",
	'\u2062': "INVISIBLE TIMES",
	'\u2063': "INVISIBLE SEPARATOR",
	'\u2064': "INVISIBLE PLUS",
	'\u2066': "LEFT-TO-RIGHT ISOLATE",
	'\u2067': "RIGHT-TO-LEFT ISOLATE",
	'\u2068': "FIRST STRONG ISOLATE",
	'\u2069': "POP DIRECTIONAL ISOLATE",
	'\ufeff': "ZERO WIDTH NO-BREAK SPACE",
}

// invisible names r if a one-line field refuses it, and says "" otherwise: the characters
// of invisibleNames, the tag characters U+E0000 to U+E007F (invisible letters that can
// spell a hidden text) and the noncharacters U+FDD0 to U+FDEF and U+xFFFE, U+xFFFF of
// every plane (never text at all).
func invisible(r rune) string {
	if name, ok := invisibleNames[r]; ok {
		return name
	}
	switch {
	case r >= 0xE0000 && r <= 0xE007F:
		return "TAG CHARACTER"
	case r >= 0xFDD0 && r <= 0xFDEF, r&0xFFFE == 0xFFFE:
		return "NONCHARACTER"
	}
	return ""
}

// checkInvisible refuses a one-line field holding an invisible character, naming it.
func checkInvisible(field, rule, s string) error {
	for _, r := range s {
		if name := invisible(r); name != "" {
			return Invalid(rule, field, fmt.Sprintf("contains %U %s, an invisible character; retype the field", r, name))
		}
	}
	return nil
}
