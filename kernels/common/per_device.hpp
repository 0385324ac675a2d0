// Per-device state that is set once and then only read: a function attribute set on the device
// (cudaFuncSetAttribute applies to the current device only), a grid size from the device's
// properties. The one kind of static state the library contract allows (kernels/<algo>/<algo>.hpp):
// a second device gets its own value, and concurrent callers on one device see it set exactly once.
//
//   static PerDevice<int> sms;
//   const int count = sms.get([](int device) { ...; return value; });
#pragma once

#include "common/cuda_check.hpp"

#include <mutex>
#include <stdexcept>
#include <string>

namespace gps {

template <typename T> class PerDevice {
public:
  static constexpr int kMaxDevices = 64;

  // The value for the current device (cudaGetDevice), made by init(device) on first use. If init
  // throws, nothing is stored and the next call tries again.
  template <typename Init> const T& get(Init&& init) {
    int device = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    if (device < 0 || device >= kMaxDevices)
      throw std::invalid_argument("per-device state: device " + std::to_string(device) +
                                  " beyond the " + std::to_string(kMaxDevices) + " supported");
    Slot& slot = slots_[device];
    std::call_once(slot.once, [&] { slot.value = init(device); });
    return slot.value;
  }

private:
  struct Slot {
    std::once_flag once;
    T value{};
  };
  Slot slots_[kMaxDevices];
};

} // namespace gps
