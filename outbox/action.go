package outbox

import "context"

// Action is a step a post offers to take, as a button: a reminder's button
// opens the form that records the step it names. It is data, kept with the post in the
// outbox; the transport draws it (bot, commands.PostBlocks), and a transport with no
// buttons (the console) shows the text alone, which still says how to type the step.
type Action struct {
	// Label is the button's text, plain: "Record 2026-003: respondent notice by certified
	// mail".
	Label string `json:"label"`
	// Form is the /ethics command line whose form the button opens, without "/ethics"
	// and without placeholders: "mail 2026-003 respondent" (commands.Service.Action).
	Form string `json:"form"`
	// Says is the sentence of the post's text that tells how to type the step, which the
	// button stands for: left out beside the button, kept in the text that notifications
	// and the console show.
	Says Markup `json:"says,omitempty"`
	// Menu puts the step in the post's menu of steps (an overflow menu, as on the App Home
	// tab's row of the case) rather than as a button of its own: a case's card in the
	// docket channel offers its steps so.
	Menu bool `json:"menu,omitempty"`
	// Case, in place of Form, makes the button show that case to whoever clicks it, as
	// /ethics case does, with nothing to fill in: the card's "Open case" button.
	Case string `json:"case,omitempty"`
}

// ActionSender is a Sender that can show a post's actions as buttons. The deliverer uses
// it for a post that has actions, and Send for the others.
type ActionSender interface {
	SendActions(ctx context.Context, to Dest, text Markup, actions []Action, key Key) (channel, ts string, err error)
}

// SendPost says text with its actions through s: as buttons if s can show them, else as
// the text alone. A Sender that wraps another (to count what it sends, say) implements
// ActionSender with it, so that the buttons reach the sender that draws them.
func SendPost(ctx context.Context, s Sender, to Dest, text Markup, actions []Action,
	key Key) (channel, ts string, err error) {
	if as, ok := s.(ActionSender); ok && len(actions) > 0 {
		return as.SendActions(ctx, to, text, actions, key)
	}
	return s.Send(ctx, to, text, key)
}
