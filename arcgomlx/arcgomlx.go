// Package arcgomlx lets a gomlx program run arc's lowerings with one line:
//
//	backend, err := arcgomlx.New("cuda", arcgomlx.Options{})
//
// It wraps the real PJRT plugin in arc's PJRT proxy (package proxy, compiled
// in with cgo) and registers the proxy with go-xla as a preloaded plugin.
// Every program gomlx compiles then goes through arc.Compile for the target
// (detected from the GPUs unless set), and arc's GPU kernels are registered
// with the plugin before the first compile. The ARC_* environment variables
// configure it as they configure the standalone plugin; Options win over them.
package arcgomlx

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/arcpass/arc/proxy"
	"github.com/gomlx/go-xla/pkg/pjrt"
	"github.com/gomlx/gomlx/backends"
	"github.com/gomlx/gomlx/backends/xla"
)

// Options configure arc's proxy (proxy.Options): arc compile's options
// (arc.Options, each also read from its ARC_* variable; a field set here
// wins) and where the runtime's pieces are.
type Options = proxy.Options

// New returns a gomlx backend whose programs compile through arc. platform
// names the real PJRT plugin as go-xla does: "cuda", "cpu", ... or an
// absolute path of a plugin file.
func New(platform string, opt Options) (backends.Backend, error) {
	name, err := Register(platform, opt)
	if err != nil {
		return nil, err
	}
	return xla.NewWithOptions(name, nil)
}

var (
	registerMu sync.Mutex
	registered int
)

// Register wraps the platform's PJRT plugin in arc's proxy, registers the
// proxy with go-xla and returns its name, for pjrt.GetPlugin, xla.New or
// GOMLX_BACKEND=xla:<name>. The name looks like an absolute path ("/arc/cuda")
// so that go-xla takes the registered plugin as it is, without searching
// its plugin directories or auto-installing.
func Register(platform string, opt Options) (string, error) {
	path, err := pluginPath(platform, opt.Plugin)
	if err != nil {
		return "", err
	}
	api, err := proxy.Open(path, opt)
	if err != nil {
		return "", err
	}

	registerMu.Lock()
	defer registerMu.Unlock()
	registered++
	name := "/arc/" + filepath.Base(platform)
	if registered > 1 {
		name = fmt.Sprintf("%s-%d", name, registered)
	}
	if err := pjrt.RegisterPreloadedPlugin(name, api); err != nil {
		return "", fmt.Errorf("arc: registering the proxy of %s with go-xla: %w", path, err)
	}
	return name, nil
}

// pluginPath finds the real plugin: explicit, an absolute platform, ARC_PJRT_PLUGIN, then go-xla's search.
func pluginPath(platform, explicit string) (string, error) {
	switch {
	case explicit != "":
		return explicit, nil
	case filepath.IsAbs(platform):
		return platform, nil
	case os.Getenv("ARC_PJRT_PLUGIN") != "":
		return os.Getenv("ARC_PJRT_PLUGIN"), nil
	}
	found := pjrt.AvailablePlugins()
	if path, ok := found[platform]; ok {
		return path, nil
	}
	return "", fmt.Errorf("arc: PJRT plugin %q not found (go-xla found %v): set ARC_PJRT_PLUGIN to its path, "+
		"or PJRT_PLUGIN_LIBRARY_PATH to its directory", platform, names(found))
}

func names(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
