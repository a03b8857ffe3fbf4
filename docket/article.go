package docket

import (
	"fmt"
	"strings"
)

// Article numbers. (B) and (C)(2) send their notices "by certified mail, return receipt
// requested"; the Postal Service tracks each such piece by its article number (the
// Package Identification Code of the Intelligent Mail package barcode), which the clerk
// copies from the PS Form 3800 label. USPS Publication 199 (Intelligent Mail Package
// Barcode Implementation Guide) defines it: 20 digits, or 22 for the IMpb form, the last
// of which is a MOD 10 check digit over the others. A mistyped digit, or two neighbours
// swapped, changes the check digit, so a number that fails it is refused as typed rather
// than recorded, printed on a letter and searched for in vain.

// ArticleCheckDigit returns the USPS Publication 199 MOD 10 check digit of body, the
// article number's digits without its check digit: from the rightmost digit leftwards,
// the digits are weighted 3, 1, 3, 1, …; the check digit is what brings the sum up to a
// multiple of ten. body must hold only digits.
func ArticleCheckDigit(body string) int {
	sum := 0
	for i := 0; i < len(body); i++ {
		d := int(body[len(body)-1-i] - '0')
		if i%2 == 0 {
			d *= 3
		}
		sum += d
	}
	return (10 - sum%10) % 10
}

// NormalizeArticle returns a USPS article number without spaces, or an error that says
// what is wrong with it: not one line, not 20 or 22 digits, or a check digit that does
// not match the others (USPS Publication 199), which means a digit was mistyped.
func NormalizeArticle(s string) (string, error) {
	n, err := articleDigits(s, 20, 22)
	if err != nil {
		return "", err
	}
	if len(n) == 21 {
		return "", Invalid("(B)", "article",
			fmt.Sprintf("%q has 21 digits: a USPS article number has 20 or 22 (USPS Publication 199); a digit is "+
				"missing or doubled", s))
	}
	if strings.Trim(n, "0") == "" {
		// Every digit zero passes the MOD 10 check (its check digit is 0), but no label bears
		// it: the number carries a mailer id and a serial (USPS Publication 199, 3.3).
		return "", Invalid("(B)", "article",
			fmt.Sprintf("%q is not a USPS article number: every digit is zero; copy it from the PS Form 3800 label", s))
	}
	if want, got := ArticleCheckDigit(n[:len(n)-1]), int(n[len(n)-1]-'0'); want != got {
		return "", Invalid("(B)", "article",
			fmt.Sprintf("%s is not a USPS article number: the check digit should be %d, not %d: a digit is mistyped (USPS "+
				"Publication 199); copy it again from the label", GroupArticle(n), want, got))
	}
	return n, nil
}

// articleAsRecorded is what NormalizeArticle accepted before it checked the check digit:
// 20 to 22 digits. A case rebuilt from its record reads the article numbers recorded then
// by it (see applying.replay), and a return receipt typed later still finds them.
func articleAsRecorded(s string) (string, error) { return articleDigits(s, 20, 22) }

// articleDigits returns s without spaces if it is one line of min to max digits.
func articleDigits(s string, min, max int) (string, error) {
	if strings.ContainsAny(s, "\n\r\t") {
		return "", Invalid("(B)", "article", "must be one line: an article number is 20 or 22 digits, spaces allowed")
	}
	n := strings.Join(strings.Fields(s), "")
	if len(n) < min || len(n) > max || strings.Trim(n, "0123456789") != "" {
		return "", Invalid("(B)", "article",
			fmt.Sprintf("%q is not a USPS certified-mail article number: it has 20 or 22 digits, spaces allowed", s))
	}
	return n, nil
}

// article reads an action's article number: as NormalizeArticle does, or, when a case is
// rebuilt from its record, as the number was accepted when it was recorded.
func (x *applying) article(s string) (string, error) {
	if x.replay {
		return articleAsRecorded(s)
	}
	return NormalizeArticle(s)
}

// GroupArticle writes an article number as USPS prints it: 9407 1118 9876 5432 1016 34.
func GroupArticle(n string) string {
	var parts []string
	for len(n) > 4 {
		parts, n = append(parts, n[:4]), n[4:]
	}
	return strings.Join(append(parts, n), " ")
}

// ArticleTaken is the refusal of an article number already recorded on a paper, on case
// number: the Postal Service gives each piece its own number, so the same number on two
// papers is a mistyped one. The docket checks the papers of one case; the store, which
// holds every case, checks the others in the same transaction (store.Apply).
func ArticleTaken(article, number string) *Error {
	return &Error{Code: ECONFLICT, Field: "article", Rule: "(B)",
		Message: fmt.Sprintf("article %s is already recorded on a paper of case %s: each piece of certified mail has its "+
			"own number, so one of the two is mistyped. Check the label; correct the other with /ethics correct %s "+
			"article=... if it is the one mistyped",
			GroupArticle(article), number, number)}
}

// CompactArticle is an article number as recorded, without the spaces it may have been
// typed with: for showing a recorded number, valid or not.
func CompactArticle(s string) string { return strings.Join(strings.Fields(s), "") }
