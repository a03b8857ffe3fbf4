package bot_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/slack-go/slack"
	"github.com/slack-go/slack/socketmode"

	"ethicsbot/bot"
	"ethicsbot/commands"
	"ethicsbot/outbox"
)

// Hostile names and places, as a user might type them to make ethicsbot ping a channel,
// disguise a link or mention someone.
const (
	hostileName  = `<!channel> Jane & Roe`
	hostileLink  = `<https://evil.example|the evidence>`
	hostilePlace = `<!everyone> Room <@U0ADMIN1>`
)

// liveMarkup is a '<' that does not open a mention of one of the env's users.
var liveMarkup = regexp.MustCompile(`<(?:[^@]|@(?:[^UW]|[UW][A-Z0-9_]*[^A-Z0-9_>]))`)

// strs calls fn with every string in v, a decoded JSON value or a form field; a field that
// holds JSON (blocks, metadata) is decoded and walked too.
func strs(v any, fn func(string)) {
	switch x := v.(type) {
	case string:
		var inner any
		if strings.HasPrefix(x, "[") || strings.HasPrefix(x, "{") {
			if json.Unmarshal([]byte(x), &inner) == nil {
				strs(inner, fn)
				return
			}
		}
		fn(x)
	case []any:
		for _, e := range x {
			strs(e, fn)
		}
	case map[string]any:
		for _, e := range x {
			strs(e, fn)
		}
	}
}

// checkSaid fails if anything said to Slack (posts, replies, forms, views) carries markup
// that ethicsbot did not write, and returns all of it as one text.
func checkSaid(t *testing.T, e *env, extra ...string) string {
	t.Helper()
	e.slack.mu.Lock()
	defer e.slack.mu.Unlock()
	var all []string
	check := func(where, s string) {
		all = append(all, s)
		if m := liveMarkup.FindStringIndex(s); m != nil {
			t.Errorf("%s: live markup %q in %q", where, s[m[0]:min(len(s), m[0]+30)], s)
		}
		for _, u := range regexp.MustCompile(`<@([A-Z0-9_]+)>`).FindAllStringSubmatch(s, -1) {
			if u[1] != "U2147483697" && u[1] != "U_COMM1" && u[1] != "U_ATTY" {
				t.Errorf("%s: mentions %s, who is nobody ethicsbot knows: %q", where, u[1], s)
			}
		}
	}
	for _, c := range e.slack.calls {
		strs(c.Fields, func(s string) { check(c.Method, s) })
	}
	for _, s := range extra {
		check("response", s)
	}
	return strings.Join(all, "\n")
}

// hostileScript files a case with hostile names and schedules its meeting at a hostile
// place; each transport sends it its own way.
var hostileScript = []string{
	`file respondent="` + hostileName + `" complainant="` + hostileLink + `" section=103.10 received=2026-12-04T10:00 summary="x"`,
	`schedule 2026-001 sufficiency 2026-12-10T17:00 place="` + hostilePlace + `"`,
	`case 2026-001`,
}

// slackEscaped is text as Slack sends what a user typed in a slash command: with
// should_escape, a '<', '>' or '&' the user typed comes as &lt; &gt; &amp;, so that every
// '<' in the text is Slack's own entity.
var slackEscaped = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace

// wantShown is the hostile text as it must reach Slack: escaped, so shown as typed.
var wantShown = []string{"&lt;!channel&gt; Jane &amp; Roe", "&lt;https://evil.example|the evidence&gt;",
	"&lt;!everyone&gt; Room &lt;@U0ADMIN1&gt;"}

func checkShown(t *testing.T, all string, notices bool) {
	t.Helper()
	for _, w := range wantShown {
		if !strings.Contains(all, w) {
			t.Errorf("Slack was never shown %q", w)
		}
	}
	if notices &&
		!strings.Contains(all,
			"PUBLIC NOTICE. Ethics Commission, case 2026-001: sufficiency meeting on Thu 10 Dec 2026 at 17:00 CST at "+
				"&lt;!everyone&gt; Room &lt;@U0ADMIN1&gt;") {
		t.Errorf("the public notice did not reach Slack, escaped:\n%s", all)
	}
}

// TestHostileTextThroughEveryTransport: hostile text typed in a slash command over HTTP
// or Socket Mode, or entered in a form, reaches Slack as data in every reply, card, post
// and view.
func TestHostileTextThroughEveryTransport(t *testing.T) {
	t.Run("HTTP", func(t *testing.T) {
		e := newEnv(t)
		h := (&bot.HTTP{App: e.app, Secret: secret, Now: time.Now, DB: e.db}).Handler()
		var replies []string
		for i, text := range hostileScript {
			w := post(t, h, "/slack/commands", slashBody(t, e.slack, slackEscaped(text), fmt.Sprint("h", i)), time.Now(), "")
			replies = append(replies, w.Body.String())
			var body any
			json.Unmarshal(w.Body.Bytes(), &body)
			strs(body, func(s string) { replies = append(replies, s) })
		}
		e.app.Wait()
		e.settle(t)
		e.app.PublishHome(context.Background(), "U2147483697")
		checkShown(t, checkSaid(t, e, replies...), true)
	})
	t.Run("SocketMode", func(t *testing.T) {
		e := newEnv(t)
		h := e.app.SocketHandler(socketmode.New(e.app.API))
		var req socketmode.Request
		json.Unmarshal(fixture(t, "socket-slash-command.json"), &req)
		for i, text := range hostileScript {
			var cmd slack.SlashCommand
			json.Unmarshal(req.Payload, &cmd)
			cmd.Command, cmd.UserID, cmd.Text = "/ethics", "U2147483697", slackEscaped(text)
			cmd.TriggerID, cmd.ResponseURL = fmt.Sprint("s", i), e.slack.URL+"/response/s"+fmt.Sprint(i)
			r := req
			r.EnvelopeID = fmt.Sprint("env-", i)
			// DispatchEvent runs the handler on its own goroutine: wait for its reply.
			n := e.slack.count()
			h.DispatchEvent(socketmode.Event{Type: socketmode.EventTypeSlashCommand, Data: cmd, Request: &r})
			e.slack.wait(t, n+1)
			e.app.Wait()
		}
		// And a form submitted over Socket Mode: the second case, filed with the names
		// swapped round.
		form := e.app.Service.Handle(context.Background(), commands.Request{User: "U2147483697", Text: "file"}).Modal
		cb := slack.InteractionCallback{Type: slack.InteractionTypeViewSubmission, User: slack.User{ID: "U2147483697"},
			View: slack.View{ID: "VSOCKET", Hash: "h1", CallbackID: form.CallbackID, PrivateMetadata: form.PrivateMetadata,
				State: &slack.ViewState{Values: map[string]map[string]slack.BlockAction{
					"respondent": {"respondent": {Value: hostileLink}}, "complainant": {"complainant": {Value: hostileName}},
					"section": {"section": {Value: "103.10"}}, "summary": {"summary": {Value: "x"}},
				}}}}
		r := req
		r.EnvelopeID = "env-form"
		n := e.slack.count()
		h.DispatchEvent(socketmode.Event{Type: socketmode.EventTypeInteractive, Data: cb, Request: &r})
		e.slack.wait(t, n+1) // the docket line of 2026-002
		e.app.Wait()
		e.settle(t)
		all := checkSaid(t, e)
		checkShown(t, all, true)
		if !strings.Contains(all,
			"New case 2026-002: &lt;!channel&gt; Jane &amp; Roe v. &lt;https://evil.example|the evidence&gt;") {
			t.Errorf("the form's filing did not reach the docket channel, escaped:\n%s", all)
		}
	})
	t.Run("Forms", func(t *testing.T) {
		e := newEnv(t)
		h := (&bot.HTTP{App: e.app, Secret: secret, Now: time.Now, DB: e.db}).Handler()
		var answers []string // the modals' answers, as Slack shows them
		submitForm := func(text string, vals map[string]any) {
			t.Helper()
			resp := e.app.Service.Handle(context.Background(), commands.Request{User: "U2147483697", Text: text})
			if resp.Modal == nil {
				resp = e.app.Service.Action(context.Background(), "U2147483697", text, "C1")
			}
			var cb map[string]any
			json.Unmarshal(fixture(t, "view-submission.json"), &cb)
			cb["user"].(map[string]any)["id"] = "U2147483697"
			view := cb["view"].(map[string]any)
			view["id"], view["hash"] = "V"+fmt.Sprint(time.Now().UnixNano()), fmt.Sprint(time.Now().UnixNano())
			view["callback_id"], view["private_metadata"] = resp.Modal.CallbackID, resp.Modal.PrivateMetadata
			values := map[string]any{}
			for k, v := range vals {
				values[k] = map[string]any{k: v}
			}
			view["state"] = map[string]any{"values": values}
			payload, _ := json.Marshal(cb)
			w := post(t, h, "/slack/interactivity", []byte("payload="+url.QueryEscape(string(payload))), time.Now(), "")
			if w.Code != 200 || !strings.Contains(w.Body.String(), `"response_action":"update"`) {
				t.Fatalf("%s form: %d %s", text, w.Code, w.Body.String())
			}
			answers = append(answers, w.Body.String())
			e.app.Wait()
		}
		text := func(v string) map[string]any { return map[string]any{"type": "plain_text_input", "value": v} }
		submitForm("file",
			map[string]any{"respondent": text(hostileName), "complainant": text(hostileLink), "section": text("103.10"),
				"summary": text("x")})
		submitForm("schedule 2026-001 sufficiency", map[string]any{
			"start": map[string]any{"type": "datetimepicker", "selected_date_time": time.Now().Add(96 * time.Hour).Unix()},
			"place": text(hostilePlace)})
		e.settle(t)
		var shown []string
		for _, a := range answers {
			var body any
			json.Unmarshal([]byte(a), &body)
			strs(body, func(s string) { shown = append(shown, s) })
		}
		all := checkSaid(t, e, shown...)
		checkShown(t, all, false)
		if !strings.Contains(all, "PUBLIC NOTICE. Ethics Commission, case 2026-") ||
			!strings.Contains(all, "&lt;!everyone&gt; Room &lt;@U0ADMIN1&gt;, open to the public.") {
			t.Errorf("the form's meeting notice did not reach Slack, escaped:\n%s", all)
		}
	})
	t.Run("Console", func(t *testing.T) {
		e := newQuietEnv(t, nil)
		svc := e.app.Service
		reconfigure(svc, func(st *commands.Settings) { st.Roles.Clerks = []string{"U_CLERK"} })
		c := &bot.Console{Service: svc, Clock: bot.NewClock(e.now), User: "U_CLERK",
			Deliver: bot.Printing(&outbox.Deliverer{Store: e.db})}
		var out bytes.Buffer
		c.Run(context.Background(),
			strings.NewReader(strings.Join(append([]string{""}, hostileScript...), "\n/ethics ")), &out)
		if m := liveMarkup.FindString(out.String()); m != "" {
			t.Errorf("console shows live markup %q:\n%s", m, out.String())
		}
		checkShown(t, out.String(), true)
	})
}

// TestEscapedSlashCommand: a slash command as Slack sends it with should_escape, over
// HTTP: the recusal names a commissioner by mention, and what Slack made a ping, a channel
// link or a web link in the place is recorded and shown as the user typed it, never live.
func TestEscapedSlashCommand(t *testing.T) {
	e := newEnv(t)
	h := (&bot.HTTP{App: e.app, Secret: secret, Now: time.Now, DB: e.db}).Handler()
	start := time.Now().Add(96 * time.Hour).In(e.app.Service.Engine.Cal.Location()).Format("2006-01-02T15:04")
	for i, text := range []string{
		`file respondent="Jane Roe" respondent_user=<@U0RESP1|jane.roe> complainant="John Doe &amp; Sons" section=103.10 summary=x`,
		`schedule 2026-001 sufficiency ` + start + ` place="<!here> Room 2 &amp; 3, <#C0123|general>, <https://city.example.gov/map|city.example.gov/map>"`,
		`recuse 2026-001 commissioner=<@U_COMM1|ann> reason="knows &lt;the&gt; complainant"`,
	} {
		w := post(t, h, "/slack/commands", slashBody(t, e.slack, text, fmt.Sprint("esc", i)), time.Now(), "")
		if w.Code != 200 || strings.Contains(w.Body.String(), "Not done") {
			t.Fatalf("%s: %d %s", text, w.Code, w.Body.String())
		}
	}
	e.app.Wait()
	e.settle(t)
	c, err := e.db.Case(context.Background(), "2026-001")
	if err != nil {
		t.Fatal(err)
	}
	if c.Respondent.SlackID != "U0RESP1" || c.Complainant.Name != "John Doe & Sons" {
		t.Errorf("parties recorded as %+v, %+v", c.Respondent, c.Complainant)
	}
	if got := c.Meeting("sufficiency").Place; got != "@here Room 2 & 3, #general, city.example.gov/map" {
		t.Errorf("place recorded as %q", got)
	}
	if _, recused := c.Recused("U_COMM1"); !recused {
		t.Error("the recusal by mention was not recorded")
	}
	all := checkSaid(t, e)
	if !strings.Contains(all, "@here Room 2 &amp; 3, #general, city.example.gov/map") {
		t.Errorf("the place was not shown as typed:\n%s", all)
	}
}
