package main

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

const exampleConfig = "deploy/ethicsbot.example.yml"

func TestCheckConfigExample(t *testing.T) {
	code, out, errOut := runCLI(t, nil, "", "check-config", exampleConfig)
	if code != 0 || errOut != "" || !strings.Contains(out, exampleConfig+": valid: 3 commissioners, 1 clerks, time zone America/Chicago") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if strings.Contains(out, "warning") {
		t.Errorf("the example sets public_url, yet: %q", out)
	}
}

// TestExampleConfigHasEverySetting: every key ethicsbot reads is in the example, set or
// commented out, and with every comment taken away the file is still valid: the defaults
// shown are values ethicsbot accepts.
func TestExampleConfigHasEverySetting(t *testing.T) {
	b, err := os.ReadFile(exampleConfig)
	if err != nil {
		t.Fatal(err)
	}
	setting := regexp.MustCompile(`(?m)^(\s*)#(\s*)([a-z_]+:(?: |$))`)
	all := setting.ReplaceAll(b, []byte("$1$2$3"))
	// The templates folder is the administrator's; an empty one overrides nothing.
	all = regexp.MustCompile(`templates: \S+`).ReplaceAll(all, []byte("templates: "+t.TempDir()))
	if _, err := parseConfig(all); err != nil {
		t.Fatalf("the example with its settings uncommented is refused: %v\n%s", err, all)
	}
	var root yaml.Node
	if err := yaml.Unmarshal(all, &root); err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	var walk func(n *yaml.Node, prefix string)
	walk = func(n *yaml.Node, prefix string) {
		if n.Kind == yaml.DocumentNode {
			n = n.Content[0]
		}
		if n.Kind != yaml.MappingNode {
			return
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := prefix + n.Content[i].Value
			have[k] = true
			walk(n.Content[i+1], k+".")
		}
	}
	walk(&root, "")
	for _, key := range yamlKeys(reflect.TypeOf(fileConfig{}), "") {
		if !have[key] {
			t.Errorf("the example lacks the setting %s", key)
		}
	}
}

// yamlKeys lists the dotted keys of a configuration struct, down to its leaves.
func yamlKeys(t reflect.Type, prefix string) []string {
	var out []string
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if name == "" || name == "-" {
			continue
		}
		out = append(out, prefix+name)
		ft := f.Type
		if ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if ft.Kind() == reflect.Struct && ft.NumField() > 0 && ft.Field(0).IsExported() {
			out = append(out, yamlKeys(ft, prefix+name+".")...)
		}
	}
	return out
}

func TestCheckConfigRefusals(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yml")
	os.WriteFile(bad, []byte("commissioners: [U0COMM1]\nclerk: U0CLERK1\nchannels: {docket: C0DOCKET1, notices: C0NOTICE1}\ntimezone: Mars/Olympus\n"), 0o600)
	noSlack := filepath.Join(dir, "console.yml")
	os.WriteFile(noSlack, []byte("commissioners: [U0COMM1]\n"), 0o600)
	local := filepath.Join(dir, "local.yml")
	os.WriteFile(local, []byte(slackConfig), 0o600)
	for _, tc := range []struct {
		args     []string
		code     int
		out, err string
	}{
		{[]string{bad}, 1, "", "config " + bad + ": line 4: time zone"},
		{[]string{noSlack}, 1, "", "connecting to Slack needs clerk, channels.docket, channels.notices"},
		{[]string{filepath.Join(dir, "missing.yml")}, 1, "", "cannot read it"},
		{[]string{local}, 0, "warning: public_url is http://localhost:3000", ""},
		{[]string{bad, "extra"}, 2, "", `unexpected argument "extra"`},
	} {
		code, out, errOut := runCLI(t, map[string]string{}, "", append([]string{"check-config"}, tc.args...)...)
		if code != tc.code || !strings.Contains(out, tc.out) || !strings.Contains(errOut, tc.err) || (tc.err != "" && out != "") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", tc.args, code, out, errOut)
		}
	}
	// ETHICSBOT_CONFIG names the file when no argument does.
	if code, _, errOut := runCLI(t, map[string]string{"ETHICSBOT_CONFIG": bad}, "", "check-config"); code != 1 || !strings.Contains(errOut, "line 4") {
		t.Errorf("ETHICSBOT_CONFIG: exit %d, %q", code, errOut)
	}
}
