package letters

// Printable returns s as the documents' font draws it: every character it cannot draw, and
// every control or invisible formatting character, written as its code point, [U+1F600],
// so that nothing is dropped or drawn as an empty box without a trace. Other documents
// drawn in the same fonts (the mailing book) use it too.
func Printable(s string) string { return regular.printable(s) }
