package bot_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"ethicsbot/bot"
	"ethicsbot/commands"
)

// slashAs is a signed /ethics text from user to base, as Slack sends it.
func slashAs(t testing.TB, base, user, text, trigger string) *http.Request {
	t.Helper()
	form := url.Values{"command": {"/ethics"}, "user_id": {user}, "channel_id": {"C1"}, "trigger_id": {trigger},
		"response_url": {base + "/response/" + trigger}, "text": {text}}
	body := []byte(form.Encode())
	now := time.Now().Unix()
	r, err := http.NewRequest(http.MethodPost, base+"/slack/commands", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	r.Header.Set("X-Slack-Request-Timestamp", strconv.FormatInt(now, 10))
	r.Header.Set("X-Slack-Signature", sign(secret, now, body))
	return r
}

// answerOf sends r and returns the text of the ephemeral reply in its response, which
// must come in one piece with its length.
func answerOf(t testing.TB, c *http.Client, r *http.Request) (string, error) {
	resp, err := c.Do(r)
	if err != nil {
		return "", err
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	var reply struct {
		ResponseType string `json:"response_type"`
		Text         string `json:"text"`
	}
	if err := json.Unmarshal(body, &reply); err != nil || resp.StatusCode != http.StatusOK ||
		reply.ResponseType != "ephemeral" || resp.ContentLength != int64(len(body)) {
		return "", fmt.Errorf("status %d, length %d, %q: %v", resp.StatusCode, resp.ContentLength, body, err)
	}
	return reply.Text, nil
}

// TestSlashHostileTextAnsweredInline: what the HTTP handler answers on the request's own
// goroutine (help, and the refusals made before a command runs) is what Handle answers,
// for hostile text as for plain, for every role and none, under both voting settings; it
// reads no record (there is none here) and calls nothing of Slack's.
func TestSlashHostileTextAnsweredInline(t *testing.T) {
	e := newEnv(t)
	e.app.Service.Record = nil
	srv := httptest.NewServer((&bot.HTTP{App: e.app, Secret: secret, Now: time.Now, DB: e.db}).Handler())
	defer srv.Close()
	texts := []string{"", " ", " \t ", "help", "HELP", "help help", "help <script>alert(1)</script>",
		"help &lt;script&gt;", "help <@U_COMM1|c>", "<!channel>", "help file", "help FILE", "help nosuch", `help "`,
		`help "a b"`, "help file x", "help \xff", "\xff", "help \u2028\x00🙂", "help " + strings.Repeat("ü", 20000),
		strings.Repeat("y ", 20000), strings.Repeat("a", 15000) + "1" + strings.Repeat("=", 15000), "nosuch",
		"rule 2026-001", `file respondent="A`, "case", "help case extra=1", "help command=file"}
	users := []string{"U2147483697", "U_COMM1", "U_ATTY", "U_STRANGER", ""}
	n := 0
	for _, voting := range []bool{false, true} {
		reconfigure(e.app.Service, func(st *commands.Settings) { st.Voting.Required = voting })
		for _, text := range texts {
			for _, u := range users {
				n++
				got, err := answerOf(t, srv.Client(), slashAs(t, srv.URL, u, text, fmt.Sprint("t", n)))
				if err != nil {
					t.Fatalf("%.30q as %q: %v", text, u, err)
				}
				want := e.app.Service.Handle(context.Background(), commands.Request{User: u, Text: text, Escaped: true})
				if got != string(want.Messages[0].Text) {
					t.Errorf("%.30q as %q (votes required: %v): %q, want %q", text, u, voting, got, want.Messages[0].Text)
				}
			}
		}
	}
	if c := e.slack.count(); c != 0 {
		t.Errorf("%d calls to Slack", c)
	}
}

// TestHelpKeptPerRoleUnderReloads: help asked at once by every role while the settings are
// reloaded (votes required or not, the attorney made a clerk or not) is always a text that
// user may be told under one of those settings: a kept reply is never another role's.
func TestHelpKeptPerRoleUnderReloads(t *testing.T) {
	e := newEnv(t)
	srv := httptest.NewServer((&bot.HTTP{App: e.app, Secret: secret, Now: time.Now, DB: e.db}).Handler())
	defer srv.Close()
	users := []string{"U2147483697", "U_COMM1", "U_ATTY", "U_STRANGER"}
	texts := []string{"help", "help file", "help rule", "help case"}
	base := *e.app.Service.Settings()
	settings := func(i int) commands.Settings {
		st := base
		st.Voting.Required = i&1 != 0
		if i&2 != 0 {
			st.Roles.Clerks = append([]string{"U_ATTY"}, st.Roles.Clerks...)
			st.Roles.Attorney = ""
		}
		return st
	}
	may := map[string]bool{}
	for i := range 4 {
		e.app.Service.Configure(settings(i))
		for _, u := range users {
			for _, text := range texts {
				r := e.app.Service.Handle(context.Background(), commands.Request{User: u, Text: text})
				may[u+"|"+text+"|"+string(r.Messages[0].Text)] = true
			}
		}
	}
	stop := make(chan struct{})
	reloads := make(chan struct{})
	go func() {
		defer close(reloads)
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			case <-time.After(200 * time.Microsecond):
				e.app.Service.Configure(settings(i % 4))
			}
		}
	}()
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 50 {
				u, text := users[(g+i)%4], texts[(i/4+g)%4]
				got, err := answerOf(t, srv.Client(), slashAs(t, srv.URL, u, text, fmt.Sprint("c", g, "-", i)))
				if err != nil {
					t.Error(err)
					return
				}
				if !may[u+"|"+text+"|"+got] {
					t.Errorf("%s as %s: %q, which no setting gives them", text, u, got)
				}
			}
		}()
	}
	wg.Wait()
	close(stop)
	<-reloads
}
