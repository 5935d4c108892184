#pragma once

#include <string>
#include <vector>

namespace tessera::app {

/// Where the Engine runs previews, as chosen in Preferences.
struct DevicePreference {
    enum class Kind { Auto, Cpu, Gpu };
    Kind kind = Kind::Auto;  ///< Auto: every enabled GPU together when there is one, else the CPU
    int gpu = 0;             ///< CUDA device id, for Kind::Gpu

    bool operator==(const DevicePreference&) const = default;
};

/// "auto", "cpu" or "gpu:N", as kept in the settings.
std::string toString(const DevicePreference& preference);
/// Reads toString()'s form; anything else (an old or hand-edited setting) is Auto.
DevicePreference parseDevicePreference(const std::string& text);

/// Which devices the device panel lets previews use: GPU ids in the panel's order, and the CPU.
struct AllowedDevices {
    std::vector<int> present;  ///< every GPU found, in enumeration order
    std::vector<int> gpus;     ///< the GPUs left enabled
    bool cpu = true;
};

/// preference as far as allowed permits it: kept when it names an allowed device (or a GPU that
/// is not present, so the Engine still says so); otherwise the first allowed GPU, else the CPU.
/// Auto (every enabled GPU together) stays Auto while any GPU is enabled.
DevicePreference restrictPreference(const DevicePreference& preference, const AllowedDevices& allowed);

}  // namespace tessera::app
