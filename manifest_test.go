package main

import (
	"os"
	"strings"
	"testing"

	"gopkg.in/yaml.v2"

	"ethicsbot/commands"
)

// TestManifest checks manifest.yml creates the app the code expects: /ethics, the App Home
// tab, interactivity, Socket Mode, and exactly the scopes the code uses.
func TestManifest(t *testing.T) {
	b, err := os.ReadFile("manifest.yml")
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Features struct {
			AppHome struct {
				HomeTab bool `yaml:"home_tab_enabled"`
			} `yaml:"app_home"`
			BotUser struct {
				DisplayName string `yaml:"display_name"`
			} `yaml:"bot_user"`
			SlashCommands []struct {
				Command   string `yaml:"command"`
				UsageHint string `yaml:"usage_hint"`
			} `yaml:"slash_commands"`
			Shortcuts []struct {
				Type       string `yaml:"type"`
				CallbackID string `yaml:"callback_id"`
			} `yaml:"shortcuts"`
		} `yaml:"features"`
		OAuth struct {
			Scopes struct {
				Bot []string `yaml:"bot"`
			} `yaml:"scopes"`
		} `yaml:"oauth_config"`
		Settings struct {
			Events struct {
				BotEvents []string `yaml:"bot_events"`
			} `yaml:"event_subscriptions"`
			Interactivity struct {
				Enabled bool `yaml:"is_enabled"`
			} `yaml:"interactivity"`
			SocketMode bool `yaml:"socket_mode_enabled"`
		} `yaml:"settings"`
	}
	if err := yaml.Unmarshal(b, &m); err != nil {
		t.Fatalf("manifest.yml is not valid YAML: %v", err)
	}
	f, s := m.Features, m.Settings
	if len(f.SlashCommands) != 1 || f.SlashCommands[0].Command != "/ethics" || f.SlashCommands[0].UsageHint == "" {
		t.Errorf("slash commands %+v", f.SlashCommands)
	}
	if !f.AppHome.HomeTab || f.BotUser.DisplayName == "" || !s.Interactivity.Enabled || !s.SocketMode {
		t.Errorf("features %+v settings %+v", f, s)
	}
	if got := strings.Join(m.OAuth.Scopes.Bot,
		","); got != "commands,chat:write,im:write,im:history,groups:history,channels:history,files:write,files:read,channels:read,groups:read" {
		t.Errorf("bot scopes %s", got)
	}
	if len(f.Shortcuts) != 1 || f.Shortcuts[0].Type != "message" || f.Shortcuts[0].CallbackID != commands.AttachShortcut {
		t.Errorf("shortcuts %+v: want the message shortcut %s", f.Shortcuts, commands.AttachShortcut)
	}
	if got := strings.Join(s.Events.BotEvents,
		","); got != "app_home_opened,member_joined_channel,channel_unarchive,group_unarchive" {
		t.Errorf("bot events %s", got)
	}
}
