// SPDX-License-Identifier: Apache-2.0
// The metadata segments of a JPEG: EXIF and XMP in APP1 (a large XMP split into a standard
// packet and extended parts, after Adobe's XMP specification part 3), the ICC profile in APP2
// pieces and IPTC-IIM as resource 0x0404 of a Photoshop APP13 block.
#include "app/io/codec/jpeg_common.h"

#include <algorithm>
#include <cctype>
#include <map>

namespace tessera::app::codec::jpeg {
namespace {

bool startsWith(std::string_view text, std::string_view prefix)
{
    return text.substr(0, prefix.size()) == prefix;
}

std::uint32_t readBe32(std::string_view bytes, std::size_t at)
{
    const auto b = [&](std::size_t i) { return std::uint32_t(static_cast<unsigned char>(bytes[at + i])); };
    return b(0) << 24 | b(1) << 16 | b(2) << 8 | b(3);
}

void appendBe32(std::string& out, std::uint32_t value)
{
    for (int shift = 24; shift >= 0; shift -= 8) {
        out += static_cast<char>((value >> shift) & 0xff);
    }
}

/// The GUID that xmpNote:HasExtendedXMP of the packet names (attribute or element form).
std::string extendedGuid(std::string_view packet)
{
    const std::size_t at = packet.find("HasExtendedXMP");
    if (at == std::string_view::npos) {
        return {};
    }
    std::size_t pos = packet.find_first_of("\">'", at);
    if (pos == std::string_view::npos) {
        return {};
    }
    ++pos;
    std::string guid;
    while (pos < packet.size() && std::isxdigit(static_cast<unsigned char>(packet[pos])) != 0 && guid.size() < 32) {
        guid += packet[pos++];
    }
    return guid.size() == 32 ? guid : std::string{};
}

/// Reassembles the extended XMP parts whose GUID is guid; empty when they do not cover it.
std::string extendedXmp(const std::vector<Segment>& segments, const std::string& guid)
{
    std::map<std::uint32_t, std::string_view> pieces;
    std::uint32_t total = 0;
    constexpr std::size_t header = kXmpExtId.size() + 32 + 8;
    for (const Segment& s : segments) {
        if (s.code != 0xE1 || !startsWith(s.data, kXmpExtId) || s.data.size() < header ||
            s.data.compare(kXmpExtId.size(), 32, guid) != 0) {
            continue;
        }
        const std::string_view d(s.data);
        total = readBe32(d, kXmpExtId.size() + 32);
        pieces.emplace(readBe32(d, kXmpExtId.size() + 36), d.substr(header));
    }
    if (pieces.empty() || total > kMaxMetadataPartBytes) {
        return {};
    }
    std::string joined;
    for (const auto& [offset, data] : pieces) {
        if (offset != joined.size() || joined.size() + data.size() > total) {
            return {};
        }
        joined += data;
    }
    return joined.size() == total ? joined : std::string{};
}

std::string joinIcc(const std::vector<Segment>& segments)
{
    std::map<int, std::string_view> pieces;
    int count = -1;
    bool consistent = true;
    for (const Segment& s : segments) {
        if (s.code != 0xE2 || !startsWith(s.data, kIccId) || s.data.size() < kIccId.size() + 2) {
            continue;
        }
        const int seq = static_cast<unsigned char>(s.data[kIccId.size()]);
        const int n = static_cast<unsigned char>(s.data[kIccId.size() + 1]);
        if ((count >= 0 && n != count) || seq < 1 || seq > n || pieces.count(seq) != 0) {
            consistent = false;
        }
        count = n;
        pieces.emplace(seq, std::string_view(s.data).substr(kIccId.size() + 2));
    }
    if (count < 0) {
        return {};
    }
    if (!consistent || static_cast<int>(pieces.size()) != count) {
        ioDiagnostic("jpeg", "ICC profile pieces are inconsistent or incomplete; profile left out");
        return {};
    }
    std::string icc;
    for (const auto& piece : pieces) {
        icc += piece.second;
        if (icc.size() > kMaxMetadataPartBytes) {
            ioDiagnostic("jpeg", "ICC profile larger than the metadata limit; left out");
            return {};
        }
    }
    return icc;
}

/// Resource 0x0404 (IPTC-IIM) of the 8BIM resources of a Photoshop block.
std::string iptcOf(std::string_view block)
{
    std::size_t pos = 0;
    while (pos + 12 <= block.size() && block.substr(pos, 4) == "8BIM") {
        const unsigned id =
            static_cast<unsigned char>(block[pos + 4]) << 8 | static_cast<unsigned char>(block[pos + 5]);
        std::size_t namePos = pos + 6;
        const std::size_t nameLength = static_cast<unsigned char>(block[namePos]);
        std::size_t sizePos = namePos + ((nameLength + 2) & ~std::size_t{1});
        if (sizePos + 4 > block.size()) {
            break;
        }
        const std::size_t size = readBe32(block, sizePos);
        const std::size_t dataPos = sizePos + 4;
        if (size > block.size() - dataPos) {
            break;
        }
        if (id == 0x0404) {
            return std::string(block.substr(dataPos, size));
        }
        pos = dataPos + size + (size & 1);
    }
    return {};
}

bool hasProperties(std::string_view description)
{
    // description: "<rdf:Description ...>...</rdf:Description>" or "<rdf:Description .../>"
    const std::size_t tagEnd = description.find('>');
    if (tagEnd == std::string_view::npos) {
        return false;
    }
    std::string_view tag = description.substr(0, tagEnd);
    std::size_t pos = tag.find(' ');
    while (pos != std::string_view::npos && pos < tag.size()) {
        pos = tag.find_first_not_of(" \t\r\n/", pos);
        if (pos == std::string_view::npos) {
            break;
        }
        const std::size_t eq = tag.find('=', pos);
        if (eq == std::string_view::npos) {
            break;
        }
        const std::string_view name = tag.substr(pos, eq - pos);
        if (!startsWith(name, "xmlns:") && name != "rdf:about") {
            return true;
        }
        const std::size_t quoteOpen = tag.find_first_of("\"'", eq);
        if (quoteOpen == std::string_view::npos) {
            break;
        }
        const std::size_t quoteClose = tag.find(tag[quoteOpen], quoteOpen + 1);
        pos = quoteClose == std::string_view::npos ? quoteClose : quoteClose + 1;
    }
    if (tag.ends_with('/')) {
        return false;
    }
    const std::string_view body = description.substr(tagEnd + 1);
    return body.find_first_not_of(" \t\r\n") != body.find("</rdf:Description>");
}

}  // namespace

std::string joinExtendedXmp(std::string_view mainPacket, std::string_view extended, std::string_view guid)
{
    const std::size_t insertAt = extended.rfind("</rdf:RDF>");
    if (insertAt == std::string_view::npos) {
        return std::string(mainPacket);
    }
    std::string main(mainPacket);
    // Take the pointer to the extended part out of the main packet.
    const std::string attribute = "xmpNote:HasExtendedXMP=\"" + std::string(guid) + "\"";
    if (const std::size_t at = main.find(attribute); at != std::string::npos) {
        main.erase(at, attribute.size());
    }
    const std::string element = "<xmpNote:HasExtendedXMP>" + std::string(guid) + "</xmpNote:HasExtendedXMP>";
    if (const std::size_t at = main.find(element); at != std::string::npos) {
        main.erase(at, element.size());
    }
    std::string kept;
    std::size_t pos = 0;
    while ((pos = main.find("<rdf:Description", pos)) != std::string::npos) {
        const std::size_t tagEnd = main.find('>', pos);
        if (tagEnd == std::string::npos) {
            break;
        }
        std::size_t end = tagEnd + 1;
        if (main[tagEnd - 1] != '/') {
            const std::size_t close = main.find("</rdf:Description>", tagEnd);
            if (close == std::string::npos) {
                break;
            }
            end = close + 18;
        }
        const std::string_view description = std::string_view(main).substr(pos, end - pos);
        if (hasProperties(description)) {
            kept += description;
        }
        pos = end;
    }
    std::string joined(extended);
    joined.insert(insertAt, kept);
    return joined;
}

ImageMetadata parseSegments(const std::vector<Segment>& segments)
{
    ImageMetadata metadata;
    std::string photoshop;
    for (const Segment& s : segments) {
        if (s.code == 0xE1 && metadata.exif.empty() && startsWith(s.data, kExifId)) {
            metadata.exif = s.data.substr(kExifId.size());
        } else if (s.code == 0xE1 && metadata.xmp.empty() && startsWith(s.data, kXmpId)) {
            metadata.xmp = s.data.substr(kXmpId.size());
        } else if (s.code == 0xED && startsWith(s.data, kPhotoshopId) && photoshop.size() < kMaxMetadataPartBytes) {
            photoshop += std::string_view(s.data).substr(kPhotoshopId.size());
        }
    }
    if (const std::string guid = extendedGuid(metadata.xmp); !guid.empty()) {
        const std::string extended = extendedXmp(segments, guid);
        if (extended.empty()) {
            ioDiagnostic("jpeg", "extended XMP " + guid + " is missing or incomplete; the main packet is kept alone");
        } else {
            metadata.xmp = joinExtendedXmp(metadata.xmp, extended, guid);
        }
    }
    metadata.icc = joinIcc(segments);
    metadata.iptc = iptcOf(photoshop);
    return metadata;
}

std::vector<Segment> buildSegments(const ImageMetadata& metadata, MetadataWritten& written)
{
    std::vector<Segment> segments;
    if (!metadata.exif.empty()) {
        if (metadata.exif.size() > kMaxExif) {
            written.dropped.push_back("EXIF: " + std::to_string(metadata.exif.size()) +
                                      " bytes do not fit a JPEG APP1 segment (" + std::to_string(kMaxExif) +
                                      " at most)");
        } else {
            segments.push_back({0xE1, std::string(kExifId) + metadata.exif});
            written.parts.exif = metadata.exif;
        }
    }
    if (!metadata.xmp.empty()) {
        if (metadata.xmp.size() <= kMaxStandardXmp) {
            segments.push_back({0xE1, std::string(kXmpId) + metadata.xmp});
        } else {
            // A standard packet that points at the whole packet, carried as extended XMP.
            const std::string guid = md5Hex(metadata.xmp);
            const std::string standard =
                "<?xpacket begin=\"\xEF\xBB\xBF\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>\n"
                "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF "
                "xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\"><rdf:Description rdf:about=\"\" "
                "xmlns:xmpNote=\"http://ns.adobe.com/xmp/note/\" xmpNote:HasExtendedXMP=\"" +
                guid + "\"/></rdf:RDF></x:xmpmeta>\n<?xpacket end=\"w\"?>";
            segments.push_back({0xE1, std::string(kXmpId) + standard});
            constexpr std::size_t chunk = kMaxSegment - kXmpExtId.size() - 32 - 8;
            for (std::size_t offset = 0; offset < metadata.xmp.size(); offset += chunk) {
                std::string data = std::string(kXmpExtId) + guid;
                appendBe32(data, static_cast<std::uint32_t>(metadata.xmp.size()));
                appendBe32(data, static_cast<std::uint32_t>(offset));
                data += std::string_view(metadata.xmp).substr(offset, chunk);
                segments.push_back({0xE1, std::move(data)});
            }
        }
        written.parts.xmp = metadata.xmp;
    }
    if (!metadata.icc.empty()) {
        const std::size_t pieces = (metadata.icc.size() + kMaxIccPiece - 1) / kMaxIccPiece;
        if (pieces > 255) {
            written.dropped.push_back("ICC profile: " + std::to_string(metadata.icc.size()) +
                                      " bytes need more than the 255 APP2 segments a JPEG can hold");
        } else {
            for (std::size_t i = 0; i < pieces; ++i) {
                std::string data(kIccId);
                data += static_cast<char>(i + 1);
                data += static_cast<char>(pieces);
                data += std::string_view(metadata.icc).substr(i * kMaxIccPiece, kMaxIccPiece);
                segments.push_back({0xE2, std::move(data)});
            }
            written.parts.icc = metadata.icc;
        }
    }
    if (!metadata.iptc.empty()) {
        std::string data = std::string(kPhotoshopId) + "8BIM";
        data += "\x04\x04";
        data += std::string("\0\0", 2);
        appendBe32(data, static_cast<std::uint32_t>(metadata.iptc.size()));
        data += metadata.iptc;
        if ((metadata.iptc.size() & 1) != 0) {
            data += '\0';
        }
        if (data.size() > kMaxSegment) {
            written.dropped.push_back("IPTC: " + std::to_string(metadata.iptc.size()) +
                                      " bytes do not fit a JPEG APP13 segment");
        } else {
            segments.push_back({0xED, std::move(data)});
            written.parts.iptc = metadata.iptc;
        }
    }
    written.parts.orientation = written.parts.exif.empty() && written.parts.xmp.empty() ? 1 : metadata.orientation;
    return segments;
}

}  // namespace tessera::app::codec::jpeg
