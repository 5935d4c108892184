// SPDX-License-Identifier: Apache-2.0
/* A stand-in for libnvjpeg with the exported names Tessera looks up: it reports the version the
 * build chose (FAKE_NVJPEG_MAJOR) and fails every other call with NVJPEG_STATUS_NOT_INITIALIZED
 * (1), so that the loader's symbol lookup can be tested where no toolkit ships nvJPEG. Built a
 * second time with FAKE_NVJPEG_NO_DECODE, lacking nvjpegDecode, for the all-or-nothing rule. */
#include <cstddef>

using std::size_t;

#define FAKE_EXPORT extern "C" __attribute__((visibility("default")))

enum { kNotInitialised = 1 };

FAKE_EXPORT int nvjpegGetProperty(int type, int* value)
{
    if (value == nullptr) {
        return 2;
    }
    *value = type == 0 ? FAKE_NVJPEG_MAJOR : type == 1 ? 4 : 7;
    return 0;
}

FAKE_EXPORT int nvjpegCreateSimple(void** handle)
{
    (void)handle;
    return kNotInitialised;
}

FAKE_EXPORT int nvjpegCreateEx(int backend, void* devAllocator, void* pinnedAllocator, unsigned flags, void** handle)
{
    (void)backend;
    (void)devAllocator;
    (void)pinnedAllocator;
    (void)flags;
    (void)handle;
    return kNotInitialised;
}

FAKE_EXPORT int nvjpegDestroy(void* handle)
{
    (void)handle;
    return kNotInitialised;
}

FAKE_EXPORT int nvjpegJpegStateCreate(void* handle, void** state)
{
    (void)handle;
    (void)state;
    return kNotInitialised;
}

FAKE_EXPORT int nvjpegJpegStateDestroy(void* state)
{
    (void)state;
    return kNotInitialised;
}

FAKE_EXPORT int nvjpegGetImageInfo(void* handle, const unsigned char* data, size_t length, int* components,
                                   int* subsampling, int* widths, int* heights)
{
    (void)handle;
    (void)data;
    (void)length;
    (void)components;
    (void)subsampling;
    (void)widths;
    (void)heights;
    return kNotInitialised;
}

#ifndef FAKE_NVJPEG_NO_DECODE
FAKE_EXPORT int nvjpegDecode(void* handle, void* state, const unsigned char* data, size_t length, int format,
                             void* destination, void* stream)
{
    (void)handle;
    (void)state;
    (void)data;
    (void)length;
    (void)format;
    (void)destination;
    (void)stream;
    return kNotInitialised;
}
#endif

FAKE_EXPORT int nvjpegDecodeBatchedInitialize(void* handle, void* state, int batchSize, int maxCpuThreads, int format)
{
    (void)handle;
    (void)state;
    (void)batchSize;
    (void)maxCpuThreads;
    (void)format;
    return kNotInitialised;
}

FAKE_EXPORT int nvjpegDecodeBatched(void* handle, void* state, const unsigned char* const* data, const size_t* lengths,
                                    void* destinations, void* stream)
{
    (void)handle;
    (void)state;
    (void)data;
    (void)lengths;
    (void)destinations;
    (void)stream;
    return kNotInitialised;
}
