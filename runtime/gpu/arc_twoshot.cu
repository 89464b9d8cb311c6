/* arc_twoshot.cu: instantiates the twoshot kernel per dtype and codec. */
#include "arc_kernels.cuh"

template <int DT, class C>
struct TwoShot {
  static gpuError_t run(const KernelArgs &a, int blocks, gpuStream_t s) {
    return launch_or_load(twoshot_kernel<DT, C>, a, blocks, s);
  }
};

gpuError_t arc_launch_twoshot(int dtype, int codec, bool cast, const KernelArgs &a, int blocks, gpuStream_t s) {
  return dispatch<TwoShot>(dtype, codec, cast, a, blocks, s);
}
