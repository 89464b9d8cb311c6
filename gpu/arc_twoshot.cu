/* arc_twoshot.cu: instantiates the twoshot kernel per dtype and codec, once
 * for world 2 (more tiles in flight) and once for any world. */
#include "arc_kernels.cuh"

template <int DT, class C>
struct TwoShot {
  static gpuError_t run(const KernelArgs &a, int blocks, gpuStream_t s) {
    if (blocks == 0) { /* load both */
      gpuError_t err = launch_or_load(twoshot_kernel<DT, C, 2>, a, 0, s);
      return err != gpuSuccess ? err : launch_or_load(twoshot_kernel<DT, C, 0>, a, 0, s);
    }
    if (a.world == 2) return launch_or_load(twoshot_kernel<DT, C, 2>, a, blocks, s);
    return launch_or_load(twoshot_kernel<DT, C, 0>, a, blocks, s);
  }
};

gpuError_t arc_launch_twoshot(int dtype, int codec, bool cast, const KernelArgs &a, int blocks, gpuStream_t s) {
  return dispatch<TwoShot>(dtype, codec, cast, a, blocks, s);
}
