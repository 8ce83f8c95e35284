#ifndef QPLAY_SHIM_FILES_H
#define QPLAY_SHIM_FILES_H
// What the tag reader (qplay_taglib.cpp) and the picture reader (qplay_picture.cpp) both
// do to a file: keep TagLib quiet, find where the audio starts, open the parser of a kind.
#include "qplay_taglib.h"
#include "adts_length.h"
#include "budget_stream.h"

#include <sys/types.h>
#include <unistd.h>

#include <taglib/aifffile.h>
#include <taglib/audioproperties.h>
#include <taglib/flacfile.h>
#include <taglib/id3v2framefactory.h>
#include <taglib/mp4file.h>
#include <taglib/mpegfile.h>
#include <taglib/opusfile.h>
#include <taglib/tdebuglistener.h>
#include <taglib/vorbisfile.h>
#include <taglib/wavfile.h>
#include <taglib/wavpackfile.h>

namespace qplay {

// TagLib describes every malformed frame on stderr; the scanner reports bad files itself.
class SilentListener : public TagLib::DebugListener {
public:
    void printMessage(const TagLib::String &) override {}
};

inline void silence_taglib() {
    static SilentListener listener;
    static bool installed = [] {
        TagLib::setDebugListener(&listener);
        return true;
    }();
    (void)installed;
}

// Where the audio starts after a leading ID3v2 tag (0 without one), as the decoders'
// reader (BudgetedReader) finds it.
inline off_t leading_tag_size(int fd) {
    unsigned char header[10];
    if (::pread(fd, header, 10, 0) != 10 || header[0] != 'I' || header[1] != 'D' || header[2] != '3' ||
        header[3] == 0xFF || header[4] == 0xFF || ((header[6] | header[7] | header[8] | header[9]) & 0x80) != 0) {
        return 0;
    }
    const off_t footer = (header[5] & 0x10) ? 10 : 0;
    return 10 + ((off_t(header[6]) << 21) | (off_t(header[7]) << 14) | (off_t(header[8]) << 7) | header[9]) + footer;
}

// TagLib's parser for `kind`; nullptr for QP_KIND_NONE or a kind this shim does not know.
inline TagLib::File *open_kind(qplay::BudgetStream *stream, qp_tag_kind kind) {
    const auto style = TagLib::AudioProperties::Average;
    switch (kind) {
    case QP_KIND_MPEG: return new TagLib::MPEG::File(stream, TagLib::ID3v2::FrameFactory::instance(), true, style);
    case QP_KIND_FLAC: return new TagLib::FLAC::File(stream, TagLib::ID3v2::FrameFactory::instance(), true, style);
    case QP_KIND_OGG_VORBIS: return new TagLib::Ogg::Vorbis::File(stream, true, style);
    case QP_KIND_OGG_OPUS: return new TagLib::Ogg::Opus::File(stream, true, style);
    case QP_KIND_MP4:
        if (qplay::starts_as_mp4(stream)) return new TagLib::MP4::File(stream, true, style);
        return new TagLib::MPEG::File(stream, TagLib::ID3v2::FrameFactory::instance(), true, style);  // ADTS
    case QP_KIND_WAV: return new TagLib::RIFF::WAV::File(stream, true, style);
    case QP_KIND_AIFF: return new TagLib::RIFF::AIFF::File(stream, true, style);
    case QP_KIND_WAVPACK: return new TagLib::WavPack::File(stream, true, style);
    default: return nullptr;
    }
}

}  // namespace qplay

#endif
