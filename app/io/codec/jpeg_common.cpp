// SPDX-License-Identifier: Apache-2.0
// The JPEG error manager and the MD5 digest that names extended XMP.
#include "app/io/codec/jpeg_common.h"

#include <jerror.h>

#include <array>
#include <cctype>
#include <cstring>

namespace tessera::app::codec::jpeg {
namespace {

ErrorManager& managerOf(j_common_ptr cinfo)
{
    return *reinterpret_cast<ErrorManager*>(cinfo->err);
}

void setReason(ErrorManager& err, const char* text)
{
    std::snprintf(err.reason, sizeof err.reason, "%s", text);
}

[[noreturn]] void onError(j_common_ptr cinfo)
{
    ErrorManager& err = managerOf(cinfo);
    char message[JMSG_LENGTH_MAX] = {};
    (*cinfo->err->format_message)(cinfo, message);
    // libjpeg words its messages as sentences ("Bogus marker length"); the reason reads better
    // as "invalid JPEG data: bogus marker length".
    if (message[0] != '\0' && std::isupper(static_cast<unsigned char>(message[0])) != 0 &&
        std::isupper(static_cast<unsigned char>(message[1])) == 0) {
        message[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(message[0])));
    }
    if (std::strncmp(message, "corrupt JPEG data", 17) == 0) {
        setReason(err, message);
    } else {
        std::snprintf(err.reason, sizeof err.reason, "invalid JPEG data: %s", message);
    }
    std::longjmp(err.jump, 1);
}

void onMessage(j_common_ptr cinfo, int level)
{
    if (level >= 0) {
        return;  // trace output
    }
    ErrorManager& err = managerOf(cinfo);
    const int code = cinfo->err->msg_code;
    if (err.strictWarnings && code == JWRN_JPEG_EOF) {
        fail(cinfo, "truncated JPEG data: the file ends before its image data does");
    }
    if (err.strictWarnings && code == JWRN_HIT_MARKER) {
        fail(cinfo, "corrupt JPEG data: premature end of data segment");
    }
    char message[JMSG_LENGTH_MAX] = {};
    (*cinfo->err->format_message)(cinfo, message);
    ioDiagnostic("libjpeg", message);
    ++cinfo->err->num_warnings;
}

}  // namespace

jpeg_error_mgr* installErrorManager(ErrorManager& err)
{
    jpeg_error_mgr* pub = jpeg_std_error(&err.pub);
    pub->error_exit = onError;
    pub->emit_message = onMessage;
    pub->output_message = [](j_common_ptr) {};
    return pub;
}

void fail(j_common_ptr cinfo, const char* reason, bool cancelled)
{
    ErrorManager& err = managerOf(cinfo);
    setReason(err, reason);
    err.cancelled = cancelled;
    std::longjmp(err.jump, 1);
}

std::string md5Hex(std::string_view data)
{
    static constexpr std::array<std::uint32_t, 64> k = {
        0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
        0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
        0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
        0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
        0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
        0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
        0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
        0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391};
    static constexpr std::array<int, 16> shifts = {7, 12, 17, 22, 5, 9, 14, 20, 4, 11, 16, 23, 6, 10, 15, 21};
    std::uint32_t h[4] = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476};
    std::string msg(data);
    const std::uint64_t bits = std::uint64_t(data.size()) * 8;
    msg += '\x80';
    while (msg.size() % 64 != 56) {
        msg += '\0';
    }
    for (int i = 0; i < 8; ++i) {
        msg += static_cast<char>((bits >> (8 * i)) & 0xff);
    }
    for (std::size_t block = 0; block < msg.size(); block += 64) {
        std::uint32_t w[16];
        for (int i = 0; i < 16; ++i) {
            const auto* p = reinterpret_cast<const unsigned char*>(msg.data() + block + 4 * i);
            w[i] =
                std::uint32_t(p[0]) | std::uint32_t(p[1]) << 8 | std::uint32_t(p[2]) << 16 | std::uint32_t(p[3]) << 24;
        }
        std::uint32_t a = h[0], b = h[1], c = h[2], d = h[3];
        for (int i = 0; i < 64; ++i) {
            std::uint32_t f = 0;
            int g = 0;
            if (i < 16) {
                f = (b & c) | (~b & d);
                g = i;
            } else if (i < 32) {
                f = (d & b) | (~d & c);
                g = (5 * i + 1) % 16;
            } else if (i < 48) {
                f = b ^ c ^ d;
                g = (3 * i + 5) % 16;
            } else {
                f = c ^ (b | ~d);
                g = (7 * i) % 16;
            }
            const std::uint32_t sum = a + f + k[i] + w[g];
            const int s = shifts[(i / 16) * 4 + i % 4];
            a = d;
            d = c;
            c = b;
            b = b + ((sum << s) | (sum >> (32 - s)));
        }
        h[0] += a;
        h[1] += b;
        h[2] += c;
        h[3] += d;
    }
    static constexpr char hex[] = "0123456789ABCDEF";
    std::string out;
    for (const std::uint32_t word : h) {
        for (int i = 0; i < 4; ++i) {
            const unsigned byte = (word >> (8 * i)) & 0xff;
            out += hex[byte >> 4];
            out += hex[byte & 15];
        }
    }
    return out;
}

}  // namespace tessera::app::codec::jpeg
