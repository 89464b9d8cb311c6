/* arc_oneshot.cu: instantiates the oneshot kernel per dtype. */
#include "arc_kernels.cuh"

gpuError_t arc_launch_oneshot(int dtype, const KernelArgs &a, int blocks, gpuStream_t s) {
  switch (dtype) {
  case ARC_F16:
    return launch_or_load(oneshot_kernel<ARC_F16>, a, blocks, s);
  case ARC_BF16:
    return launch_or_load(oneshot_kernel<ARC_BF16>, a, blocks, s);
  case ARC_F32:
    return launch_or_load(oneshot_kernel<ARC_F32>, a, blocks, s);
  }
  return gpuErrorInvalidValue;
}
