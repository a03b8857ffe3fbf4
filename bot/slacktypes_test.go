package bot_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"ethicsbot/bot"
	"ethicsbot/commands"
	"ethicsbot/reminders"
)

// payload is one thing ethicsbot sent Slack, as the type Slack's own types give it
// (testdata/slacktypes/shapes.ts).
type payload struct {
	Shape string // PostMessage, ChatUpdate, Reply, ViewsPublish, ViewsOpen, SubmissionAnswer
	From  string // where it was seen, for the error
	Body  map[string]any
}

// walkClock is the service's clock during the walk-through, moved by its :clock lines.
type walkClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *walkClock) Now() time.Time  { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *walkClock) set(t time.Time) { c.mu.Lock(); c.now = t; c.mu.Unlock() }

// walkthrough runs the clerk's guide's walk-through (docs/clerk.md, "A case in the
// console") through ethicsbot over HTTP, as Slack would deliver each command, with the
// clerk's Home tab open and the reminders swept at each move of the clock; then clicks a
// reminder's button, a case's menu on the Home tab and the File a complaint button, and
// submits that form. It returns every payload ethicsbot sent.
func walkthrough(t *testing.T) []payload {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "docs", "clerk.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, _ := strings.Cut(string(b), "## A case in the console")
	_, block, _ := strings.Cut(section, "```\n")
	block, _, _ = strings.Cut(block, "```")
	if !strings.Contains(block, "/ethics final") {
		t.Fatalf("the walk-through is not where this test looks:\n%s", block)
	}

	e := newEnv(t)
	clk := &walkClock{now: e.now}
	e.app.Service.Now = clk.Now
	reconfigure(e.app.Service, func(s *commands.Settings) {
		s.Roles = commands.Roles{Commissioners: []string{"U_COMM1", "U_COMM2", "U_COMM3"}, Clerks: []string{"U_CLERK"}}
	})
	h := (&bot.HTTP{App: e.app, Secret: secret, Now: time.Now, DB: e.db}).Handler()
	sweep := &reminders.Sweeper{
		Planner: &reminders.Planner{Engine: e.app.Service.Engine, Policy: reminders.Defaults(),
			People: reminders.People{Clerks: []string{"U_CLERK"}, Commissioners: []string{"U_COMM1", "U_COMM2", "U_COMM3"},
				Docket: "C_DOCKET"}},
		Cases: e.db, Outbox: e.db, Notify: e.app.Outbox.Kick,
	}
	var out []payload
	answer := func(shape, from string, body []byte) {
		if len(bytes.TrimSpace(body)) == 0 {
			return // an empty 200: an ack
		}
		var m map[string]any
		if err := json.Unmarshal(body, &m); err != nil {
			t.Fatalf("%s answered %q: %v", from, body, err)
		}
		out = append(out, payload{shape, from, m})
	}
	interact := func(user string, cb map[string]any) []byte {
		cb["user"] = map[string]any{"id": user, "username": user, "name": user, "team_id": "T1"}
		b, _ := json.Marshal(cb)
		w := post(t, h, "/slack/interactivity", []byte("payload="+url.QueryEscape(string(b))), time.Now(), "")
		if w.Code != 200 {
			t.Fatalf("interaction: %d %s", w.Code, w.Body.String())
		}
		return w.Body.Bytes()
	}

	user := "U_CLERK"
	post(t, h, "/slack/events", homeOpened(user), time.Now(), "")
	for i, line := range strings.Split(strings.TrimSpace(block), "\n") {
		switch {
		case strings.HasPrefix(line, ":clock "):
			at, err := time.Parse(time.RFC3339, strings.TrimPrefix(line, ":clock "))
			if err != nil {
				t.Fatal(err)
			}
			e.app.Wait()
			clk.set(at)
			if _, err := sweep.Sweep(context.Background(), at); err != nil {
				t.Fatal(err)
			}
		case strings.HasPrefix(line, ":as "):
			user = strings.TrimPrefix(line, ":as ")
		case strings.HasPrefix(line, "/ethics "):
			form, _ := url.ParseQuery(strings.TrimSpace(string(fixture(t, "slash-command.form"))))
			trigger := fmt.Sprintf("walk-%d", i)
			form.Set("command", "/ethics")
			form.Set("text", strings.TrimPrefix(line, "/ethics "))
			form.Set("user_id", user)
			form.Set("response_url", e.slack.URL+"/response/"+trigger)
			form.Set("trigger_id", trigger)
			w := post(t, h, "/slack/commands", []byte(form.Encode()), time.Now(), "")
			answer("Reply", line, w.Body.Bytes())
		default:
			t.Fatalf("a line the walk-through test does not know: %q", line)
		}
	}
	e.app.Wait()
	e.settle(t)

	// A reminder's button, as the clerk got it.
	var button map[string]any
	for _, c := range e.slack.wait(t, 1) {
		if c.Method == "chat.postMessage" && c.Fields["channel"] == "U_CLERK" && c.Fields["blocks"] != nil {
			var blocks []struct {
				Type     string
				Elements []map[string]any
			}
			json.Unmarshal([]byte(fmt.Sprint(c.Fields["blocks"])), &blocks)
			for _, b := range blocks {
				if b.Type == "actions" && button == nil {
					button = b.Elements[0]
				}
			}
		}
	}
	if button == nil {
		t.Fatal("no reminder to the clerk offered a button")
	}
	button["block_id"], button["action_ts"] = "b1", "1733400000.2" // as Slack adds them to the click
	interact("U_CLERK", map[string]any{"type": "block_actions", "trigger_id": "walk-button", "actions": []any{button},
		"container": map[string]any{"type": "message", "message_ts": "1733400000.000100", "channel_id": "D1"},
		"channel":   map[string]any{"id": "D1"}})
	// A case's card in the docket channel: a step in its menu, and its Open case button.
	var cardMenu, openCase map[string]any
	for _, c := range e.slack.wait(t, 1) {
		if c.Method == "chat.postMessage" && c.Fields["channel"] == "C_DOCKET" &&
			strings.Contains(fmt.Sprint(c.Fields["metadata"]), "|card|parent@") {
			for _, b := range actionBlocks(c) {
				for _, el := range b {
					if el["type"] == "overflow" && cardMenu == nil {
						o := el["options"].([]any)[0].(map[string]any)
						cardMenu = map[string]any{"type": "overflow", "action_id": el["action_id"], "block_id": el["block_id"],
							"action_ts": "1733400000.4", "selected_option": o}
					}
					if el["type"] == "button" && openCase == nil {
						openCase = el
						openCase["action_ts"] = "1733400000.5"
					}
				}
			}
		}
	}
	if cardMenu == nil || openCase == nil {
		t.Fatal("no card in the docket channel offered a menu of steps and an Open case button")
	}
	for i, a := range []map[string]any{cardMenu, openCase} {
		interact("U_CLERK",
			map[string]any{"type": "block_actions", "trigger_id": fmt.Sprintf("walk-card-%d", i), "actions": []any{a},
				"response_url": e.slack.URL + fmt.Sprintf("/response/walk-card-%d", i),
				"container":    map[string]any{"type": "message", "message_ts": "1733400000.000100", "channel_id": "C_DOCKET"},
				"channel":      map[string]any{"id": "C_DOCKET"}})
	}
	// The File a complaint button on the Home tab, and its form submitted.
	interact("U_CLERK",
		map[string]any{"type": "block_actions", "trigger_id": "walk-file",
			"container": map[string]any{"type": "view", "view_id": "V1"},
			"actions": []any{map[string]any{"type": "button", "action_id": commands.ActionPrefix + commands.FileButton,
				"value": commands.FileButton, "block_id": "desk", "action_ts": "1733400000.3"}}})
	e.app.Wait()
	var fileForm map[string]any
	for _, c := range e.slack.wait(t, 1) {
		if c.Method == "views.open" && c.Fields["trigger_id"] == "walk-file" {
			fileForm, _ = c.Fields["view"].(map[string]any)
		}
	}
	if fileForm == nil {
		t.Fatal("the File a complaint button opened no form")
	}
	text := func(v string) map[string]any { return map[string]any{"type": "plain_text_input", "value": v} }
	submit := func(section string) []byte {
		return interact("U_CLERK", map[string]any{"type": "view_submission", "view": map[string]any{
			"id": "V2", "type": "modal", "callback_id": fileForm["callback_id"],
			"private_metadata": fileForm["private_metadata"],
			"title":            fileForm["title"], "state": map[string]any{"values": map[string]any{
				"respondent":  map[string]any{"respondent": text("Rick Roe")},
				"complainant": map[string]any{"complainant": text("Ann Doe")},
				"section":     map[string]any{"section": text(section)}, "summary": map[string]any{"summary": text("y")},
			}}}})
	}
	answer("SubmissionAnswer", "the filing form, with a bad section", submit("103.99"))
	answer("SubmissionAnswer", "the filing form", submit("103.10"))
	e.app.Wait()
	e.settle(t)

	for _, c := range e.slack.wait(t, 1) {
		switch c.Method {
		case "chat.postMessage", "chat.postEphemeral", "chat.update":
			body := map[string]any{}
			for k, v := range c.Fields {
				switch k {
				case "token":
				case "blocks", "metadata":
					var x any
					if err := json.Unmarshal([]byte(fmt.Sprint(v)), &x); err != nil {
						t.Fatalf("%s %s: %v", c.Method, k, err)
					}
					body[k] = x
				default:
					body[k] = v
				}
			}
			shape := "PostMessage"
			if c.Method == "chat.update" {
				shape = "ChatUpdate" // a case's card in the docket channel, updated in place
			}
			out = append(out, payload{shape, c.Method, body})
		case "response_url":
			out = append(out, payload{"Reply", "response_url", c.Fields})
		case "views.publish":
			out = append(out, payload{"ViewsPublish", c.Method, c.Fields})
		case "views.open":
			out = append(out, payload{"ViewsOpen", c.Method, c.Fields})
		}
	}
	return out
}

// TestWalkthroughPayloadsTypeCheck: every payload of the walk-through is within Slack's
// documented limits, and type-checks against Slack's own types, @slack/types, with
// TypeScript. The type check needs Node.js and the packages
// .ci/run installs in testdata/slacktypes: without them it is skipped, except under CI,
// where it must run.
func TestWalkthroughPayloadsTypeCheck(t *testing.T) {
	payloads := walkthrough(t)
	shapes := map[string]int{}
	for _, p := range payloads {
		shapes[p.Shape]++
		for _, problem := range overLimits(p.Body, p.Shape) {
			t.Errorf("%s (%s): %s", p.Shape, p.From, problem)
		}
	}
	t.Logf("%d payloads: %v", len(payloads), shapes)
	// The cards' updates carry their menus, which the check covers.
	menus := 0
	for _, p := range payloads {
		if b, _ := json.Marshal(p.Body["blocks"]); p.Shape == "ChatUpdate" &&
			strings.Contains(string(b), `"action_id":"`+commands.StepActionPrefix+`menu"`) {
			menus++
		}
	}
	if menus == 0 {
		t.Error("no card was updated with its menu of steps")
	}
	for _, s := range []string{"PostMessage", "ChatUpdate", "Reply", "ViewsPublish", "ViewsOpen", "SubmissionAnswer"} {
		if shapes[s] == 0 {
			t.Errorf("the walk-through sent no %s", s)
		}
	}

	dir, _ := filepath.Abs(filepath.Join("testdata", "slacktypes"))
	tsc := filepath.Join(dir, "node_modules", "typescript", "bin", "tsc")
	node, err := exec.LookPath("node")
	if _, serr := os.Stat(tsc); err != nil || serr != nil {
		msg := "the type check against @slack/types needs Node.js and `npm install` in bot/testdata/slacktypes " +
			"(.ci/run does both)"
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s: node %v, tsc %v", msg, err, serr)
		}
		t.Skip(msg)
	}
	work := t.TempDir()
	var src strings.Builder
	src.WriteString("import type * as S from './shapes';\n\n")
	for i, p := range payloads {
		b, err := json.MarshalIndent(p.Body, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&src, "// %s\nexport const p%d: S.%s = %s;\n\n", strings.ReplaceAll(p.From, "\n", " "), i, p.Shape, b)
	}
	shapesTS, err := os.ReadFile(filepath.Join(dir, "shapes.ts"))
	if err != nil {
		t.Fatal(err)
	}
	config := `{"compilerOptions": {"strict": true, "noEmit": true, "target": "es2022", "module": "commonjs", "moduleResolution": "node", "types": []}, "files": ["shapes.ts", "payloads.ts"]}`
	for name, data := range map[string][]byte{"shapes.ts": shapesTS, "payloads.ts": []byte(src.String()),
		"tsconfig.json": []byte(config)} {
		if err := os.WriteFile(filepath.Join(work, name), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(dir, "node_modules"), filepath.Join(work, "node_modules")); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, tsc, "-p", work)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("%d payloads do not type-check against @slack/types: %v\n%s", len(payloads), err, out)
	}
}

// overLimits says where body passes one of Slack's documented limits (Block Kit reference;
// chat.postMessage; views.publish and views.open).
func overLimits(body map[string]any, shape string) []string {
	var out []string
	check := func(ok bool, format string, a ...any) {
		if !ok {
			out = append(out, fmt.Sprintf(format, a...))
		}
	}
	chars := func(v any) int { s, _ := v.(string); return utf8.RuneCountInString(s) }
	blocksOf := func(v any) []any { b, _ := v.([]any); return b }
	var walk func(path string, v any)
	walk = func(path string, v any) {
		switch v := v.(type) {
		case []any:
			for i, x := range v {
				walk(fmt.Sprintf("%s[%d]", path, i), x)
			}
		case map[string]any:
			switch v["type"] {
			case "section":
				if tx, ok := v["text"].(map[string]any); ok {
					check(chars(tx["text"]) <= 3000, "%s: a section of %d characters", path, chars(tx["text"]))
				}
			case "header":
				check(chars(v["text"].(map[string]any)["text"]) <= 150, "%s: a header over 150 characters", path)
			case "actions":
				check(len(blocksOf(v["elements"])) <= 25, "%s: over 25 elements", path)
			case "context":
				check(len(blocksOf(v["elements"])) <= 10, "%s: over 10 elements", path)
			case "button":
				check(chars(v["text"].(map[string]any)["text"]) <= 75, "%s: a button's text over 75 characters", path)
				check(chars(v["value"]) <= 2000, "%s: a button's value over 2,000 characters", path)
			case "overflow":
				n := len(blocksOf(v["options"]))
				check(n >= 1 && n <= 5, "%s: an overflow menu of %d options", path, n)
			case "static_select":
				check(len(blocksOf(v["options"])) <= 100, "%s: a select of over 100 options", path)
			}
			if id, ok := v["action_id"]; ok {
				check(chars(id) <= 255, "%s: an action_id over 255 characters", path)
			}
			if id, ok := v["block_id"]; ok {
				check(chars(id) <= 255, "%s: a block_id over 255 characters", path)
			}
			if o, ok := v["value"].(string); ok && v["text"] != nil && v["type"] == nil {
				check(utf8.RuneCountInString(o) <= 150, "%s: an option's value over 150 characters", path)
				check(chars(v["text"].(map[string]any)["text"]) <= 75, "%s: an option's text over 75 characters", path)
			}
			for k, x := range v {
				walk(path+"."+k, x)
			}
		}
	}
	switch shape {
	case "PostMessage", "ChatUpdate", "Reply":
		check(chars(body["text"]) <= 40000, "a text of %d characters", chars(body["text"]))
		check(len(blocksOf(body["blocks"])) <= 50, "%d blocks in a message", len(blocksOf(body["blocks"])))
	case "ViewsPublish", "ViewsOpen", "SubmissionAnswer":
		if view, ok := body["view"].(map[string]any); ok {
			check(len(blocksOf(view["blocks"])) <= 100, "%d blocks in a view", len(blocksOf(view["blocks"])))
			check(chars(view["private_metadata"]) <= 3000, "private_metadata over 3,000 characters")
			if title, ok := view["title"].(map[string]any); ok {
				check(chars(title["text"]) <= 24, "a title over 24 characters")
			}
		}
	}
	walk("", body)
	return out
}
