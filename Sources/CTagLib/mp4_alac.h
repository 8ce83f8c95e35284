#ifndef QPLAY_MP4_ALAC_H
#define QPLAY_MP4_ALAC_H
// ALAC in an MP4 file whose sample description TagLib 1.13 does not take: it reads the
// ALAC magic cookie only when the `stsd` box is exactly 88 bytes, and ffmpeg's `mp4`
// muxer (`ffmpeg -i x.flac -c:a alac out.mp4`, or remuxing into `.m4b`) adds a `btrt`
// box after it. TagLib then reports no sample rate: the rate, channels and depth come
// from the cookie here instead.
#include <taglib/mp4atom.h>
#include <taglib/mp4file.h>
#include <taglib/tbytevector.h>

namespace qplay {

// The cookie of the first sound track's `alac` sample entry: false when there is none.
inline bool mp4_alac_cookie(TagLib::MP4::File *file, int *rate, int *channels, int *bits) {
    TagLib::MP4::Atoms atoms(file);
    TagLib::MP4::Atom *moov = atoms.find("moov");
    if (!moov) return false;
    for (TagLib::MP4::Atom *trak : moov->findall("trak")) {
        TagLib::MP4::Atom *hdlr = trak->find("mdia", "hdlr");
        TagLib::MP4::Atom *stsd = trak->find("mdia", "minf", "stbl", "stsd");
        if (!hdlr || !stsd) continue;
        file->seek(hdlr->offset);
        if (!file->readBlock(hdlr->length).containsAt("soun", 16)) continue;
        // stsd: header, version and flags, entry count; the entry's header; a sound
        // sample entry of 28 bytes; then the `alac` box: its header, version and flags,
        // and the cookie (frame length 4, compatible version 1, bit depth 1, three tuning
        // bytes, channels 1, max run 2, max frame bytes 4, average bit rate 4, rate 4).
        if (stsd->length < 88 || stsd->length > 4096) return false;
        file->seek(stsd->offset);
        const TagLib::ByteVector data = file->readBlock(stsd->length);
        if (data.size() < 88 || !data.containsAt("alac", 20) || !data.containsAt("alac", 56)) return false;
        *bits = static_cast<unsigned char>(data[69]);
        *channels = static_cast<unsigned char>(data[73]);
        *rate = static_cast<int>(data.toUInt(84U, true));
        return *rate > 0 && *channels > 0 && *bits > 0;
    }
    return false;
}

}  // namespace qplay

#endif
