package bot

// SlackError is slackError, for the external tests.
var SlackError = slackError
