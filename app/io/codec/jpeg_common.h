// SPDX-License-Identifier: Apache-2.0
#pragma once

// What the JPEG reader and writer share: an error manager that turns libjpeg's errors into a
// longjmp back to the caller (with the reason kept in the handle, never printed) and the APPn
// segment layouts of EXIF, XMP (with its extended parts), ICC profiles and Photoshop IPTC.

#include "app/io/codec/codec.h"

#include <cstdio>
#include <jpeglib.h>

#include <csetjmp>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::app::codec::jpeg {

/// libjpeg's error manager with the jump target and the reason of the failure. One per handle.
struct ErrorManager {
    jpeg_error_mgr pub{};
    std::jmp_buf jump{};
    char reason[JMSG_LENGTH_MAX + 64] = {};
    bool cancelled = false;
    /// Warnings that end a decode (a truncated file) instead of only being noted.
    bool strictWarnings = false;
};

/// Installs the error manager on a (de)compression handle before jpeg_create_*().
jpeg_error_mgr* installErrorManager(ErrorManager& err);

/// Runs f, a few libjpeg calls without objects that need destroying, under the error manager's
/// jump target: false when libjpeg failed (the reason is then in err).
template <class F>
bool guarded(ErrorManager& err, F&& f)
{
    if (setjmp(err.jump) != 0) {
        return false;
    }
    f();
    return true;
}

/// Throws the failure that err holds (DecodeCancelled when it was a cancel).
[[noreturn]] inline void raise(const ErrorManager& err)
{
    if (err.cancelled) {
        throw DecodeCancelled();
    }
    throw CodecError(err.reason);
}

/// Records reason as the failure and jumps out of libjpeg (used by the progress monitor).
[[noreturn]] void fail(j_common_ptr cinfo, const char* reason, bool cancelled = false);

inline constexpr std::string_view kExifId{"Exif\0\0", 6};
inline constexpr std::string_view kXmpId{"http://ns.adobe.com/xap/1.0/\0", 29};
inline constexpr std::string_view kXmpExtId{"http://ns.adobe.com/xmp/extension/\0", 35};
inline constexpr std::string_view kIccId{"ICC_PROFILE\0", 12};
inline constexpr std::string_view kPhotoshopId{"Photoshop 3.0\0", 14};

/// The largest payload of one marker segment (the 16-bit length counts itself).
inline constexpr std::size_t kMaxSegment = 65533;
inline constexpr std::size_t kMaxExif = kMaxSegment - kExifId.size();
inline constexpr std::size_t kMaxStandardXmp = 65502;
inline constexpr std::size_t kMaxIccPiece = kMaxSegment - kIccId.size() - 2;

/// One saved APPn segment (code 0xE0 + n) with its payload.
struct Segment {
    int code = 0;
    std::string data;
};

/// The metadata parts from the APP1, APP2 and APP13 segments of a file, in file order.
/// Inconsistent ICC sets and incomplete extended XMP are left out with an ioDiagnostic().
ImageMetadata parseSegments(const std::vector<Segment>& segments);

/// The segments that carry metadata into a JPEG, and a line in dropped for each part that does
/// not fit; written receives the parts as placed.
std::vector<Segment> buildSegments(const ImageMetadata& metadata, MetadataWritten& written);

/// The MD5 digest of data as 32 upper-case hex digits (the GUID of extended XMP).
std::string md5Hex(std::string_view data);

/// Joins an extended XMP packet into the main one: the main packet's rdf:Description elements
/// that hold properties (with xmpNote:HasExtendedXMP taken out) go into the extended packet.
std::string joinExtendedXmp(std::string_view mainPacket, std::string_view extended, std::string_view guid);

}  // namespace tessera::app::codec::jpeg
