package config

import (
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// exampleConfig is the example configuration that deploy/ ships.
const exampleConfig = "../deploy/ethicsbot.example.yml"

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
	if _, err := Parse(all); err != nil {
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
