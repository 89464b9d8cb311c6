/* arc_oneshot.cu: instantiates the oneshot kernel per dtype. */
#include "arc_kernels.cuh"

gpuError_t arc_launch_oneshot(int dtype, const KernelArgs &a, int blocks, gpuStream_t s) {
  switch (dtype) {
  case ARC_F16:
    oneshot_kernel<ARC_F16><<<blocks, ARC_THREADS, 0, s>>>(a);
    break;
  case ARC_BF16:
    oneshot_kernel<ARC_BF16><<<blocks, ARC_THREADS, 0, s>>>(a);
    break;
  case ARC_F32:
    oneshot_kernel<ARC_F32><<<blocks, ARC_THREADS, 0, s>>>(a);
    break;
  default:
    return gpuErrorInvalidValue;
  }
  return gpuGetLastError();
}
