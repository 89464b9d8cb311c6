//go:build cgo

package gputest

/*
#cgo LDFLAGS: -ldl
#include <dlfcn.h>
#include <stdlib.h>
#include <stddef.h>

// The C API of libarc_gpu.so (gpu/arc_gpu.h, arc_gpu_test.h),
// reached through dlsym so that the package builds without the library.
typedef struct arc_comm arc_comm;

static void *lib;
static int (*p_comm_create)(arc_comm **, const int *, int, int, size_t);
static int (*p_allreduce)(arc_comm *, int, const void *, void *, size_t, int, int, int, int, void *);
static int (*p_comm_destroy)(arc_comm *);
static int (*p_comm_status)(arc_comm *);
static const char *(*p_last_error)(void);
static int (*p_device_count)(int *);
static int (*p_malloc)(int, size_t, void **);
static int (*p_free)(int, void *);
static int (*p_copy)(int, void *, const void *, size_t);
static int (*p_memset)(int, void *, int, size_t);
static int (*p_stream_create)(int, void **);
static int (*p_stream_destroy)(int, void *);
static int (*p_stream_sync)(int, void *);
static int (*p_copy_async)(int, void *, const void *, size_t, void *);
static int (*p_capture_begin)(int, void *);
static int (*p_capture_end)(int, void *, void **);
static int (*p_graph_launch)(int, void *, void *);
static int (*p_graph_destroy)(int, void *);
static int (*p_count_diff)(int, const void *, const void *, size_t, int, unsigned long long *, void *);
static int (*p_peer_enabled)(int, int, int *);

#define SYM(p, name) if (!(*(void **)&p = dlsym(lib, name))) return name;

// arc_open loads the library; it returns NULL or what failed.
static const char *arc_open(const char *path) {
	lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!lib) return dlerror();
	SYM(p_comm_create, "arc_comm_create");
	SYM(p_allreduce, "arc_allreduce");
	SYM(p_comm_destroy, "arc_comm_destroy");
	SYM(p_comm_status, "arc_comm_status");
	SYM(p_last_error, "arc_last_error");
	SYM(p_device_count, "arc_test_device_count");
	SYM(p_malloc, "arc_test_malloc");
	SYM(p_free, "arc_test_free");
	SYM(p_copy, "arc_test_copy");
	SYM(p_memset, "arc_test_memset");
	SYM(p_stream_create, "arc_test_stream_create");
	SYM(p_stream_destroy, "arc_test_stream_destroy");
	SYM(p_stream_sync, "arc_test_stream_sync");
	SYM(p_copy_async, "arc_test_copy_async");
	SYM(p_capture_begin, "arc_test_capture_begin");
	SYM(p_capture_end, "arc_test_capture_end");
	SYM(p_graph_launch, "arc_test_graph_launch");
	SYM(p_graph_destroy, "arc_test_graph_destroy");
	SYM(p_count_diff, "arc_test_count_diff");
	SYM(p_peer_enabled, "arc_test_peer_enabled");
	return NULL;
}

static int comm_create(arc_comm **c, const int *devs, int n, int link, size_t max) { return p_comm_create(c, devs, n, link, max); }
static int allreduce(arc_comm *c, int rank, void *in, void *out, size_t count, int dt, int algo, int codec, int flags, void *s) {
	return p_allreduce(c, rank, in, out, count, dt, algo, codec, flags, s);
}
static int comm_destroy(arc_comm *c) { return p_comm_destroy(c); }
static int comm_status(arc_comm *c) { return p_comm_status(c); }
static const char *last_error(void) { return p_last_error(); }
static int device_count(int *n) { return p_device_count(n); }
static int dmalloc(int dev, size_t n, void **p) { return p_malloc(dev, n, p); }
static int dfree(int dev, void *p) { return p_free(dev, p); }
static int dcopy(int dev, void *dst, void *src, size_t n) { return p_copy(dev, dst, src, n); }
static int dmemset(int dev, void *p, int v, size_t n) { return p_memset(dev, p, v, n); }
static int stream_create(int dev, void **s) { return p_stream_create(dev, s); }
static int stream_destroy(int dev, void *s) { return p_stream_destroy(dev, s); }
static int stream_sync(int dev, void *s) { return p_stream_sync(dev, s); }
static int copy_async(int dev, void *dst, void *src, size_t n, void *s) { return p_copy_async(dev, dst, src, n, s); }
static int capture_begin(int dev, void *s) { return p_capture_begin(dev, s); }
static int capture_end(int dev, void *s, void **g) { return p_capture_end(dev, s, g); }
static int graph_launch(int dev, void *g, void *s) { return p_graph_launch(dev, g, s); }
static int graph_destroy(int dev, void *g) { return p_graph_destroy(dev, g); }
static int count_diff(int dev, void *a, void *b, size_t n, int dt, void *counter, void *s) {
	return p_count_diff(dev, a, b, n, dt, (unsigned long long *)counter, s);
}
static int peer_enabled(int dev, int peer, int *on) { return p_peer_enabled(dev, peer, on); }
*/
import "C"

import (
	"errors"
	"fmt"
	"unsafe"
)

// Open loads libarc_gpu.so from path. It fails when the library is missing
// or lacks a symbol the harness needs.
func Open(path string) error {
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	if msg := C.arc_open(cpath); msg != nil {
		return fmt.Errorf("load %s: %s", path, C.GoString(msg))
	}
	return nil
}

// call turns an arc_gpu.h return code into an error carrying arc_last_error.
func call(what string, rc C.int) error {
	if rc == 0 {
		return nil
	}
	return &Error{Code: int(rc), Msg: what + ": " + C.GoString(C.last_error())}
}

// DeviceCount is the number of GPUs the library sees (0 without a driver).
func DeviceCount() int {
	var n C.int
	if C.device_count(&n) != 0 {
		return 0
	}
	return int(n)
}

// Ptr is a device address (or a stream or graph handle).
type Ptr = unsafe.Pointer

// Malloc allocates bytes on device dev.
func Malloc(dev int, bytes int) (Ptr, error) {
	var p unsafe.Pointer
	err := call("malloc", C.dmalloc(C.int(dev), C.size_t(bytes), &p))
	return p, err
}

// Free releases device memory.
func Free(dev int, p Ptr) error { return call("free", C.dfree(C.int(dev), p)) }

// ToDevice copies src to device memory dst.
func ToDevice(dev int, dst Ptr, src []byte) error {
	if len(src) == 0 {
		return nil
	}
	return call("copy", C.dcopy(C.int(dev), dst, unsafe.Pointer(&src[0]), C.size_t(len(src))))
}

// FromDevice copies device memory src into dst.
func FromDevice(dev int, dst []byte, src Ptr) error {
	if len(dst) == 0 {
		return nil
	}
	return call("copy", C.dcopy(C.int(dev), unsafe.Pointer(&dst[0]), src, C.size_t(len(dst))))
}

// Memset sets bytes of device memory to value and waits for it.
func Memset(dev int, p Ptr, value byte, bytes int) error {
	return call("memset", C.dmemset(C.int(dev), p, C.int(value), C.size_t(bytes)))
}

// NewStream creates a non-blocking stream on dev.
func NewStream(dev int) (Ptr, error) {
	var s unsafe.Pointer
	err := call("stream", C.stream_create(C.int(dev), &s))
	return s, err
}

// DestroyStream destroys a stream.
func DestroyStream(dev int, s Ptr) error {
	return call("stream destroy", C.stream_destroy(C.int(dev), s))
}

// Sync waits for a stream.
func Sync(dev int, s Ptr) error { return call("stream sync", C.stream_sync(C.int(dev), s)) }

// CopyAsync enqueues a device-to-device copy on a stream.
func CopyAsync(dev int, dst, src Ptr, bytes int, s Ptr) error {
	return call("copy async", C.copy_async(C.int(dev), dst, src, C.size_t(bytes), s))
}

// CaptureBegin starts capturing what this thread enqueues on s.
func CaptureBegin(dev int, s Ptr) error { return call("capture begin", C.capture_begin(C.int(dev), s)) }

// CaptureEnd ends the capture and returns the instantiated graph.
func CaptureEnd(dev int, s Ptr) (Ptr, error) {
	var g unsafe.Pointer
	err := call("capture end", C.capture_end(C.int(dev), s, &g))
	return g, err
}

// GraphLaunch enqueues a replay of graph g on s.
func GraphLaunch(dev int, g, s Ptr) error {
	return call("graph launch", C.graph_launch(C.int(dev), g, s))
}

// GraphDestroy frees an instantiated graph.
func GraphDestroy(dev int, g Ptr) error { return call("graph destroy", C.graph_destroy(C.int(dev), g)) }

// CountDiff enqueues a comparison of count elements of a and b that adds the
// number of differing elements (NaN equals NaN) to the uint64 at counter.
func CountDiff(dev int, a, b Ptr, count int, dtype int, counter Ptr, s Ptr) error {
	return call("count diff", C.count_diff(C.int(dev), a, b, C.size_t(count), C.int(dtype), counter, s))
}

// PeerEnabled reports whether dev can currently access peer's memory.
func PeerEnabled(dev, peer int) (bool, error) {
	var on C.int
	err := call("peer probe", C.peer_enabled(C.int(dev), C.int(peer), &on))
	return on != 0, err
}

// Link modes (arc_link).
const (
	LinkPeer = 0
	LinkHost = 1
)

// Comm is an arc communicator over local devices.
type Comm struct {
	c       *C.arc_comm
	Devices []int
}

// NewComm creates a communicator; rank r runs on devices[r].
func NewComm(devices []int, link int, maxBytes int) (*Comm, error) {
	devs := make([]C.int, len(devices))
	for i, d := range devices {
		devs[i] = C.int(d)
	}
	var c *C.arc_comm
	if err := call("arc_comm_create", C.comm_create(&c, &devs[0], C.int(len(devs)), C.int(link), C.size_t(maxBytes))); err != nil {
		return nil, err
	}
	return &Comm{c: c, Devices: devices}, nil
}

// AllReduce enqueues rank's part of an all-reduce on stream s.
func (c *Comm) AllReduce(rank int, in, out Ptr, count, dtype, algo, codec, flags int, s Ptr) error {
	return call("arc_allreduce", C.allreduce(c.c, C.int(rank), in, out, C.size_t(count), C.int(dtype), C.int(algo),
		C.int(codec), C.int(flags), s))
}

// Status reports a timeout of any rank since the communicator was made.
func (c *Comm) Status() error { return call("arc_comm_status", C.comm_status(c.c)) }

// Destroy frees the communicator.
func (c *Comm) Destroy() error { return call("arc_comm_destroy", C.comm_destroy(c.c)) }

// Error is a failure the library reported.
type Error struct {
	Code int // arc_gpu.h code
	Msg  string
}

func (e *Error) Error() string { return fmt.Sprintf("%s (code %d)", e.Msg, e.Code) }

// IsCode reports whether err is a library error with the given code.
func IsCode(err error, code int) bool {
	var e *Error
	return errors.As(err, &e) && e.Code == code
}
