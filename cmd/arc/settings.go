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
		} else {
			usage += " (no variable)"
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

// Type is what help shows after the flag: the value's form (a boolean
// shows [=true|false]).
func (v settingValue) Type() string {
	if v.s.Kind == arc.Bool {
		return "bool"
	}
	return v.s.Value
}

func (v settingValue) IsBoolFlag() bool { return v.s.Kind == arc.Bool }

// sizeFlag is an integer flag that takes size suffixes (4K, 1M: binary),
// as every size arc takes does.
func sizeFlag(fs *pflag.FlagSet, name string, value int64, usage string) *int64 {
	v := sizeValue(value)
	fs.Var(&v, name, usage)
	return (*int64)(&v)
}

type sizeValue int64

func (v *sizeValue) String() string { return arc.FormatSize(int64(*v)) }
func (v *sizeValue) Type() string   { return "size" }
func (v *sizeValue) Set(s string) error {
	n, err := arc.ParseSize(s)
	*v = sizeValue(n)
	return err
}

// settingNames lists the flag and variable of every setting, for tests and help.
func settingNames() []struct{ name, env string } {
	var out []struct{ name, env string }
	for _, s := range arc.Settings {
		out = append(out, struct{ name, env string }{s.Name, s.Env})
	}
	return out
}
