/* arc_hier.cu: instantiates the hierarchical (2 x W/2) kernel per dtype and codec. */
#include "arc_kernels.cuh"

template <int DT, class C>
struct Hier {
  static gpuError_t run(const KernelArgs &a, int blocks, gpuStream_t s) {
    return launch_or_load(hier_kernel<DT, C>, a, blocks, s);
  }
};

gpuError_t arc_launch_hier(int dtype, int codec, bool cast, const KernelArgs &a, int blocks, gpuStream_t s) {
  return dispatch<Hier>(dtype, codec, cast, a, blocks, s);
}
