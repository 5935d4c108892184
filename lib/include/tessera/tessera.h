// SPDX-License-Identifier: Apache-2.0
/* Tessera's C interface: the filters, the devices and a filter chain run on images in host or
 * device memory. Plain C, no Python and no C++ types, so any language with a foreign function
 * interface can load libtessera.so.0 (the Python package does, with ctypes). Link with
 * -ltessera (pkg-config tessera) or find_package(Tessera) and Tessera::tessera in CMake.
 *
 * Conventions
 *  - Every function that can fail returns a tessera_status; TESSERA_OK (0) is success. On
 *    failure tessera_last_error() returns the message for the calling thread, valid until the
 *    thread's next call into the library. Nothing is ever thrown across this interface.
 *  - Strings returned as const char* belong to the library: the filter list lives as long as
 *    the process, the other texts until the calling thread's next call.
 *  - A chain is given as preset JSON, the format of `tessera-cli apply --preset`: a chain
 *    {"filters": [{"id": ..., "params": {...}}, {"id": "custom", "size": [w, h], ...}], ...}
 *    or a single kernel object {"size": [w, h], "weights": [...], ...}.
 *  - Options apply as `tessera-cli apply` applies them: border and border value to every step,
 *    scale, offset and output depth to the last step; unset ones leave the preset's values.
 *  - Every function is safe to call from several threads at once. Calls block only for the
 *    host path; the device path enqueues and returns.
 */
#ifndef TESSERA_C_H
#define TESSERA_C_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TESSERA_C_API_VERSION 5

/* The library exports these functions and nothing else. */
#if defined(__GNUC__)
#define TESSERA_C_EXPORT __attribute__((visibility("default")))
#else
#define TESSERA_C_EXPORT
#endif

typedef enum tessera_status {
    TESSERA_OK = 0,
    TESSERA_INVALID_ARGUMENT = 1, /* malformed input: image, chain, option or preset */
    TESSERA_NOT_SUPPORTED = 2,    /* well formed, but this machine cannot do it (no GPU, no cuFFT) */
    TESSERA_OUT_OF_MEMORY = 3,    /* host or device memory ran out */
    TESSERA_RUNTIME_ERROR = 4,    /* anything else: a CUDA failure, an internal error */
    TESSERA_INTERRUPTED = 5       /* a host run stopped by tessera_interrupt() */
} tessera_status;

typedef enum tessera_depth {
    TESSERA_U8 = 0,  /* unsigned 8-bit channels */
    TESSERA_U16 = 1, /* unsigned 16-bit channels */
    TESSERA_F32 = 2  /* 32-bit float channels */
} tessera_depth;

/* An image the caller owns, in host or device memory: `height` rows of `width` pixels of
 * `channels` (1, 3 or 4) interleaved channels of `depth`; row y starts at
 * data + y * row_stride bytes (row_stride >= width * channels * bytes per channel). */
typedef struct tessera_image {
    void* data;
    int64_t width;
    int64_t height;
    int64_t row_stride;
    int32_t channels;
    int32_t depth; /* a tessera_depth */
} tessera_image;

/* How to run. Zero-initialise, then set what you need: a NULL string or a set_* flag of 0
 * leaves the default (the chain's own value, "auto" for device and method). */
typedef struct tessera_options {
    const char* border; /* "reflect101", "reflect", "replicate", "constant", "wrap" */
    const char* depth;  /* output depth of the last step: "same", "u8", "u16", "f32" */
    const char* device; /* host images: "auto", "cpu", "gpu", "gpu:N[,M...]"; device images:
                           "auto", "gpu" or "gpu:N" naming the images' own GPU */
    const char* method; /* GPU method: "auto", "direct", "separable", "fft" */
    int32_t set_border_value;
    int32_t set_scale;
    int32_t set_offset;
    int32_t reserved;
    double border_value; /* for the constant border */
    double scale;        /* result = scale * sum + offset */
    double offset;
    uint64_t gpu_memory_limit; /* host images on GPUs: bytes each GPU may use; 0: from its free memory */
} tessera_options;

/* The library's version, e.g. "0.1.0". Never fails. */
TESSERA_C_EXPORT const char* tessera_version(void);
/* The source commit the library was built from: 12 hex digits, followed by ".dirty" when the
 * tree had uncommitted changes; "" when unknown (built outside a git checkout). Never fails. */
TESSERA_C_EXPORT const char* tessera_commit(void);
/* TESSERA_C_API_VERSION as the library was built. Never fails. */
TESSERA_C_EXPORT int tessera_api_version(void);
/* The last failure's message on the calling thread ("" when none). Never fails. */
TESSERA_C_EXPORT const char* tessera_last_error(void);

/* The built-in filters and their parameters as JSON (the shape of `tessera-cli filters --json`).
 * Never fails. */
TESSERA_C_EXPORT const char* tessera_filters_json(void);
/* The CUDA devices, driver and runtime versions and cuFFT's state as JSON (the shape of
 * `tessera-cli devices --json`). Never fails; no GPU is a normal answer. */
TESSERA_C_EXPORT const char* tessera_devices_json(void);

/* Parses a chain with the options applied and sets *json_out to a JSON array describing its
 * steps (id, kernel size, anchor, border, scale, offset, depth, separable). */
TESSERA_C_EXPORT tessera_status tessera_describe_chain(const char* chain_json, const tessera_options* options,
                                                       const char** json_out);

/* A chain planned once for images of one kind: host or device memory, format, size and (for
 * device images) GPU, with the options applied and, for host images, the devices resolved. It
 * is the one thing a caller keeps between calls: a run takes the plan and two pointers, no
 * chain text and no option structure. Free it with tessera_plan_free once no call uses it
 * (work a device run already queued does not need it). A plan may run on several threads at
 * once. */
typedef struct tessera_plan tessera_plan;

#define TESSERA_HOST_MEMORY 0
#define TESSERA_DEVICE_MEMORY 1

/* Plans the chain for images like src in `memory` (TESSERA_HOST_MEMORY or
 * TESSERA_DEVICE_MEMORY; for device memory src->data names the GPU, which must agree with the
 * device option) and returns the plan in *plan (never NULL on success), the depth the chain
 * writes and the bytes of scratch a device run needs (0 for host plans); either out pointer
 * may be NULL. Parses and checks the chain and the options: the only call that does. */
TESSERA_C_EXPORT tessera_status tessera_plan_create(const tessera_image* src, int32_t memory, const char* chain_json,
                                                    const tessera_options* options, tessera_plan** plan,
                                                    int32_t* output_depth, uint64_t* scratch_bytes);

/* Runs a host plan: src and dst are the first pixels of host images of the planned size and
 * channels (dst in the planned output depth, not overlapping src) with the given row strides in
 * bytes. Blocks until dst holds the result. The run's report becomes the calling thread's last
 * (tessera_last_run). */
TESSERA_C_EXPORT tessera_status tessera_plan_run_host(const tessera_plan* plan, const void* src, int64_t src_row_stride,
                                                      void* dst, int64_t dst_row_stride);

/* Runs a device plan: src and dst are the first pixels of device images of the planned size and
 * channels on the plan's GPU (dst in the planned output depth, not overlapping src), enqueued on
 * `stream` (a cudaStream_t of that GPU; NULL: the legacy default stream); returns without
 * waiting unless step timing is on (tessera_set_step_timing). Work queued on the stream before
 * the call is complete before the input is read. `scratch` holds at least the bytes
 * tessera_plan_create gave, in device memory aligned to 256 bytes that nothing else uses
 * before the stream passes this work; NULL: taken from CUDA's stream-ordered allocator on
 * `stream`. Pixels never go through the host. Addresses and row strides must be multiples of
 * the pixel size for 4 channels and of the channel size otherwise. */
TESSERA_C_EXPORT tessera_status tessera_plan_run_device(const tessera_plan* plan, const void* src,
                                                        int64_t src_row_stride, void* dst, int64_t dst_row_stride,
                                                        void* stream, void* scratch, uint64_t scratch_bytes);

/* Asks every host run in progress, on any thread, to stop: each returns TESSERA_INTERRUPTED
 * (its output then holds a partial result) once the tiles already started are done. Runs that
 * start later are not affected. Safe from any thread, including a signal handler's thread in a
 * language runtime (it only sets flags). Never fails. */
TESSERA_C_EXPORT tessera_status tessera_interrupt(void);

/* Releases a plan; NULL is allowed. */
TESSERA_C_EXPORT void tessera_plan_free(tessera_plan* plan);

/* The CUDA ordinal of the GPU that holds `pointer`; TESSERA_INVALID_ARGUMENT for host memory
 * or memory CUDA does not know. */
TESSERA_C_EXPORT tessera_status tessera_pointer_device(const void* pointer, int32_t* device);

/* Makes `stream` wait, on the device, for the work queued on `producer` so far (both
 * cudaStream_t handles of GPU `device`; 0x1 and 0x2 name the legacy and per-thread default
 * streams). The host does not block. For consumers of __cuda_array_interface__'s "stream". */
TESSERA_C_EXPORT tessera_status tessera_stream_wait(int32_t device, void* stream, void* producer);

#define TESSERA_REPORT_JSON 0
#define TESSERA_REPORT_CHROME_TRACE 1

/* The calling thread's last successful run (host or device) as text in *text_out:
 * TESSERA_REPORT_JSON, one JSON object (where, note, placement, devices, methods,
 * step_methods, plan, wall_ms, kernel_ms, host_ms, fallback, fallback_policy, events,
 * retries, tiles, slots, records), or "null" before the first run; TESSERA_REPORT_CHROME_TRACE,
 * its timing records as the Chrome trace `tessera-cli apply --trace` writes
 * (TESSERA_INVALID_ARGUMENT before the first run). */
TESSERA_C_EXPORT tessera_status tessera_last_run(int32_t form, const char** text_out);

/* Whether device runs time each step with CUDA events (and then wait for their own work, so
 * the times can be read) from now on, in every thread; host runs are always timed. Returns the
 * previous setting. Never fails. */
TESSERA_C_EXPORT int32_t tessera_set_step_timing(int32_t on);

/* Writes a host image to `path` in the format its extension names (.png, .jpg, .tif, .webp,
 * .bmp, .exr, ...), to a temporary name that is synced and renamed over it. `rgb`: 1 when the
 * channels are R, G, B(, A), 0 when B, G, R(, A) as OpenCV keeps them. `quality` and
 * `compression` (NULL: the defaults, JPEG quality 92, PNG level 6, TIFF LZW, WebP lossless)
 * take the text of `tessera-cli apply --quality` ("1".."100", "lossless") and --compression
 * ("0".."9", "none", "lzw", "deflate"). Sets *encoding_out (may be NULL) to the encoding used
 * in words ("JPEG quality 85"; "" for formats without a choice). A format that cannot hold the
 * image's depth or channels is TESSERA_INVALID_ARGUMENT, naming the file. */
TESSERA_C_EXPORT tessera_status tessera_write_image(const char* path, const tessera_image* image, int32_t rgb,
                                                    const char* quality, const char* compression,
                                                    const char** encoding_out);

#ifdef __cplusplus
}
#endif

#endif
