package commands

import (
	"strings"
	"time"
)

// ParseForTest tokenizes text and binds it to its subcommand, as Handle does.
func ParseForTest(text string) (args, error) {
	words := tokenize(text)
	if len(words) == 0 {
		return nil, nil
	}
	sub, ok := lookup(strings.ToLower(words[0].text))
	if !ok {
		return nil, nil
	}
	return sub.bind(words[1:], time.UTC)
}
