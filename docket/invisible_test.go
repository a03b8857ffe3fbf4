package docket_test

import (
	"fmt"
	"strings"
	"testing"

	"ethicsbot/docket"
)

// TestOneLineFieldsRefuseInvisibleCharacters: a one-line field holding an invisible format
// character is refused with the character's code point and name; visible text, accents and
// right-to-left letters pass.
func TestOneLineFieldsRefuseInvisibleCharacters(t *testing.T) {
	for _, tc := range []struct {
		r    rune
		name string
	}{
		{'\u200b', "ZERO WIDTH SPACE"}, {'\u200c', "ZERO WIDTH NON-JOINER"}, {'\u200d', "ZERO WIDTH JOINER"},
		{'\u200e', "LEFT-TO-RIGHT MARK"}, {'\u200f', "RIGHT-TO-LEFT MARK"}, {'\u061c', "ARABIC LETTER MARK"},
		{'\ufeff', "ZERO WIDTH NO-BREAK SPACE"}, {'\u2060', "WORD JOINER"}, {'\u2064', "INVISIBLE PLUS"},
		{'\u202a', "LEFT-TO-RIGHT EMBEDDING"}, {'\u202e', "RIGHT-TO-LEFT OVERRIDE"}, {'\u2066', "LEFT-TO-RIGHT ISOLATE"},
		{'\u2069', "POP DIRECTIONAL ISOLATE"},
		{0xE0000, "TAG CHARACTER"}, {0xE0041, "TAG CHARACTER"}, {0xE007F, "TAG CHARACTER"},
		{0xFDD0, "NONCHARACTER"}, {0xFDEF, "NONCHARACTER"}, {0xFFFE, "NONCHARACTER"}, {0xFFFF, "NONCHARACTER"},
		{0x1FFFE, "NONCHARACTER"}, {0x10FFFF, "NONCHARACTER"},
	} {
		t.Run(fmt.Sprintf("%U", tc.r), func(t *testing.T) {
			err := docket.CheckLine("respondent", "(A)", "Jane"+string(tc.r)+" Roe", true, docket.MaxName)
			want := fmt.Sprintf("respondent: contains %U %s, an invisible character; retype the field (rule (A))", tc.r, tc.name)
			if err == nil || err.Error() != want {
				t.Fatalf("got %v, want %q", err, want)
			}
			if docket.ErrorCode(err) != docket.EINVALID {
				t.Errorf("code %s", docket.ErrorCode(err))
			}
		})
	}
	for _, ok := range []string{"José Núñez-O'Brien", "Zoë Ångström", "محمد علي", "יעל כהן",
		"City Hall, Room 201 (2nd floor)", "5 ILCS 120/2(c)(4)", "Anne\u00a0Marie"} {
		if err := docket.CheckLine("respondent", "(A)", ok, true, docket.MaxName); err != nil {
			t.Errorf("%q refused: %v", ok, err)
		}
	}
}

// TestRebuildKeepsInvisibleCharactersRecordedBefore: a name recorded with a zero-width space
// before one-line fields refused it still rebuilds, so another fact of the case can be
// corrected; the same filing made now is refused.
func TestRebuildKeepsInvisibleCharactersRecordedBefore(t *testing.T) {
	e := MustEngine(t)
	f := filing
	f.Respondent.Name = "Jane\u200bRoe"
	steps := closedHearingCase()[:3]
	steps[0].action = f
	entries := recorded(t, steps)
	c, err := e.Rebuild("2026-001", entries)
	if err != nil {
		t.Fatalf("an older record no longer rebuilds: %v", err)
	}
	if c.Respondent.Name != f.Respondent.Name {
		t.Errorf("rebuilt respondent %q", c.Respondent.Name)
	}
	if _, _, err := e.Apply(docket.Case{}, f, T(t, steps[0].at)); err == nil ||
		!strings.Contains(err.Error(), "U+200B ZERO WIDTH SPACE") {
		t.Errorf("a new filing with a zero-width space: %v", err)
	}
}
