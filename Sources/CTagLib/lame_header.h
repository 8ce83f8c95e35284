#ifndef QPLAY_LAME_HEADER_H
#define QPLAY_LAME_HEADER_H
// MP3's exact length: the Xing/Info header and LAME extension of the first frame.
#include "qplay_taglib.h"

#include <taglib/mpegfile.h>
#include <taglib/tbytevector.h>

namespace qplay {

inline unsigned long be32(const unsigned char *p) {
    return (static_cast<unsigned long>(p[0]) << 24) | (static_cast<unsigned long>(p[1]) << 16) |
           (static_cast<unsigned long>(p[2]) << 8) | static_cast<unsigned long>(p[3]);
}

// Reads the Xing/Info header and its LAME extension in the first MPEG frame. TagLib
// exposes the frame count but not the encoder delay and padding, which give the exact
// (gapless) length libmpg123 plays; the byte count tells a cut-short file.
inline void read_lame_header(TagLib::MPEG::File *file, qp_tag_info *out) {
    const long first = file->firstFrameOffset();
    if (first < 0) return;
    const long long length = file->length();
    out->present_audio_bytes = length - first;
    file->seek(first);
    const TagLib::ByteVector block = file->readBlock(256);
    if (block.size() < 4) return;
    const unsigned char *h = reinterpret_cast<const unsigned char *>(block.data());
    if (h[0] != 0xFF || (h[1] & 0xE0) != 0xE0) return;
    const int version = (h[1] >> 3) & 3;  // 3: MPEG-1, 2: MPEG-2, 0: MPEG-2.5
    const int layer = (h[1] >> 1) & 3;    // 3: layer I, 2: layer II, 1: layer III
    const int mode = (h[3] >> 6) & 3;     // 3: mono
    if (version == 1 || layer == 0) return;
    const bool mpeg1 = version == 3;
    long samples_per_frame = 1152;
    if (layer == 3) samples_per_frame = 384;
    else if (layer == 1 && !mpeg1) samples_per_frame = 576;
    const unsigned side = mpeg1 ? (mode == 3 ? 17 : 32) : (mode == 3 ? 9 : 17);
    unsigned pos = 4 + side;
    if (block.size() < pos + 8) return;
    const unsigned char *x = h + pos;
    const bool xing = std::memcmp(x, "Xing", 4) == 0 || std::memcmp(x, "Info", 4) == 0;
    if (!xing) return;
    const unsigned long flags = be32(x + 4);
    pos += 8;
    long long frames = -1;
    if (flags & 1) {
        if (block.size() < pos + 4) return;
        frames = be32(h + pos);
        pos += 4;
    }
    if (flags & 2) {
        if (block.size() < pos + 4) return;
        out->promised_audio_bytes = be32(h + pos);
        pos += 4;
    }
    if (flags & 4) pos += 100;  // seek table
    if (flags & 8) pos += 4;    // quality
    // LAME extension: 9 bytes of encoder name, then 12 more bytes, then delay/padding.
    if (frames < 0 || block.size() < pos + 24) return;
    const unsigned char *lame = h + pos;
    if (std::memcmp(lame, "LAME", 4) != 0 && std::memcmp(lame, "Lavc", 4) != 0 &&
        std::memcmp(lame, "Lavf", 4) != 0) return;
    const unsigned char *dp = lame + 21;
    const long delay = (dp[0] << 4) | (dp[1] >> 4);
    const long padding = ((dp[1] & 0x0F) << 8) | dp[2];
    const long long samples = frames * samples_per_frame - delay - padding;
    if (samples > 0) out->exact_samples = samples;
}

}  // namespace qplay

#endif
