#pragma once

#include <string>

namespace tessera::app {

/// Where the Engine runs previews, as chosen in Preferences.
struct DevicePreference {
    enum class Kind { Auto, Cpu, Gpu };
    Kind kind = Kind::Auto;  ///< Auto: the first GPU when there is one, else the CPU
    int gpu = 0;             ///< CUDA device id, for Kind::Gpu

    bool operator==(const DevicePreference&) const = default;
};

/// "auto", "cpu" or "gpu:N", as kept in the settings.
std::string toString(const DevicePreference& preference);
/// Reads toString()'s form; anything else (an old or hand-edited setting) is Auto.
DevicePreference parseDevicePreference(const std::string& text);

}  // namespace tessera::app
