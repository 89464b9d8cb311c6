/* arc_gpu_test.h: helpers libarc_gpu.so exports for its test harness
 * (gpu/gputest) and benchmark, so they need no CUDA/HIP headers of
 * their own: device memory, streams, graph capture, a device-side compare.
 * Every function returns an arc_gpu.h code; arc_last_error says why. */
#ifndef ARC_GPU_TEST_H
#define ARC_GPU_TEST_H

#include <stddef.h>

#include "arc_gpu.h"

#ifdef __cplusplus
extern "C" {
#endif

int arc_test_device_count(int *n);
int arc_test_malloc(int dev, size_t bytes, void **p);
int arc_test_free(int dev, void *p);
/* Synchronous copy in any direction (host or device pointers). */
int arc_test_copy(int dev, void *dst, const void *src, size_t bytes);
int arc_test_memset(int dev, void *p, int value, size_t bytes);
int arc_test_stream_create(int dev, void **stream);
int arc_test_stream_destroy(int dev, void *stream);
int arc_test_stream_sync(int dev, void *stream);
int arc_test_copy_async(int dev, void *dst, const void *src, size_t bytes, void *stream);
/* Capture what the calling thread enqueues on stream into a graph; end
 * returns the instantiated graph. */
int arc_test_capture_begin(int dev, void *stream);
int arc_test_capture_end(int dev, void *stream, void **graph_exec);
int arc_test_graph_launch(int dev, void *graph_exec, void *stream);
int arc_test_graph_destroy(int dev, void *graph_exec);
/* Adds to *counter (device memory) the number of elements where a and b
 * differ; any NaN equals any NaN. */
int arc_test_count_diff(int dev, const void *a, const void *b, size_t count, arc_dtype dtype,
                        unsigned long long *counter, void *stream);
/* Fills count elements with pseudo-random finite values of magnitude < 4
 * (for benchmarks: never time zeros). */
int arc_test_fill(int dev, void *p, size_t count, arc_dtype dtype, unsigned long long seed, void *stream);
/* *enabled = 1 when dev can currently access peer's memory directly. */
int arc_test_peer_enabled(int dev, int peer, int *enabled);

#ifdef __cplusplus
}
#endif
#endif
