// A GPU delay of `seconds` enqueued on `stream` (bench/spin.cu).
#pragma once

#include <cuda_runtime.h>

namespace gps::bench {
void spin_on_gpu(double seconds, cudaStream_t stream);
}
