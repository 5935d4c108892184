// SPDX-License-Identifier: Apache-2.0
#include "app/io/xmp_packet.h"

#include <algorithm>
#include <string>
#include <utility>

namespace tessera::app {
namespace {

constexpr std::string_view kTiffNs = "http://ns.adobe.com/tiff/1.0/";
constexpr std::string_view kExifNs = "http://ns.adobe.com/exif/1.0/";
constexpr std::string_view kRdfNs = "http://www.w3.org/1999/02/22-rdf-syntax-ns#";
constexpr std::string_view kMetaNs = "adobe:ns:meta/";
constexpr std::size_t kMaxDepth = 256;

bool isSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

bool isNameChar(char c)
{
    return !isSpace(c) && c != '<' && c != '>' && c != '/' && c != '=' && c != '"' && c != '\'' && c != '&' &&
           c != '\0';
}

struct Attribute {
    std::string_view name;
    std::size_t begin;
    std::size_t end;
};

struct Element {
    std::string_view name;
    std::size_t at;
    std::vector<std::pair<std::string_view, std::string_view>> namespaces;  // prefix, URI
    std::optional<XmpProperty> property;
    std::size_t contentBegin = 0;
    bool hasChild = false;
};

class Scanner {
public:
    explicit Scanner(std::string_view p) : p_(p) {}

    XmpScan run()
    {
        if (p_.substr(0, 3) == "\xEF\xBB\xBF") {
            i_ = 3;
        }
        while (i_ < p_.size() && fail_.empty()) {
            if (p_[i_] == '<') {
                markup();
            } else {
                text();
            }
        }
        if (fail_.empty() && !stack_.empty()) {
            fail("element " + std::string(stack_.back().name) + " at byte " + std::to_string(stack_.back().at) +
                 " is never closed");
        }
        if (fail_.empty() && roots_ == 0) {
            fail("no element");
        }
        if (fail_.empty() && !sawRdf_) {
            fail("no rdf:RDF element");
        }
        XmpScan out;
        out.ok = fail_.empty();
        out.error = fail_;
        if (out.ok) {
            out.values = std::move(values_);
        }
        return out;
    }

private:
    void fail(std::string why)
    {
        if (fail_.empty()) {
            fail_ = std::move(why);
        }
    }

    bool startsWith(std::string_view s) const { return p_.substr(i_, s.size()) == s; }

    void skipPast(std::string_view end, const char* what)
    {
        const std::size_t at = p_.find(end, i_);
        if (at == std::string_view::npos) {
            fail(std::string("unterminated ") + what + " at byte " + std::to_string(i_));
            i_ = p_.size();
            return;
        }
        i_ = at + end.size();
    }

    void markup()
    {
        if (startsWith("<?")) {
            skipPast("?>", "processing instruction");
        } else if (startsWith("<!--")) {
            skipPast("-->", "comment");
        } else if (startsWith("<![CDATA[")) {
            if (stack_.empty()) {
                fail("CDATA outside the root element at byte " + std::to_string(i_));
                return;
            }
            skipPast("]]>", "CDATA section");
        } else if (startsWith("<!")) {
            fail("a DTD or declaration at byte " + std::to_string(i_) + " (XMP allows none)");
        } else if (startsWith("</")) {
            endTag();
        } else {
            startTag();
        }
    }

    std::string_view name()
    {
        const std::size_t b = i_;
        while (i_ < p_.size() && isNameChar(p_[i_])) {
            ++i_;
        }
        return p_.substr(b, i_ - b);
    }

    void skipSpace()
    {
        while (i_ < p_.size() && isSpace(p_[i_])) {
            ++i_;
        }
    }

    // Checks the character and entity references in [b, e).
    bool referencesOk(std::size_t b, std::size_t e)
    {
        for (std::size_t k = b; k < e; ++k) {
            if (p_[k] != '&') {
                continue;
            }
            const std::size_t semi = p_.find(';', k);
            if (semi == std::string_view::npos || semi >= e || semi == k + 1 || semi - k > 12) {
                fail("a bare & at byte " + std::to_string(k));
                return false;
            }
            const std::string_view ref = p_.substr(k + 1, semi - k - 1);
            const bool named = ref == "amp" || ref == "lt" || ref == "gt" || ref == "quot" || ref == "apos";
            const bool numeric =
                ref.size() > 1 && ref[0] == '#' && std::all_of(ref.begin() + 1, ref.end(), [](char c) {
                    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F') || c == 'x';
                });
            if (!named && !numeric) {
                fail("unknown reference &" + std::string(ref) + "; at byte " + std::to_string(k));
                return false;
            }
            k = semi;
        }
        return true;
    }

    std::optional<std::string_view> uriOf(std::string_view prefix, const Element& self) const
    {
        for (const auto& [p, uri] : self.namespaces) {
            if (p == prefix) {
                return uri;
            }
        }
        for (auto it = stack_.rbegin(); it != stack_.rend(); ++it) {
            for (const auto& [p, uri] : it->namespaces) {
                if (p == prefix) {
                    return uri;
                }
            }
        }
        return std::nullopt;
    }

    // The namespace URI and local name of a qualified name; fails on an undeclared prefix.
    std::optional<std::pair<std::string_view, std::string_view>> resolve(std::string_view qname, const Element& self)
    {
        const std::size_t colon = qname.find(':');
        if (colon == std::string_view::npos) {
            return std::pair{std::string_view{}, qname};
        }
        const std::string_view prefix = qname.substr(0, colon);
        if (prefix == "xml" || prefix == "xmlns") {
            return std::pair{prefix, qname.substr(colon + 1)};
        }
        const std::optional<std::string_view> uri = uriOf(prefix, self);
        if (!uri) {
            fail("prefix " + std::string(prefix) + " of " + std::string(qname) + " is not declared");
            return std::nullopt;
        }
        return std::pair{*uri, qname.substr(colon + 1)};
    }

    static std::optional<XmpProperty> propertyOf(std::string_view uri, std::string_view local)
    {
        if (uri == kTiffNs) {
            if (local == "Orientation")
                return XmpProperty::TiffOrientation;
            if (local == "ImageWidth")
                return XmpProperty::TiffImageWidth;
            if (local == "ImageLength")
                return XmpProperty::TiffImageLength;
        } else if (uri == kExifNs) {
            if (local == "PixelXDimension")
                return XmpProperty::ExifPixelXDimension;
            if (local == "PixelYDimension")
                return XmpProperty::ExifPixelYDimension;
        }
        return std::nullopt;
    }

    void startTag()
    {
        Element el;
        el.at = i_;
        ++i_;
        el.name = name();
        if (el.name.empty()) {
            fail("a < at byte " + std::to_string(el.at) + " starts no element");
            return;
        }
        if (stack_.empty()) {
            if (++roots_ > 1) {
                fail("a second root element " + std::string(el.name) + " at byte " + std::to_string(el.at));
                return;
            }
        } else {
            stack_.back().hasChild = true;
        }
        std::vector<Attribute> attributes;
        bool selfClosing = false;
        while (fail_.empty()) {
            const std::size_t before = i_;
            skipSpace();
            if (i_ >= p_.size()) {
                fail("element " + std::string(el.name) + " at byte " + std::to_string(el.at) + " is cut off");
                return;
            }
            if (startsWith("/>")) {
                selfClosing = true;
                i_ += 2;
                break;
            }
            if (p_[i_] == '>') {
                ++i_;
                break;
            }
            if (i_ == before) {
                fail("no space before an attribute at byte " + std::to_string(i_));
                return;
            }
            const std::size_t attrAt = i_;
            const std::string_view attr = name();
            skipSpace();
            if (attr.empty() || i_ >= p_.size() || p_[i_] != '=') {
                fail("a malformed attribute at byte " + std::to_string(attrAt));
                return;
            }
            ++i_;
            skipSpace();
            if (i_ >= p_.size() || (p_[i_] != '"' && p_[i_] != '\'')) {
                fail("attribute " + std::string(attr) + " at byte " + std::to_string(attrAt) + " has no quoted value");
                return;
            }
            const char quote = p_[i_++];
            const std::size_t close = p_.find(quote, i_);
            if (close == std::string_view::npos) {
                fail("attribute " + std::string(attr) + " at byte " + std::to_string(attrAt) + " is never closed");
                return;
            }
            if (p_.substr(i_, close - i_).find('<') != std::string_view::npos) {
                fail("a < inside attribute " + std::string(attr) + " at byte " + std::to_string(attrAt));
                return;
            }
            if (!referencesOk(i_, close)) {
                return;
            }
            for (const Attribute& a : attributes) {
                if (a.name == attr) {
                    fail("attribute " + std::string(attr) + " twice at byte " + std::to_string(attrAt));
                    return;
                }
            }
            attributes.push_back({attr, i_, close});
            if (attr.substr(0, 6) == "xmlns:") {
                el.namespaces.emplace_back(attr.substr(6), p_.substr(i_, close - i_));
            }
            i_ = close + 1;
        }
        if (!fail_.empty()) {
            return;
        }
        const auto resolved = resolve(el.name, el);
        if (!resolved) {
            return;
        }
        if (resolved->first == kRdfNs && resolved->second == "RDF") {
            sawRdf_ = true;
        }
        if (stack_.empty()) {
            const bool meta =
                resolved->first == kMetaNs && (resolved->second == "xmpmeta" || resolved->second == "xapmeta");
            const bool rdf = resolved->first == kRdfNs && resolved->second == "RDF";
            if (!meta && !rdf) {
                fail("root element " + std::string(el.name) + " is neither x:xmpmeta nor rdf:RDF");
                return;
            }
        }
        for (const Attribute& a : attributes) {
            if (a.name.substr(0, 6) == "xmlns:") {
                continue;
            }
            const auto r = resolve(a.name, el);
            if (!r) {
                return;
            }
            if (const auto property = propertyOf(r->first, r->second)) {
                values_.push_back({*property, a.begin, a.end, true});
            }
        }
        el.property = propertyOf(resolved->first, resolved->second);
        el.contentBegin = i_;
        if (selfClosing) {
            return;  // an empty property element holds no value to read or patch
        }
        if (stack_.size() >= kMaxDepth) {
            fail("elements nested deeper than " + std::to_string(kMaxDepth));
            return;
        }
        stack_.push_back(std::move(el));
    }

    void endTag()
    {
        const std::size_t at = i_;
        i_ += 2;
        const std::string_view n = name();
        skipSpace();
        if (i_ >= p_.size() || p_[i_] != '>') {
            fail("end tag at byte " + std::to_string(at) + " is malformed");
            return;
        }
        ++i_;
        if (stack_.empty()) {
            fail("end tag " + std::string(n) + " at byte " + std::to_string(at) + " closes nothing");
            return;
        }
        const Element& open = stack_.back();
        if (open.name != n) {
            fail("element " + std::string(open.name) + " at byte " + std::to_string(open.at) + " is closed by " +
                 std::string(n));
            return;
        }
        if (open.property) {
            if (open.hasChild) {
                fail(std::string(xmpPropertyName(*open.property)) + " at byte " + std::to_string(open.at) +
                     " holds elements, not a value");
                return;
            }
            values_.push_back({*open.property, open.contentBegin, at, false});
        }
        stack_.pop_back();
    }

    void text()
    {
        const std::size_t b = i_;
        const std::size_t e = std::min(p_.find('<', i_), p_.size());
        i_ = e;
        if (stack_.empty()) {
            for (std::size_t k = b; k < e; ++k) {
                if (!isSpace(p_[k])) {
                    fail("text outside the root element at byte " + std::to_string(k));
                    return;
                }
            }
            return;
        }
        referencesOk(b, e);
    }

    std::string_view p_;
    std::size_t i_ = 0;
    std::string fail_;
    std::vector<Element> stack_;
    std::vector<XmpValue> values_;
    int roots_ = 0;
    bool sawRdf_ = false;
};

std::optional<std::uint32_t> wholeNumber(std::string_view s)
{
    while (!s.empty() && isSpace(s.front()))
        s.remove_prefix(1);
    while (!s.empty() && isSpace(s.back()))
        s.remove_suffix(1);
    if (s.empty() || s.size() > 9) {
        return std::nullopt;
    }
    std::uint32_t v = 0;
    for (const char c : s) {
        if (c < '0' || c > '9') {
            return std::nullopt;
        }
        v = v * 10 + static_cast<std::uint32_t>(c - '0');
    }
    return v;
}

}  // namespace

std::string_view xmpPropertyName(XmpProperty property)
{
    switch (property) {
    case XmpProperty::TiffOrientation: return "tiff:Orientation";
    case XmpProperty::TiffImageWidth: return "tiff:ImageWidth";
    case XmpProperty::TiffImageLength: return "tiff:ImageLength";
    case XmpProperty::ExifPixelXDimension: return "exif:PixelXDimension";
    case XmpProperty::ExifPixelYDimension: return "exif:PixelYDimension";
    }
    return "?";
}

XmpScan scanXmp(std::string_view packet)
{
    return Scanner(packet).run();
}

std::optional<int> xmpOrientation(std::string_view xmp)
{
    const XmpScan scan = scanXmp(xmp);
    for (const XmpValue& v : scan.values) {
        if (v.property == XmpProperty::TiffOrientation) {
            const std::optional<std::uint32_t> n = wholeNumber(xmp.substr(v.begin, v.end - v.begin));
            return n && *n >= 1 && *n <= 8 ? std::optional<int>(static_cast<int>(*n)) : std::nullopt;
        }
    }
    return std::nullopt;
}

std::optional<std::string> editXmp(std::string_view packet, const XmpEdit& edit, std::string& why)
{
    const XmpScan scan = scanXmp(packet);
    if (!scan.ok) {
        why = scan.error;
        return std::nullopt;
    }
    std::string out(packet);
    // From the last value to the first, so that the ranges before each one stay where they were.
    for (auto it = scan.values.rbegin(); it != scan.values.rend(); ++it) {
        std::optional<std::uint32_t> value;
        switch (it->property) {
        case XmpProperty::TiffOrientation:
            if (edit.orientation)
                value = static_cast<std::uint32_t>(*edit.orientation);
            break;
        case XmpProperty::TiffImageWidth:
        case XmpProperty::ExifPixelXDimension:
            if (edit.width != 0)
                value = edit.width;
            break;
        case XmpProperty::TiffImageLength:
        case XmpProperty::ExifPixelYDimension:
            if (edit.height != 0)
                value = edit.height;
            break;
        }
        if (value) {
            out.replace(it->begin, it->end - it->begin, std::to_string(*value));
        }
    }
    return out;
}

}  // namespace tessera::app
