#ifndef QPLAY_ADTS_LENGTH_H
#define QPLAY_ADTS_LENGTH_H
// ADTS AAC (AAC frames without a container, `.aac`), which TagLib 1.13 does not read:
// the format table's MP4 kind takes it, its tags come from a leading ID3v2 tag (read by
// TagLib's MPEG parser, which finds no MPEG frame in it) and its properties from the
// frame headers here.
#include "qplay_taglib.h"

#include <taglib/tbytevector.h>
#include <taglib/tiostream.h>

namespace qplay {

// Whether the stream is an MP4 file (an `ftyp` box first) rather than ADTS.
inline bool starts_as_mp4(TagLib::IOStream *stream) {
    stream->seek(0);
    const TagLib::ByteVector head = stream->readBlock(8);
    return head.size() == 8 && head.mid(4, 4) == TagLib::ByteVector("ftyp", 4);
}

// The size of a leading ID3v2 tag (0 without one): "ID3", version, flags, 4 syncsafe
// size bytes, then the tag and an optional 10-byte footer.
inline long leading_id3v2_size(TagLib::IOStream *stream) {
    stream->seek(0);
    const TagLib::ByteVector header = stream->readBlock(10);
    if (header.size() < 10) return 0;
    const unsigned char *h = reinterpret_cast<const unsigned char *>(header.data());
    if (h[0] != 'I' || h[1] != 'D' || h[2] != '3' || h[3] == 0xFF || h[4] == 0xFF || ((h[6] | h[7] | h[8] | h[9]) & 0x80))
        return 0;
    return 10 + ((long(h[6]) << 21) | (long(h[7]) << 14) | (long(h[8]) << 7) | h[9]) + ((h[5] & 0x10) ? 10 : 0);
}

// Rate, channels, length and bit rate from the ADTS frame headers after `start` (past a
// leading ID3v2 tag): 1,024 samples a raw data block. False when no frame is there.
// The length is the frames' (encoder delay and padding included: ADTS does not say).
inline bool adts_properties(TagLib::IOStream *stream, long start, qp_tag_info *out) {
    static const int rates[] = {96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350};
    long position = start;
    long long samples = 0, bytes = 0;
    int rate = 0, channels = 0;
    while (true) {
        stream->seek(position);
        const TagLib::ByteVector header = stream->readBlock(7);
        if (header.size() < 7) break;
        const unsigned char *h = reinterpret_cast<const unsigned char *>(header.data());
        if (h[0] != 0xFF || (h[1] & 0xF6) != 0xF0) break;
        const int rate_index = (h[2] >> 2) & 0x0F;
        const long length = (static_cast<long>(h[3] & 0x03) << 11) | (static_cast<long>(h[4]) << 3) | (h[5] >> 5);
        if (rate_index > 12 || length < 7) break;
        if (rate == 0) {
            rate = rates[rate_index];
            channels = ((h[2] & 0x01) << 2) | (h[3] >> 6);
        }
        samples += 1024LL * ((h[6] & 0x03) + 1);
        bytes += length;
        position += length;
    }
    if (rate == 0 || samples == 0) return false;
    out->sample_rate = rate;
    out->channels = channels > 0 ? channels : 2;  // 0: the channels are in the stream itself
    out->duration_ms = static_cast<int>(samples * 1000 / rate);
    out->bitrate_kbps = static_cast<int>(bytes * 8 * rate / samples / 1000);
    return true;
}

}  // namespace qplay
#endif
