// SPDX-License-Identifier: Apache-2.0
// The EXIF walker and patcher see every input's EXIF block: they must never crash or loop,
// and what they write must read back as asked: an orientation set to 1 reads 1, IFD0 holds no
// TIFF structure tag and links no thumbnail, and editing the result again changes nothing.
#include "app/io/exif_block.h"
#include "app/io/output_metadata.h"

#include <cstdlib>
#include <string>
#include <string_view>

using namespace tessera::app;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view block(reinterpret_cast<const char*>(data), size);
    const int orientation = exifOrientation(block);
    if (orientation < 0 || orientation > 8) {
        std::abort();
    }
    const ExifEdited edited = editExif(block, ExifEdit{1, 70000, 480});
    if (edited.block.empty()) {
        if (edited.notes.empty() || orientation != 0) {
            std::abort();  // a block left out says why, and one that was left out had no orientation
        }
        return 0;
    }
    const int after = exifOrientation(edited.block);
    if ((orientation != 0 && after != 1) || (after != 0 && after != 1)) {
        std::abort();
    }
    const ExifReader reader(edited.block);
    std::string why;
    const auto ifd0 = reader.ifd(reader.ifd0Offset(), why);
    if (!ifd0 || ifd0->next != 0) {
        std::abort();
    }
    for (const ExifEntry& e : ifd0->entries) {
        if (!tiffStructureTagName(e.tag).empty()) {
            std::abort();
        }
    }
    const ExifEdited again = editExif(edited.block, ExifEdit{1, 70000, 480});
    if (again.block != edited.block) {
        std::abort();
    }
    // The whole preparation, with the same bytes as XMP too.
    ImageMetadata m;
    m.exif.assign(block);
    m.xmp.assign(block);
    const PreparedMetadata prepared = prepareOutputMetadata(m, 3, 5, true);
    if (prepared.parts.orientation != 1) {
        std::abort();
    }
    return 0;
}
