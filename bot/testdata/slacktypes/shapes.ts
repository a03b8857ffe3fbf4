// The payloads ethicsbot sends to Slack, as Slack's own types describe them
// (@slack/types, pinned in package.json). bot/slacktypes_test.go captures every payload
// of the clerk's guide's walk-through and writes each as a constant of one of these
// types; `tsc --strict` then refuses any field Slack does not define, any value of the
// wrong kind, and any null where Slack wants a value or nothing.
import type { HomeView, KnownBlock, MessageMetadata, ModalView } from '@slack/types';

// chat.postMessage (and chat.postEphemeral, with user): the arguments ethicsbot gives.
export interface PostMessage {
  channel: string;
  text: string;
  user?: string;
  thread_ts?: string; // a reply in a case's thread in the docket channel
  blocks?: KnownBlock[];
  metadata?: MessageMetadata;
}

// chat.update: a case's card in the docket channel, updated in place.
export interface ChatUpdate {
  channel: string;
  ts: string;
  text: string;
  blocks?: KnownBlock[];
  metadata?: MessageMetadata;
}

// The body of an answer through a response_url, or of a slash command's HTTP response.
export interface Reply {
  response_type: 'ephemeral' | 'in_channel';
  text: string;
  blocks?: KnownBlock[];
}

// views.publish: the App Home tab.
export interface ViewsPublish {
  user_id: string;
  view: HomeView;
}

// views.open: a form.
export interface ViewsOpen {
  trigger_id: string;
  view: ModalView;
}

// The answer to a view_submission: errors on the form's fields, or the form updated to
// show what was done.
export type SubmissionAnswer =
  | { response_action: 'errors'; errors: { [blockId: string]: string } }
  | { response_action: 'update'; view: ModalView };
