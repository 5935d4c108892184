// SPDX-License-Identifier: Apache-2.0
#include "app/io/output_metadata.h"

#include "app/io/exif_block.h"
#include "app/io/xmp_packet.h"
#include "tests/app/metadata/exif_builder.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

namespace tessera::app {
namespace {

using test::ExifBuilder;

std::string xmpWithOrientation(int orientation)
{
    return "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">"
           "<rdf:Description rdf:about=\"\" xmlns:tiff=\"http://ns.adobe.com/tiff/1.0/\" "
           "xmlns:exif=\"http://ns.adobe.com/exif/1.0/\""
           " tiff:Orientation=\"" +
           std::to_string(orientation) +
           "\"><exif:PixelXDimension>4000</exif:PixelXDimension><exif:PixelYDimension>3000</exif:PixelYDimension>"
           "</rdf:Description></rdf:RDF></x:xmpmeta>";
}

std::string exifWithOrientation(int orientation, bool bigEndian = false)
{
    ExifBuilder b(bigEndian);
    b.ifd0.push_back(ExifBuilder::asciiEntry(271, "Maker"));
    b.ifd0.push_back(b.shortEntry(274, static_cast<std::uint32_t>(orientation)));
    b.exif.push_back(b.shortEntry(40962, 4000));
    b.exif.push_back(b.shortEntry(40963, 3000));
    return b.build();
}

std::uint32_t exifDimension(const std::string& block, std::uint16_t tag)
{
    const ExifReader r(block);
    std::string why;
    const auto ifd0 = r.ifd(r.ifd0Offset(), why);
    const auto exif = r.ifd(*r.integer(*ifd0->find(exif_tag::kExifIfd)), why);
    return *r.integer(*exif->find(tag));
}

TEST(OutputMetadata, ExifOrientationComesFirst)
{
    ImageMetadata m;
    m.exif = exifWithOrientation(3);
    m.xmp = xmpWithOrientation(6);
    EXPECT_EQ(orientationOf(m), 3);
    EXPECT_EQ(findOrientation(m).source, OrientationSource::Exif);
    EXPECT_EQ(orientationSourceName(findOrientation(m).source), "EXIF");
    // An EXIF orientation out of range gives way to XMP's.
    m.exif = exifWithOrientation(9);
    EXPECT_EQ(orientationOf(m), 6);
    EXPECT_EQ(findOrientation(m).source, OrientationSource::Xmp);
    EXPECT_EQ(orientationOf(ImageMetadata{}), 1);
    EXPECT_EQ(findOrientation(ImageMetadata{}).source, OrientationSource::None);
}

TEST(OutputMetadata, AnOrientationOnlyInXmpIsFoundAndSetUpright)
{
    ImageMetadata m;
    m.xmp = xmpWithOrientation(6);
    const FoundOrientation found = findOrientation(m);
    EXPECT_EQ(found.orientation, 6);
    EXPECT_EQ(orientationSourceName(found.source), "XMP");

    const PreparedMetadata turned = prepareOutputMetadata(m, 3000, 4000, true);
    EXPECT_TRUE(turned.notes.empty());
    EXPECT_EQ(turned.parts.orientation, 1);
    EXPECT_EQ(xmpOrientation(turned.parts.xmp), 1);
    EXPECT_NE(turned.parts.xmp.find("<exif:PixelXDimension>3000</exif:PixelXDimension>"), std::string::npos);
    EXPECT_NE(turned.parts.xmp.find("<exif:PixelYDimension>4000</exif:PixelYDimension>"), std::string::npos);

    const PreparedMetadata kept = prepareOutputMetadata(m, 4000, 3000, false);
    EXPECT_EQ(kept.parts.orientation, 6);
    EXPECT_EQ(xmpOrientation(kept.parts.xmp), 6);
}

TEST(OutputMetadata, TurnedPixelsSetBothOrientationsUpright)
{
    for (const bool be : {false, true}) {
        ImageMetadata m;
        m.exif = exifWithOrientation(6, be);
        m.xmp = xmpWithOrientation(6);
        const PreparedMetadata p = prepareOutputMetadata(m, 300, 400, true);
        EXPECT_EQ(exifOrientation(p.parts.exif), 1);
        EXPECT_EQ(xmpOrientation(p.parts.xmp), 1);
        EXPECT_EQ(p.parts.orientation, 1);
        EXPECT_EQ(exifDimension(p.parts.exif, exif_tag::kPixelXDimension), 300u);
        EXPECT_EQ(exifDimension(p.parts.exif, exif_tag::kPixelYDimension), 400u);
        EXPECT_TRUE(p.notes.empty());
    }
}

TEST(OutputMetadata, UnturnedPixelsKeepTheOrientation)
{
    ImageMetadata m;
    m.exif = exifWithOrientation(6);
    m.xmp = xmpWithOrientation(6);
    const PreparedMetadata p = prepareOutputMetadata(m, 4000, 3000, false);
    EXPECT_EQ(exifOrientation(p.parts.exif), 6);
    EXPECT_EQ(xmpOrientation(p.parts.xmp), 6);
    EXPECT_EQ(p.parts.orientation, 6);
    EXPECT_EQ(p.parts.exif, m.exif);  // the size did not change either
}

TEST(OutputMetadata, LargeExifSurvivesByteForByteButThePatchedFields)
{
    ExifBuilder b(true);
    b.ifd0.push_back(ExifBuilder::asciiEntry(271, "Maker"));
    b.ifd0.push_back(b.shortEntry(274, 8));
    std::string makerNote(6000, '\0');
    for (std::size_t i = 0; i < makerNote.size(); ++i) {
        makerNote[i] = static_cast<char>(i * 7 + 3);
    }
    b.exif.push_back(ExifBuilder::undefinedEntry(37500, makerNote));
    b.exif.push_back(ExifBuilder::undefinedEntry(37510, std::string(70000, 'u')));
    b.exif.push_back(b.longEntry(40962, 8000));
    b.exif.push_back(b.longEntry(40963, 6000));
    b.thumbnail = std::string(9000, 'T');
    ImageMetadata m;
    m.exif = b.build();
    ASSERT_GT(m.exif.size(), std::size_t{64} << 10);

    const PreparedMetadata p = prepareOutputMetadata(m, 6000, 8000, true);
    // Everything but IFD1 and the thumbnail, which end the block.
    ASSERT_EQ(p.parts.exif.size(), m.exif.size() - 9000 - (2 + 2 * 12 + 4));
    ASSERT_GT(p.parts.exif.size(), std::size_t{64} << 10);
    EXPECT_EQ(p.parts.exif.find(std::string(9000, 'T')), std::string::npos);
    ASSERT_EQ(p.notes.size(), 1u);
    EXPECT_EQ(p.notes[0], "EXIF: thumbnail (IFD1) left out");
    EXPECT_EQ(exifOrientation(p.parts.exif), 1);
    EXPECT_EQ(exifDimension(p.parts.exif, exif_tag::kPixelXDimension), 6000u);
    EXPECT_EQ(exifDimension(p.parts.exif, exif_tag::kPixelYDimension), 8000u);
    EXPECT_NE(p.parts.exif.find(makerNote), std::string::npos);
    std::size_t differing = 0;
    for (std::size_t i = 0; i < p.parts.exif.size(); ++i) {
        differing += m.exif[i] != p.parts.exif[i];
    }
    EXPECT_GE(differing, 3u);
    EXPECT_LE(differing, 2u + 4u + 4u + 4u);
}

TEST(OutputMetadata, StructureTagsOfATiffSourceAreLeftOutWithANote)
{
    ExifBuilder b;
    b.ifd0.push_back(b.shortEntry(256, 64));
    b.ifd0.push_back(b.shortEntry(257, 48));
    b.ifd0.push_back(b.longEntry(273, 4096));
    b.ifd0.push_back(b.shortEntry(274, 1));
    b.ifd0.push_back(b.longEntry(278, 48));
    b.ifd0.push_back(b.longEntry(279, 9216));
    ImageMetadata m;
    m.exif = b.build();
    const PreparedMetadata p = prepareOutputMetadata(m, 64, 48, false);
    ASSERT_EQ(p.notes.size(), 1u);
    EXPECT_EQ(
        p.notes[0],
        "EXIF: TIFF structure tags left out: ImageWidth, ImageLength, StripOffsets, RowsPerStrip, StripByteCounts");
    const ExifReader r(p.parts.exif);
    std::string why;
    const auto ifd0 = r.ifd(r.ifd0Offset(), why);
    ASSERT_TRUE(ifd0);
    ASSERT_EQ(ifd0->entries.size(), 1u);
    EXPECT_EQ(ifd0->entries[0].tag, exif_tag::kOrientation);
}

TEST(OutputMetadata, NothingIsLostWithoutANote)
{
    ImageMetadata m;
    m.exif = "II*\0garbage";
    m.xmp = "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">";
    m.icc = std::string("\0\0\x02\x0c"
                        "ICC profile bytes",
                        21);
    m.iptc = std::string("\x1c\x02\x00\x00\x02\x00\x04", 7);
    const PreparedMetadata p = prepareOutputMetadata(m, 10, 10, true);
    EXPECT_TRUE(p.parts.exif.empty());
    EXPECT_TRUE(p.parts.xmp.empty());
    EXPECT_EQ(p.parts.icc, m.icc);
    EXPECT_EQ(p.parts.iptc, m.iptc);
    ASSERT_EQ(p.notes.size(), 2u);
    EXPECT_EQ(p.notes[0].rfind("EXIF: does not parse (", 0), 0u) << p.notes[0];
    EXPECT_EQ(p.notes[1], "XMP: does not parse (element rdf:RDF at byte 36 is never closed); left out");
    EXPECT_EQ(p.parts.summary(), "ICC profile, IPTC");
}

TEST(OutputMetadata, AnXmpThatNeedsNoEditIsStillCheckedAndKept)
{
    ImageMetadata m;
    m.xmp = "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF "
            "xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\"/></x:xmpmeta>";
    const PreparedMetadata p = prepareOutputMetadata(m, 10, 10, false);
    EXPECT_EQ(p.parts.xmp, m.xmp);
    EXPECT_TRUE(p.notes.empty());
}

TEST(OutputMetadata, ASizeThatIsNoPictureIsRefused)
{
    EXPECT_THROW(prepareOutputMetadata(ImageMetadata{}, 0, 10, false), std::invalid_argument);
    EXPECT_THROW(prepareOutputMetadata(ImageMetadata{}, 10, -1, true), std::invalid_argument);
    EXPECT_TRUE(prepareOutputMetadata(ImageMetadata{}, 1, 1, true).parts.empty());
}

}  // namespace
}  // namespace tessera::app
