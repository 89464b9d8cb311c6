package main

import (
	"strings"

	"github.com/spf13/pflag"

	"github.com/arcpass/arc"
)

// addSettings registers a flag for every option arc.Settings defines, so the
// command line takes what the ARC_* variables take, spelled alike.
func addSettings(fs *pflag.FlagSet, opt *arc.Options) {
	for _, s := range arc.Settings {
		usage := s.Usage
		if s.Name == "target" {
			usage = "target machine: " + strings.Join(arc.Targets(), ", ")
		}
		if s.Env != "" {
			usage += " (" + s.Env + " for the proxies)"
		}
		f := fs.VarPF(settingValue{s, opt}, s.Name, "", usage)
		if s.Kind == arc.Bool {
			f.NoOptDefVal = "true"
		}
	}
}

// settingValue is a pflag.Value that sets one option through its Setting.
type settingValue struct {
	s   arc.Setting
	opt *arc.Options
}

func (v settingValue) String() string {
	if v.opt == nil {
		return ""
	}
	return v.s.Get(v.opt)
}

func (v settingValue) Set(text string) error { return v.s.Set(v.opt, text) }

func (v settingValue) Type() string {
	switch v.s.Kind {
	case arc.Bool:
		return "bool"
	case arc.List:
		return "stringArray"
	}
	return v.s.Value
}
