package arcgomlx

import (
	"strings"
	"sync"

	"github.com/gomlx/gomlx/backends"
	"github.com/gomlx/gomlx/backends/xla"
)

// BackendName is the gomlx backend this package registers: a program that
// picks its backend with backends.New() runs through arc with
//
//	GOMLX_BACKEND=arc:cuda ./program     (arc alone means arc:cuda)
//
// once it imports the package, even for nothing else:
//
//	import _ "github.com/arcpass/arc/arcgomlx"
//
// The configuration after "arc:" is the platform New takes ("cuda", "rocm",
// or the absolute path of a PJRT plugin); the ARC_* variables configure arc
// (docs/RUNTIME.md).
const BackendName = "arc"

// DefaultPlatform is the platform of GOMLX_BACKEND=arc without one.
const DefaultPlatform = "cuda"

func init() { backends.Register(BackendName, newBackend) }

var (
	backendMu sync.Mutex
	byConfig  = map[string]string{} // platform -> the proxy registered for it
)

// newBackend is the gomlx constructor of the arc backend. Each platform's
// proxy is registered once per process, with the ARC_* variables of the
// first call: a process holds a bounded number of proxies, and a program may
// call backends.New() many times.
func newBackend(config string) (backends.Backend, error) {
	platform := strings.TrimSpace(config)
	if platform == "" {
		platform = DefaultPlatform
	}
	backendMu.Lock()
	name, ok := byConfig[platform]
	if !ok {
		var err error
		if name, err = Register(platform, Options{}); err != nil {
			backendMu.Unlock()
			return nil, err
		}
		byConfig[platform] = name
	}
	backendMu.Unlock()
	b, err := xla.NewWithOptions(name, nil)
	if err != nil {
		return nil, err // not a nil *xla.Backend in a non-nil interface
	}
	return b, nil
}
