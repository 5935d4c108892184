// SPDX-License-Identifier: Apache-2.0
/* A header-only C++17 layer over <tessera/tessera.h>: failures become exceptions carrying the
 * library's message, and a plan frees itself. Everything here is inline and calls only the C
 * interface, so it asks nothing more of libtessera.so.0 than a C program does. */
#ifndef TESSERA_HPP
#define TESSERA_HPP

#include <tessera/tessera.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>

namespace tessera::api {

/// A failed call: status() is the C status, what() the library's message.
class Error : public std::runtime_error {
public:
    Error(tessera_status status, const std::string& message) : std::runtime_error(message), status_(status) {}
    tessera_status status() const noexcept { return status_; }

private:
    tessera_status status_;
};

/// Throws Error for any status but TESSERA_OK.
inline void check(tessera_status status)
{
    if (status != TESSERA_OK)
        throw Error(status, tessera_last_error());
}

inline std::string version()
{
    return tessera_version();
}
inline std::string filtersJson()
{
    return tessera_filters_json();
}
inline std::string devicesJson()
{
    return tessera_devices_json();
}

/// A host image over memory the caller owns: rows of width * channels values of `depth`.
inline tessera_image hostImage(void* data, int64_t width, int64_t height, int32_t channels, tessera_depth depth,
                               int64_t rowStride = 0)
{
    const int64_t size = depth == TESSERA_U8 ? 1 : depth == TESSERA_U16 ? 2 : 4;
    return tessera_image{
        data, width, height, rowStride ? rowStride : width * channels * size, channels, static_cast<int32_t>(depth)};
}

/// A chain planned for one kind of image (tessera_plan_create); movable, not copyable.
class Plan {
public:
    Plan(const tessera_image& like, const std::string& chainJson, const tessera_options* options = nullptr,
         int32_t memory = TESSERA_HOST_MEMORY)
    {
        check(tessera_plan_create(&like, memory, chainJson.c_str(), options, &plan_, &outputDepth_, &scratchBytes_));
    }
    Plan(Plan&& other) noexcept
        : plan_(std::exchange(other.plan_, nullptr)), outputDepth_(other.outputDepth_),
          scratchBytes_(other.scratchBytes_)
    {
    }
    Plan& operator=(Plan&& other) noexcept
    {
        std::swap(plan_, other.plan_);
        std::swap(outputDepth_, other.outputDepth_);
        std::swap(scratchBytes_, other.scratchBytes_);
        return *this;
    }
    Plan(const Plan&) = delete;
    Plan& operator=(const Plan&) = delete;
    ~Plan() { tessera_plan_free(plan_); }

    /// The depth the chain writes (a tessera_depth).
    tessera_depth outputDepth() const { return static_cast<tessera_depth>(outputDepth_); }
    /// Runs on host images; blocks until dst holds the result.
    void runHost(const void* src, int64_t srcRowStride, void* dst, int64_t dstRowStride) const
    {
        check(tessera_plan_run_host(plan_, src, srcRowStride, dst, dstRowStride));
    }
    /// Enqueues a run on device images on `stream` (a cudaStream_t).
    void runDevice(const void* src, int64_t srcRowStride, void* dst, int64_t dstRowStride, void* stream = nullptr,
                   void* scratch = nullptr, uint64_t scratchBytes = 0) const
    {
        check(tessera_plan_run_device(plan_, src, srcRowStride, dst, dstRowStride, stream, scratch, scratchBytes));
    }
    uint64_t scratchBytes() const { return scratchBytes_; }
    const tessera_plan* get() const { return plan_; }

private:
    tessera_plan* plan_ = nullptr;
    int32_t outputDepth_ = 0;
    uint64_t scratchBytes_ = 0;
};

/// The calling thread's last run as JSON (tessera_last_run).
inline std::string lastRunJson()
{
    const char* text = nullptr;
    check(tessera_last_run(TESSERA_REPORT_JSON, &text));
    return text;
}

/// Writes a host image (tessera_write_image); returns the encoding used, in words.
inline std::string writeImage(const std::string& path, const tessera_image& image, bool rgb = true,
                              const char* quality = nullptr, const char* compression = nullptr)
{
    const char* encoding = nullptr;
    check(tessera_write_image(path.c_str(), &image, rgb ? 1 : 0, quality, compression, &encoding));
    return encoding ? encoding : "";
}

}  // namespace tessera::api

#endif
