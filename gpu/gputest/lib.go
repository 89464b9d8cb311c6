//go:build cgo

package gputest

/*
#cgo LDFLAGS: -ldl
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

// The C API of libarc_gpu.so (gpu/arc_gpu.h, arc_gpu_test.h),
// reached through dlsym so that the package builds without the library.
typedef struct arc_comm arc_comm;

// arc_comm_config of arc_gpu.h (same layout).
typedef struct {
	size_t struct_size;
	int world;
	const int *devices;
	int link;
	size_t max_bytes;
	long long timeout_ms;
	const long long *ids;
	const char *key;
	void *kv_ctx;
	int (*kv_put)(void *, const char *, size_t, const char *, size_t, char **);
	int (*kv_get)(void *, const char *, size_t, int, char **, size_t *, char **);
	long long rendezvous_ms;
} arc_comm_config;

// arc_norm of arc_gpu.h (same layout).
typedef struct {
	const void *residual;
	const void *weight;
	void *y;
	size_t row;
	int mean;
	float scale, eps;
	int weight_mode;
	int kind;
	const void *bias;
	float init;
} arc_norm;

static void *lib;
static int (*p_allreduce_norm)(arc_comm *, int, const void *, void *, size_t, int, int, int, int, const arc_norm *, void *);
static int (*p_comm_create)(arc_comm **, const int *, int, int, size_t);
static int (*p_comm_create_config)(arc_comm **, const arc_comm_config *);
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
	SYM(p_comm_create_config, "arc_comm_create_config");
	SYM(p_allreduce, "arc_allreduce");
	SYM(p_allreduce_norm, "arc_allreduce_norm");
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

// A key-value store kept as files in kv_dir, as the PJRT client's
// distributed store behaves: a key is written once; get waits for it.
static char kv_dir[512];

static char *kv_dup(const char *s) {
	char *p = malloc(strlen(s) + 1);
	strcpy(p, s);
	return p;
}

static void kv_path(char *path, size_t n, const char *key, size_t key_size) {
	int k = snprintf(path, n, "%s/", kv_dir);
	for (size_t i = 0; i < key_size && k + 1 < (int)n; i++) path[k++] = key[i] == '/' ? '!' : key[i];
	path[k] = 0;
}

static int kv_put(void *ctx, const char *key, size_t key_size, const char *value, size_t value_size, char **err) {
	(void)ctx;
	char path[1024], tmp[1100];
	kv_path(path, sizeof path, key, key_size);
	snprintf(tmp, sizeof tmp, "%s.tmp%ld", path, (long)getpid());
	int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL, 0644);
	if (fd < 0 || write(fd, value, value_size) != (ssize_t)value_size || close(fd) != 0) {
		*err = kv_dup("cannot write the store");
		return 1;
	}
	int rc = link(tmp, path);
	unlink(tmp);
	if (rc != 0) {
		*err = kv_dup("ALREADY_EXISTS");
		return 1;
	}
	return 0;
}

static int kv_get(void *ctx, const char *key, size_t key_size, int timeout_ms, char **value, size_t *value_size, char **err) {
	(void)ctx;
	char path[1024];
	kv_path(path, sizeof path, key, key_size);
	struct timespec t0, now, nap = {0, 2000000};
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		FILE *f = fopen(path, "rb");
		if (f) {
			char *buf = malloc(1 << 16);
			size_t n = fread(buf, 1, (1 << 16) - 1, f);
			fclose(f);
			buf[n] = 0;
			*value = buf;
			*value_size = n;
			return 0;
		}
		clock_gettime(CLOCK_MONOTONIC, &now);
		if ((now.tv_sec - t0.tv_sec) * 1000 + (now.tv_nsec - t0.tv_nsec) / 1000000 > timeout_ms) {
			*err = kv_dup("DEADLINE_EXCEEDED");
			return 1;
		}
		nanosleep(&nap, NULL);
	}
}

static void set_kv_dir(const char *d) { snprintf(kv_dir, sizeof kv_dir, "%s", d); }

static int comm_create_config(arc_comm **c, const int *devs, int n, int link, size_t max, long long timeout_ms,
		const long long *ids, const char *key) {
	arc_comm_config cfg;
	memset(&cfg, 0, sizeof cfg);
	cfg.struct_size = sizeof cfg;
	cfg.world = n;
	cfg.devices = devs;
	cfg.link = link;
	cfg.max_bytes = max;
	cfg.timeout_ms = timeout_ms;
	cfg.ids = ids;
	if (key) {
		cfg.key = key;
		cfg.kv_put = kv_put;
		cfg.kv_get = kv_get;
	}
	return p_comm_create_config(c, &cfg);
}
static int allreduce(arc_comm *c, int rank, void *in, void *out, size_t count, int dt, int algo, int codec, int flags, void *s) {
	return p_allreduce(c, rank, in, out, count, dt, algo, codec, flags, s);
}
static int allreduce_norm(arc_comm *c, int rank, void *in, void *out, size_t count, int dt, int algo, int codec, int flags,
		void *res, void *w, void *y, size_t row, int mean, float scale, float eps, int wmode, int kind, void *b,
		float init, void *s) {
	arc_norm n = {res, w, y, row, mean, scale, eps, wmode, kind, b, init};
	return p_allreduce_norm(c, rank, in, out, count, dt, algo, codec, flags, &n, s);
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

// CommConfig describes a communicator for NewCommConfig (arc_comm_config).
type CommConfig struct {
	Devices   []int   // per rank: a device of this process, or -1 for a rank of another process
	Link      int     // LinkPeer or LinkHost
	MaxBytes  int     // 0: the library's default
	TimeoutMs int64   // < 0: ARC_TIMEOUT_MS or the default; 0: forever
	IDs       []int64 // how messages name the ranks' devices (needed with other processes)
	KVDir     string  // with other processes: the directory of the file-backed key-value store
	Key       string  // with other processes: the communicator's unique key
}

// NewCommConfig creates a communicator from a description; with ranks of
// other processes it meets them through the file-backed store in KVDir.
func NewCommConfig(cfg CommConfig) (*Comm, error) {
	devs := make([]C.int, len(cfg.Devices))
	for i, d := range cfg.Devices {
		devs[i] = C.int(d)
	}
	var ids *C.longlong
	if len(cfg.IDs) > 0 {
		cids := (*[64]C.longlong)(C.malloc(C.size_t(8 * len(cfg.IDs))))
		defer C.free(unsafe.Pointer(cids))
		for i, id := range cfg.IDs {
			cids[i] = C.longlong(id)
		}
		ids = &cids[0]
	}
	var key *C.char
	if cfg.Key != "" {
		key = C.CString(cfg.Key)
		defer C.free(unsafe.Pointer(key))
		dir := C.CString(cfg.KVDir)
		C.set_kv_dir(dir)
		C.free(unsafe.Pointer(dir))
	}
	var c *C.arc_comm
	err := call("arc_comm_create_config", C.comm_create_config(&c, &devs[0], C.int(len(devs)), C.int(cfg.Link),
		C.size_t(cfg.MaxBytes), C.longlong(cfg.TimeoutMs), ids, key))
	if err != nil {
		return nil, err
	}
	return &Comm{c: c, Devices: cfg.Devices}, nil
}

// AllReduce enqueues rank's part of an all-reduce on stream s.
func (c *Comm) AllReduce(rank int, in, out Ptr, count, dtype, algo, codec, flags int, s Ptr) error {
	return call("arc_allreduce", C.allreduce(c.c, C.int(rank), in, out, C.size_t(count), C.int(dtype), C.int(algo),
		C.int(codec), C.int(flags), s))
}

// Norm is the fused kernels' norm (arc_norm): the residual, the weight and
// y on the rank's device, the row's elements, the mean (0 mul, 1 div) and
// its constant, epsilon, the weight's placement (0 f32, 1 io), the norm
// (abi.NormKinds: 0 rmsnorm, 1 layernorm, 2 layernorm_fast), LayerNorm's
// bias on the device (nil: none) and the init its sum of h starts from (+0
// or -0).
type Norm struct {
	Residual, Weight, Y Ptr
	Row                 int
	Mean                int
	Scale, Eps          float32
	WeightMode          int
	Kind                int
	Bias                Ptr
	Init                float32
}

// AllReduceNorm enqueues rank's part of a fused all-reduce: out gets h =
// residual + sum, n.Y the normalised rows.
func (c *Comm) AllReduceNorm(rank int, in, out Ptr, count, dtype, algo, codec, flags int, n Norm, s Ptr) error {
	return call("arc_allreduce_norm", C.allreduce_norm(c.c, C.int(rank), in, out, C.size_t(count), C.int(dtype), C.int(algo),
		C.int(codec), C.int(flags), n.Residual, n.Weight, n.Y, C.size_t(n.Row), C.int(n.Mean), C.float(n.Scale), C.float(n.Eps),
		C.int(n.WeightMode), C.int(n.Kind), n.Bias, C.float(n.Init), s))
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
