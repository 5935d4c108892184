// SPDX-License-Identifier: Apache-2.0
#include "app/io/exif_block.h"

#include "tests/app/metadata/exif_builder.h"

#include <gtest/gtest.h>

#include <string>

namespace tessera::app {
namespace {

using test::ExifBuilder;

std::string orientedBlock(bool bigEndian, std::uint32_t orientation)
{
    ExifBuilder b(bigEndian);
    b.ifd0.push_back(ExifBuilder::asciiEntry(271, "Camera maker"));
    b.ifd0.push_back(b.shortEntry(274, orientation));
    return b.build();
}

// The integer value of tag in the IFD at offset, read back through the walker.
std::optional<std::uint32_t> valueIn(const std::string& block, std::uint32_t offset, std::uint16_t tag)
{
    const ExifReader r(block);
    std::string why;
    const auto ifd = r.ifd(offset, why);
    if (!ifd) {
        return std::nullopt;
    }
    const ExifEntry* e = ifd->find(tag);
    return e != nullptr ? r.integer(*e) : std::nullopt;
}

TEST(ExifBlock, ReadsOrientationInBothByteOrders)
{
    for (const bool be : {false, true}) {
        for (std::uint32_t o = 1; o <= 8; ++o) {
            EXPECT_EQ(exifOrientation(orientedBlock(be, o)), static_cast<int>(o)) << (be ? "MM " : "II ") << o;
        }
    }
    // The same bytes read in the other order are another number: the byte order is honoured.
    std::string block = orientedBlock(false, 6);
    EXPECT_EQ(ExifReader(block).get16(8), 2);
    EXPECT_FALSE(ExifReader(block).bigEndian());
    EXPECT_TRUE(ExifReader(orientedBlock(true, 6)).bigEndian());
}

TEST(ExifBlock, OrientationAbsentOrInvalidIsZero)
{
    ExifBuilder none;
    none.ifd0.push_back(ExifBuilder::asciiEntry(271, "Maker"));
    EXPECT_EQ(exifOrientation(none.build()), 0);
    EXPECT_EQ(exifOrientation(orientedBlock(false, 0)), 0);
    EXPECT_EQ(exifOrientation(orientedBlock(false, 9)), 0);
    EXPECT_EQ(exifOrientation(orientedBlock(true, 0xffff)), 0);
    ExifBuilder ascii;
    ascii.ifd0.push_back(ExifBuilder::asciiEntry(274, "6"));
    EXPECT_EQ(exifOrientation(ascii.build()), 0);
}

TEST(ExifBlock, MalformedBlocksGiveZeroWithoutCrashOrLoop)
{
    EXPECT_EQ(exifOrientation(""), 0);
    EXPECT_EQ(exifOrientation(std::string("II*\0", 4)), 0);
    EXPECT_EQ(exifOrientation(std::string("XX*\0\x08\0\0\0", 8)), 0);
    EXPECT_FALSE(ExifReader(std::string("Exif\0\0II*\0", 10)).ok());

    const std::string good = orientedBlock(false, 6);
    ASSERT_EQ(exifOrientation(good), 6);
    // Cut at every length: either the orientation survives whole or it is 0.
    for (std::size_t n = 0; n < good.size(); ++n) {
        const int o = exifOrientation(good.substr(0, n));
        EXPECT_TRUE(o == 0 || o == 6) << n;
        const ExifEdited edited = editExif(good.substr(0, n), ExifEdit{});
        EXPECT_TRUE(!edited.block.empty() || !edited.notes.empty()) << n;
    }

    // IFD0 offset into the header, past the end, and an entry count of 65535.
    std::string intoHeader = good;
    intoHeader[4] = 2;
    EXPECT_EQ(exifOrientation(intoHeader), 0);
    std::string pastEnd = good;
    pastEnd[4] = '\xff';
    pastEnd[5] = '\xff';
    EXPECT_EQ(exifOrientation(pastEnd), 0);
    std::string manyEntries = good;
    manyEntries[8] = '\xff';
    manyEntries[9] = '\xff';
    EXPECT_EQ(exifOrientation(manyEntries), 0);
    std::string why;
    EXPECT_FALSE(ExifReader(manyEntries).ifd(8, why));
    EXPECT_NE(why.find("65535 entries"), std::string::npos) << why;
    const ExifEdited dropped = editExif(manyEntries, ExifEdit{});
    EXPECT_TRUE(dropped.block.empty());
    ASSERT_EQ(dropped.notes.size(), 1u);
    EXPECT_NE(dropped.notes[0].find("EXIF: does not parse"), std::string::npos);

    // An unknown type code on the orientation entry.
    std::string unknownType = good;
    const ExifReader r(good);
    const auto ifd0 = r.ifd(8, why);
    ASSERT_TRUE(ifd0);
    const std::size_t at = ifd0->find(274)->at;
    unknownType[at + 2] = 99;
    EXPECT_EQ(exifOrientation(unknownType), 0);
    // A count whose values run past the end of the block.
    std::string longCount = good;
    longCount[at + 6] = '\x10';
    EXPECT_EQ(exifOrientation(longCount), 0);
}

TEST(ExifBlock, OffsetLoopsEndTheWalk)
{
    ExifBuilder b;
    b.ifd0.push_back(b.shortEntry(274, 3));
    b.exif.push_back(b.shortEntry(40962, 10));
    std::string block = b.build();
    const ExifReader r(block);
    std::string why;
    const auto ifd0 = r.ifd(8, why);
    ASSERT_TRUE(ifd0);
    // IFD0's next-IFD offset pointing at itself, and the Exif pointer pointing back at IFD0.
    const std::size_t nextAt = 8 + 2 + 12 * ifd0->entries.size();
    block.replace(nextAt, 4, b.u32(8));
    const std::size_t exifPointer = ifd0->find(exif_tag::kExifIfd)->at + 8;
    block.replace(exifPointer, 4, b.u32(8));
    EXPECT_EQ(exifOrientation(block), 3);
    const ExifEdited edited = editExif(block, ExifEdit{1, 640, 480});
    ASSERT_FALSE(edited.block.empty());
    EXPECT_EQ(exifOrientation(edited.block), 1);
    const ExifReader out(edited.block);
    const auto newIfd0 = out.ifd(out.ifd0Offset(), why);
    ASSERT_TRUE(newIfd0);
    EXPECT_EQ(newIfd0->find(exif_tag::kExifIfd), nullptr);
    EXPECT_EQ(newIfd0->next, 0u);
    bool noted = false;
    for (const std::string& n : edited.notes) {
        noted = noted || n.find("Exif sub-IFD does not parse (it points at an IFD already read)") != std::string::npos;
    }
    EXPECT_TRUE(noted);
}

TEST(ExifBlock, AnExifIfdSharingBytesWithIfd0IsNotPatched)
{
    ExifBuilder b;
    b.ifd0.push_back(b.shortEntry(274, 6));
    b.exif.push_back(b.shortEntry(40962, 10));
    std::string block = b.build();
    std::string why;
    const auto ifd0 = ExifReader(block).ifd(8, why);
    ASSERT_TRUE(ifd0);
    // The Exif IFD starts on the padding of IFD0's orientation entry (which reads as no entries).
    block.replace(ifd0->find(exif_tag::kExifIfd)->at + 8, 4, b.u32(8 + 2 + 10));
    const ExifEdited edited = editExif(block, ExifEdit{1, 640, 480});
    ASSERT_FALSE(edited.notes.empty());
    EXPECT_EQ(edited.notes[0], "EXIF: the Exif sub-IFD does not parse (it overlaps another IFD); left out");
    EXPECT_EQ(exifOrientation(edited.block), 1);
    EXPECT_EQ(editExif(edited.block, ExifEdit{1, 640, 480}).block, edited.block);
}

TEST(ExifBlock, ARewrittenIfd0KeepsClearOfAMissingNextOffset)
{
    ExifBuilder b(true);
    b.ifd0.push_back(b.shortEntry(256, 64));
    b.ifd0.push_back(b.shortEntry(274, 3));
    std::string block = b.build();
    block.resize(block.size() - 4);  // IFD0 ends with the block: no next-IFD offset
    const ExifEdited edited = editExif(block, ExifEdit{});
    ASSERT_FALSE(edited.block.empty());
    const ExifReader r(edited.block);
    EXPECT_GE(r.ifd0Offset(), block.size() + 4);
    EXPECT_EQ(exifOrientation(edited.block), 3);
    // The old IFD0's next-IFD offset reads as 0, not as the copy's first bytes.
    std::string why;
    EXPECT_EQ(r.ifd(8, why)->next, 0u);
    EXPECT_EQ(editExif(edited.block, ExifEdit{}).block, edited.block);
}

TEST(ExifBlock, PatchesInPlaceAndUnlinksTheThumbnail)
{
    for (const bool be : {false, true}) {
        ExifBuilder b(be);
        b.ifd0.push_back(ExifBuilder::asciiEntry(271, "A maker with a long name"));
        b.ifd0.push_back(b.shortEntry(274, 8));
        b.exif.push_back(ExifBuilder::undefinedEntry(37500, std::string(300, 'M')));
        b.exif.push_back(b.shortEntry(40962, 4000));
        b.exif.push_back(b.longEntry(40963, 3000));
        b.thumbnail = std::string(500, 'T');
        const std::string block = b.build();
        std::string before;
        ASSERT_NE(ExifReader(block).ifd(8, before).value().next, 0u);

        const ExifEdited edited = editExif(block, ExifEdit{1, 1234, 567});
        // IFD1 and the thumbnail were the last things in the block: they are cut off.
        ASSERT_EQ(edited.block.size(), block.size() - 500 - (2 + 2 * 12 + 4));
        EXPECT_EQ(edited.block.find(std::string(500, 'T')), std::string::npos);
        ASSERT_EQ(edited.notes.size(), 1u);
        EXPECT_EQ(edited.notes[0], "EXIF: thumbnail (IFD1) left out");
        EXPECT_EQ(exifOrientation(edited.block), 1);
        const ExifReader r(edited.block);
        std::string why;
        const auto ifd0 = r.ifd(r.ifd0Offset(), why);
        ASSERT_TRUE(ifd0);
        EXPECT_EQ(r.ifd0Offset(), 8u);
        EXPECT_EQ(ifd0->next, 0u);
        const std::uint32_t exifAt = *r.integer(*ifd0->find(exif_tag::kExifIfd));
        EXPECT_EQ(valueIn(edited.block, exifAt, 40962), 1234u);
        EXPECT_EQ(valueIn(edited.block, exifAt, 40963), 567u);
        // Only the patched value bytes and IFD0's next offset differ.
        std::size_t differing = 0;
        for (std::size_t i = 0; i < edited.block.size(); ++i) {
            differing += block[i] != edited.block[i];
        }
        EXPECT_LE(differing, 2u + 2u + 2u + 4u) << (be ? "MM" : "II");
    }
}

TEST(ExifBlock, AThumbnailWithKeptBytesBehindItIsBlanked)
{
    ExifBuilder b;
    b.ifd0.push_back(ExifBuilder::asciiEntry(271, "Maker name"));
    b.ifd0.push_back(b.shortEntry(274, 6));
    b.thumbnail = std::string(400, 'T');
    std::string block = b.build();
    // Move the maker's name behind the thumbnail.
    const std::uint32_t farAway = static_cast<std::uint32_t>(block.size());
    block += std::string("Far away maker", 15);
    block += '\0';
    std::string why;
    const auto ifd0 = ExifReader(block).ifd(8, why);
    ASSERT_TRUE(ifd0);
    const ExifEntry* make = ifd0->find(271);
    block.replace(make->at + 4, 8, b.u32(15) + b.u32(farAway));

    const ExifEdited edited = editExif(block, ExifEdit{});
    ASSERT_EQ(edited.block.size(), block.size());
    EXPECT_EQ(edited.block.find(std::string(400, 'T')), std::string::npos);
    EXPECT_EQ(edited.block.substr(block.find(std::string(400, 'T')), 400), std::string(400, '\0'));
    EXPECT_EQ(edited.block.substr(farAway, 14), "Far away maker");
    EXPECT_EQ(exifOrientation(edited.block), 6);
}

TEST(ExifBlock, DimensionsOutgrowingAShortBecomeALong)
{
    ExifBuilder b(true);
    b.exif.push_back(b.shortEntry(40962, 100));
    b.exif.push_back(b.shortEntry(40963, 100));
    const ExifEdited edited = editExif(b.build(), ExifEdit{std::nullopt, 70000, 65535});
    EXPECT_TRUE(edited.notes.empty());
    const ExifReader r(edited.block);
    std::string why;
    const auto ifd0 = r.ifd(r.ifd0Offset(), why);
    const auto exif = r.ifd(*r.integer(*ifd0->find(exif_tag::kExifIfd)), why);
    ASSERT_TRUE(exif);
    EXPECT_EQ(exif->find(40962)->type, 4);
    EXPECT_EQ(r.integer(*exif->find(40962)), 70000u);
    EXPECT_EQ(exif->find(40963)->type, 3);
    EXPECT_EQ(r.integer(*exif->find(40963)), 65535u);
}

TEST(ExifBlock, ADimensionOfAnotherTypeIsReportedAndLeft)
{
    ExifBuilder b;
    b.exif.push_back(ExifBuilder::asciiEntry(40962, "100"));
    const std::string block = b.build();
    const ExifEdited edited = editExif(block, ExifEdit{std::nullopt, 640, 480});
    ASSERT_EQ(edited.notes.size(), 1u);
    EXPECT_EQ(edited.notes[0], "EXIF: PixelXDimension is not one SHORT or LONG and cannot hold 640; left as it was");
    EXPECT_EQ(edited.block, block);
}

TEST(ExifBlock, StructureTagsLeaveIfd0AndEverythingElseStaysReachable)
{
    for (const bool be : {false, true}) {
        ExifBuilder b(be);
        b.ifd0.push_back(b.shortEntry(256, 4000));
        b.ifd0.push_back(b.shortEntry(257, 3000));
        b.ifd0.push_back({258, 3, 3, b.u16(8) + b.u16(8) + b.u16(8)});
        b.ifd0.push_back(ExifBuilder::asciiEntry(271, "Maker of cameras"));
        b.ifd0.push_back(b.shortEntry(274, 6));
        b.ifd0.push_back(b.longEntry(273, 12345));
        b.ifd0.push_back(b.longEntry(279, 999));
        b.ifd0.push_back(ExifBuilder::undefinedEntry(34675, std::string(64, 'C')));
        b.exif.push_back(b.shortEntry(40962, 4000));
        const std::string block = b.build();

        const ExifEdited edited = editExif(block, ExifEdit{});
        ASSERT_EQ(edited.notes.size(), 1u);
        EXPECT_EQ(edited.notes[0], "EXIF: TIFF structure tags left out: ImageWidth, ImageLength, BitsPerSample, "
                                   "StripOffsets, StripByteCounts, InterColorProfile (ICC)");
        // The old bytes are all still there, the new IFD0 behind them.
        ASSERT_GT(edited.block.size(), block.size());
        EXPECT_EQ(edited.block.substr(8, block.size() - 8), block.substr(8));
        const ExifReader r(edited.block);
        EXPECT_GE(r.ifd0Offset(), block.size());
        EXPECT_EQ(r.ifd0Offset() % 2, 0u);
        std::string why;
        const auto ifd0 = r.ifd(r.ifd0Offset(), why);
        ASSERT_TRUE(ifd0) << why;
        ASSERT_EQ(ifd0->entries.size(), 3u);
        EXPECT_EQ(ifd0->entries[0].tag, 271);
        EXPECT_EQ(edited.block.substr(*ifd0->entries[0].valueAt, 16), "Maker of cameras");
        EXPECT_EQ(exifOrientation(edited.block), 6);  // not asked to change
        const std::uint32_t exifAt = *r.integer(*ifd0->find(exif_tag::kExifIfd));
        EXPECT_EQ(valueIn(edited.block, exifAt, 40962), 4000u);
        // Editing again finds nothing more to drop.
        const ExifEdited again = editExif(edited.block, ExifEdit{});
        EXPECT_TRUE(again.notes.empty());
        EXPECT_EQ(again.block, edited.block);
    }
}

}  // namespace
}  // namespace tessera::app
