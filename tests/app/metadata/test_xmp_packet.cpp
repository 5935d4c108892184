// SPDX-License-Identifier: Apache-2.0
#include "app/io/xmp_packet.h"

#include <gtest/gtest.h>

#include <string>

namespace tessera::app {
namespace {

const std::string kHead = "<?xpacket begin=\"\xEF\xBB\xBF\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>\n"
                          "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\" x:xmptk=\"Test\">\n"
                          " <rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">\n";
const std::string kTail = " </rdf:RDF>\n</x:xmpmeta>\n                                \n<?xpacket end=\"w\"?>";
const std::string kNs = " xmlns:tiff=\"http://ns.adobe.com/tiff/1.0/\" xmlns:exif=\"http://ns.adobe.com/exif/1.0/\"";

std::string packet(const std::string& description)
{
    return kHead + description + kTail;
}

std::string attributeForm(const std::string& orientation)
{
    return packet("  <rdf:Description rdf:about=\"\"" + kNs + " tiff:Orientation=\"" + orientation +
                  "\" exif:PixelXDimension='4000' exif:PixelYDimension=\"3000\"/>\n");
}

std::string elementForm(const std::string& orientation)
{
    return packet("  <rdf:Description rdf:about=\"\"" + kNs + ">\n   <tiff:Orientation>" + orientation +
                  "</tiff:Orientation>\n   <tiff:ImageWidth>4000</tiff:ImageWidth>\n"
                  "   <tiff:ImageLength> 3000 </tiff:ImageLength>\n  </rdf:Description>\n");
}

TEST(XmpPacket, ReadsOrientationInBothForms)
{
    for (int o = 1; o <= 8; ++o) {
        EXPECT_EQ(xmpOrientation(attributeForm(std::to_string(o))), o);
        EXPECT_EQ(xmpOrientation(elementForm(std::to_string(o))), o);
    }
    EXPECT_EQ(xmpOrientation(elementForm(" 6\n")), 6);
}

TEST(XmpPacket, FindsPropertiesByNamespaceNotByPrefix)
{
    const std::string p =
        packet("<rdf:Description rdf:about=\"\" xmlns:T=\"http://ns.adobe.com/tiff/1.0/\" T:Orientation=\"5\"/>"
               "<rdf:Description rdf:about=\"\" xmlns:tiff=\"urn:not-tiff\" tiff:Orientation=\"7\"/>");
    const XmpScan scan = scanXmp(p);
    ASSERT_TRUE(scan.ok) << scan.error;
    ASSERT_EQ(scan.values.size(), 1u);
    EXPECT_EQ(p.substr(scan.values[0].begin, scan.values[0].end - scan.values[0].begin), "5");
    EXPECT_EQ(xmpOrientation(p), 5);
}

TEST(XmpPacket, AbsentOrInvalidOrientationIsNone)
{
    EXPECT_EQ(xmpOrientation(packet("<rdf:Description rdf:about=\"\"/>")), std::nullopt);
    EXPECT_EQ(xmpOrientation(attributeForm("0")), std::nullopt);
    EXPECT_EQ(xmpOrientation(attributeForm("9")), std::nullopt);
    EXPECT_EQ(xmpOrientation(attributeForm("6a")), std::nullopt);
    EXPECT_EQ(xmpOrientation(elementForm("")), std::nullopt);
    EXPECT_EQ(xmpOrientation(""), std::nullopt);
}

TEST(XmpPacket, EditsOnlyTheValues)
{
    for (const std::string& p : {attributeForm("6"), elementForm("6")}) {
        std::string why;
        const auto edited = editXmp(p, XmpEdit{1, 640, 480}, why);
        ASSERT_TRUE(edited) << why;
        EXPECT_EQ(xmpOrientation(*edited), 1);
        std::string expected = p;
        for (const auto& [from, to] : {std::pair<std::string, std::string>{"\"6\"", "\"1\""},
                                       {">6<", ">1<"},
                                       {"'4000'", "'640'"},
                                       {"\"3000\"", "\"480\""},
                                       {">4000<", ">640<"},
                                       {"> 3000 <", ">480<"}}) {
            if (const auto at = expected.find(from); at != std::string::npos) {
                expected.replace(at, from.size(), to);
            }
        }
        EXPECT_EQ(*edited, expected);
    }
    // Nothing asked: the packet comes back as it was.
    std::string why;
    EXPECT_EQ(editXmp(elementForm("6"), XmpEdit{}, why), elementForm("6"));
}

TEST(XmpPacket, EveryOccurrenceIsPatched)
{
    const std::string p = packet("<rdf:Description rdf:about=\"\"" + kNs +
                                 " tiff:Orientation=\"6\"/>"
                                 "<rdf:Description rdf:about=\"\"" +
                                 kNs +
                                 "><tiff:Orientation>6</tiff:Orientation>"
                                 "</rdf:Description>");
    std::string why;
    const auto edited = editXmp(p, XmpEdit{1, 0, 0}, why);
    ASSERT_TRUE(edited);
    EXPECT_EQ(edited->find(">6<"), std::string::npos);
    EXPECT_EQ(edited->find("\"6\""), std::string::npos);
    const XmpScan scan = scanXmp(*edited);
    ASSERT_EQ(scan.values.size(), 2u);
    for (const XmpValue& v : scan.values) {
        EXPECT_EQ(edited->substr(v.begin, v.end - v.begin), "1");
    }
}

std::string deepNesting(int depth)
{
    std::string s;
    for (int i = 0; i < depth; ++i) {
        s += "<a>";
    }
    for (int i = 0; i < depth; ++i) {
        s += "</a>";
    }
    return s;
}

TEST(XmpPacket, MalformedPacketsAreReportedWithAReason)
{
    const std::string description = "<rdf:Description rdf:about=\"\"" + kNs + " tiff:Orientation=\"6\"/>";
    const std::pair<std::string, std::string> cases[] = {
        {"", "no element"},
        {"not xml at all", "text outside the root element"},
        {kHead + description + " </rdf:RDF>\n", "is never closed"},
        {kHead + description + " </rdf:RDF></x:xmpmeta></x:xmpmeta>", "closes nothing"},
        {kHead + "<rdf:Description>" + kTail, "is closed by rdf:RDF"},
        {packet("<rdf:Description tiff:Orientation=\"6\"/>"), "prefix tiff of tiff:Orientation is not declared"},
        {packet("<rdf:Description" + kNs + " tiff:Orientation=6/>"), "has no quoted value"},
        {packet("<rdf:Description" + kNs + " tiff:Orientation=\"6/>"), "a < inside attribute"},
        {packet("<rdf:Description a=\"1\" a=\"2\"/>"), "attribute a twice"},
        {packet("<rdf:Description>Tom & Jerry</rdf:Description>"), "a bare &"},
        {packet("<rdf:Description>&xxe;</rdf:Description>"), "unknown reference &xxe;"},
        {"<!DOCTYPE x [<!ENTITY e \"e\">]>" + packet(""), "a DTD"},
        {packet("<!-- never ends"), "unterminated comment"},
        {"<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"></x:xmpmeta>", "no rdf:RDF element"},
        {"<html><body/></html>", "neither x:xmpmeta nor rdf:RDF"},
        {packet("<rdf:Description" + kNs + "><tiff:Orientation><rdf:Seq/></tiff:Orientation></rdf:Description>"),
         "holds elements, not a value"},
        {packet(deepNesting(300)), "nested deeper than 256"},
    };
    for (const auto& [p, reason] : cases) {
        const XmpScan scan = scanXmp(p);
        EXPECT_FALSE(scan.ok) << p;
        EXPECT_NE(scan.error.find(reason), std::string::npos)
            << "expected \"" << reason << "\", got \"" << scan.error << "\"";
        EXPECT_TRUE(scan.values.empty());
        std::string why;
        EXPECT_FALSE(editXmp(p, XmpEdit{1, 1, 1}, why));
        EXPECT_EQ(why, scan.error);
        EXPECT_EQ(xmpOrientation(p), std::nullopt);
    }
}

TEST(XmpPacket, CutPacketsNeverScanAsEditable)
{
    const std::string p = elementForm("6");
    for (std::size_t n = 0; n < p.find("</x:xmpmeta>"); ++n) {
        EXPECT_FALSE(scanXmp(p.substr(0, n)).ok) << n;
    }
}

TEST(XmpPacket, ARootRdfWithoutXmpmetaIsAccepted)
{
    const std::string p = "<rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\"><rdf:Description" + kNs +
                          " tiff:Orientation=\"3\"/></rdf:RDF>";
    EXPECT_EQ(xmpOrientation(p), 3);
}

}  // namespace
}  // namespace tessera::app
