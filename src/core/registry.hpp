// Device discovery and selection across every backend built in.
#pragma once
#include <memory>
#include <string_view>
#include <vector>

#include "core/device.hpp"

namespace tessera {

/// All devices of all built-in backends, in id order: cpu, opencl:P:D..., cuda:N...
/// A backend whose driver is absent contributes no devices (not an error).
std::vector<DeviceInfo> list_devices();

/// Opens a device by id ("cpu", "opencl:P:D", "cuda:N") or "best" (or empty):
/// the first CUDA device, else the first OpenCL GPU, else the CPU.
/// Throws UsageError for malformed ids, backends not built in, absent devices.
std::shared_ptr<Device> open_device(std::string_view id);

/// The id "best" resolves to on this machine.
std::string best_device_id();

}  // namespace tessera
