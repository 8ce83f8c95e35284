#ifndef QPLAY_MP4_AAC_H
#define QPLAY_MP4_AAC_H
// The channel count of AAC in an MP4 file, from the stream's own AudioSpecificConfig
// (in the `esds` box). TagLib 1.13 reports the `mp4a` sample entry's channel field,
// which ISO MP4 reserves: ffmpeg's `mp4` muxer writes 2 there whatever the stream, so
// a mono AAC file read as stereo.
#include <taglib/mp4atom.h>
#include <taglib/mp4file.h>
#include <taglib/tbytevector.h>

namespace qplay {

// A descriptor's length (MPEG-4 Systems: up to four bytes of 7 bits each); -1 past `end`.
inline long mp4_descriptor_length(const TagLib::ByteVector &data, unsigned int &at, unsigned int end) {
    long length = 0;
    for (int count = 0; count < 4; count++) {
        if (at >= end) return -1;
        const unsigned char byte = static_cast<unsigned char>(data[at++]);
        length = (length << 7) | (byte & 0x7F);
        if (!(byte & 0x80)) return length;
    }
    return length;
}

// The channels the first sound track's AAC config names; 0 when there is no such track
// or the config leaves them to a program config element (channel configuration 0).
inline int mp4_aac_channels(TagLib::MP4::File *file) {
    TagLib::MP4::Atoms atoms(file);
    TagLib::MP4::Atom *moov = atoms.find("moov");
    if (!moov) return 0;
    for (TagLib::MP4::Atom *trak : moov->findall("trak")) {
        TagLib::MP4::Atom *hdlr = trak->find("mdia", "hdlr");
        TagLib::MP4::Atom *stsd = trak->find("mdia", "minf", "stbl", "stsd");
        if (!hdlr || !stsd) continue;
        file->seek(hdlr->offset);
        if (!file->readBlock(hdlr->length).containsAt("soun", 16)) continue;
        if (stsd->length < 64 || stsd->length > 65536) return 0;
        file->seek(stsd->offset);
        const TagLib::ByteVector data = file->readBlock(stsd->length);
        // stsd: header, version and flags, entry count; the `mp4a` entry's header, its
        // 28 bytes of sound sample entry (more in QuickTime's versions), then `esds`.
        if (!data.containsAt("mp4a", 20)) return 0;
        const int esds = data.find("esds", 52);
        if (esds < 0) return 0;
        const unsigned int end = data.size();
        unsigned int at = static_cast<unsigned int>(esds) + 8;  // type, version and flags
        // ES_Descriptor: id, flags, and what the flags say follows.
        if (at >= end || static_cast<unsigned char>(data[at++]) != 0x03) return 0;
        if (mp4_descriptor_length(data, at, end) < 0 || at + 3 > end) return 0;
        at += 2;
        const unsigned char flags = static_cast<unsigned char>(data[at++]);
        if (flags & 0x80) at += 2;
        if ((flags & 0x40) && at < end) at += 1 + static_cast<unsigned char>(data[at]);
        if (flags & 0x20) at += 2;
        // DecoderConfigDescriptor: 13 bytes, then DecoderSpecificInfo.
        if (at >= end || static_cast<unsigned char>(data[at++]) != 0x04) return 0;
        if (mp4_descriptor_length(data, at, end) < 0) return 0;
        at += 13;
        if (at >= end || static_cast<unsigned char>(data[at++]) != 0x05) return 0;
        if (mp4_descriptor_length(data, at, end) < 0 || at + 2 > end) return 0;
        // AudioSpecificConfig: object type (5 bits, or 6 more after 31), rate index
        // (4 bits, or a 24-bit rate after 15), channel configuration (4 bits).
        unsigned long long bits = 0;
        int have = 0;
        for (unsigned int byte = at; byte < end && have < 56; byte++, have += 8)
            bits = (bits << 8) | static_cast<unsigned char>(data[byte]);
        int used = 0;
        auto take = [&](int count) -> int {
            used += count;
            return used > have ? -1 : static_cast<int>((bits >> (have - used)) & ((1ULL << count) - 1));
        };
        int type = take(5);
        if (type == 31) type = 32 + take(6);
        if (take(4) == 15) take(24);
        const int configuration = take(4);
        if (configuration < 0) return 0;
        // Parametric stereo: one channel coded, two decoded.
        if (type == 29) return 2;
        if (configuration >= 1 && configuration <= 6) return configuration;
        return configuration == 7 ? 8 : 0;
    }
    return 0;
}

}  // namespace qplay

#endif
