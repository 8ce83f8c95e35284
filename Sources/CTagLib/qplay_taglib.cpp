#include "qplay_taglib.h"
#include "budget_stream.h"
#include "ogg_length.h"
#include "adts_length.h"
#include "mp4_alac.h"
#include "picture_ranges.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

#include <taglib/audioproperties.h>
#include <taglib/fileref.h>
#include <taglib/id3v2framefactory.h>
#include <taglib/flacfile.h>
#include <taglib/flacproperties.h>
#include <taglib/mpegfile.h>
#include <taglib/oggpageheader.h>
#include <taglib/opusfile.h>
#include <taglib/vorbisfile.h>
#include <taglib/mp4file.h>
#include <taglib/wavfile.h>
#include <taglib/aifffile.h>
#include <taglib/wavpackfile.h>
#include <taglib/tdebuglistener.h>
#include <taglib/tfile.h>
#include <taglib/tpropertymap.h>

namespace {

// TagLib describes every malformed frame on stderr; the scanner reports bad files itself.
class SilentListener : public TagLib::DebugListener {
public:
    void printMessage(const TagLib::String &) override {}
};

void silence_taglib() {
    static SilentListener listener;
    static bool installed = [] {
        TagLib::setDebugListener(&listener);
        return true;
    }();
    (void)installed;
}

char *copy_string(const TagLib::String &s) {
    if (s.isEmpty()) return nullptr;
    std::string utf8 = s.to8Bit(true);
    char *out = static_cast<char *>(std::malloc(utf8.size() + 1));
    if (!out) return nullptr;
    std::memcpy(out, utf8.data(), utf8.size() + 1);
    return out;
}

// Multiple values of one property (two artists, say) are joined the way MPD shows them.
char *property(const TagLib::PropertyMap &map, const char *key) {
    auto it = map.find(key);
    if (it == map.end() || it->second.isEmpty()) return nullptr;
    return copy_string(it->second.toString("; "));
}

// "3/12" → 3 and 12; "3" → 3 and 0; garbage → 0.
void number_pair(const TagLib::PropertyMap &map, const char *key, int *n, int *total) {
    auto it = map.find(key);
    if (it == map.end() || it->second.isEmpty()) return;
    std::string s = it->second.front().to8Bit(true);
    const char *p = s.c_str();
    char *end = nullptr;
    long v = std::strtol(p, &end, 10);
    if (end != p && v > 0 && v < 100000) *n = static_cast<int>(v);
    if (end && *end == '/') {
        const char *q = end + 1;
        long t = std::strtol(q, &end, 10);
        if (end != q && t > 0 && t < 100000) *total = static_cast<int>(t);
    }
}

// ReplayGain values look like "-6.20 dB" or "0.501000".
void gain_value(const TagLib::PropertyMap &map, const char *key, int *has, double *value) {
    auto it = map.find(key);
    if (it == map.end() || it->second.isEmpty()) return;
    std::string s = it->second.front().to8Bit(true);
    const char *p = s.c_str();
    char *end = nullptr;
    double v = std::strtod(p, &end);
    if (end != p) {
        *has = 1;
        *value = v;
    }
}

// Opus's R128_TRACK_GAIN / R128_ALBUM_GAIN (RFC 7845 section 5.2.1): an integer in 1/256 dB
// relative to -23 LUFS. ReplayGain's reference is -18 LUFS, 5 dB louder.
void r128_gain(const TagLib::PropertyMap &map, const char *key, int *has, double *value) {
    auto it = map.find(key);
    if (it == map.end() || it->second.isEmpty()) return;
    std::string s = it->second.front().to8Bit(true);
    const char *p = s.c_str();
    char *end = nullptr;
    long v = std::strtol(p, &end, 10);
    while (end && (*end == ' ' || *end == '\t')) end++;
    if (end == p || *end != '\0' || v < -32768 || v > 32767) return;
    *has = 1;
    *value = static_cast<double>(v) / 256.0 + 5.0;
}

int year_of(const TagLib::PropertyMap &map) {
    auto it = map.find("DATE");
    if (it == map.end() || it->second.isEmpty()) return 0;
    std::string s = it->second.front().to8Bit(true);
    long v = std::strtol(s.c_str(), nullptr, 10);  // "2024-05-01" → 2024
    return (v > 0 && v < 10000) ? static_cast<int>(v) : 0;
}

unsigned long be32(const unsigned char *p) {
    return (static_cast<unsigned long>(p[0]) << 24) | (static_cast<unsigned long>(p[1]) << 16) |
           (static_cast<unsigned long>(p[2]) << 8) | static_cast<unsigned long>(p[3]);
}

// Reads the Xing/Info header and its LAME extension in the first MPEG frame. TagLib
// exposes the frame count but not the encoder delay and padding, which give the exact
// (gapless) length libmpg123 plays; the byte count tells a cut-short file.
void read_lame_header(TagLib::MPEG::File *file, qp_tag_info *out) {
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

// Vorbis and Opus: the exact length from the pages (see ogg_length.h); 0 when the pages
// do not tell (a chained or damaged file keeps TagLib's length).
long long ogg_samples(TagLib::Ogg::File *file, bool opus) {
    const TagLib::Ogg::PageHeader *first = file->firstPageHeader();
    if (!first) return 0;
    const unsigned serial = first->streamSerialNumber();
    const long long length = file->length();
    const TagLib::ByteVector ident = file->packet(0);
    long long start;
    long long pre_skip = 0;
    if (opus) {
        if (ident.size() < 19) return 0;
        pre_skip = static_cast<unsigned char>(ident[10]) | (static_cast<unsigned char>(ident[11]) << 8);
        qplay::ogg::OpusPacketSamples samples;
        start = qplay::ogg::start_granule(file, length, serial, 2, samples);
    } else {
        qplay::ogg::VorbisPacketSamples samples;
        if (!samples.load(ident, file->packet(2))) return 0;
        start = qplay::ogg::start_granule(file, length, serial, 3, samples);
    }
    const long long last = qplay::ogg::last_granule(file, length, serial);
    if (start < 0 || last < 0) return 0;
    const long long total = last - start - pre_skip;
    return total > 0 ? total : 0;
}

// FFmpeg's formats: the depth of the lossless ones (not AAC's: a decoder's choice) and
// the exact length: the sample count of WAV, AIFF and WavPack, and for MP4 iTunes's
// gapless tag (iTunSMPB: delay, padding and the original length, in hex).
void lossless_properties(TagLib::File *file, qp_tag_info *out) {
    if (auto *mp4 = dynamic_cast<TagLib::MP4::File *>(file)) {
        // ReplayGain in iTunes freeform atoms (----:com.apple.iTunes:replaygain_track_gain,
        // any case), which TagLib's property map leaves out.
        if (mp4->tag()) {
            TagLib::PropertyMap freeform;
            const TagLib::String prefix = "----:com.apple.iTunes:";
            for (const auto &item : mp4->tag()->itemMap()) {
                if (item.first.startsWith(prefix)) freeform.insert(item.first.substr(prefix.size()).upper(), item.second.toStringList());
            }
            gain_value(freeform, "REPLAYGAIN_TRACK_GAIN", &out->has_track_gain, &out->track_gain);
            gain_value(freeform, "REPLAYGAIN_TRACK_PEAK", &out->has_track_peak, &out->track_peak);
            gain_value(freeform, "REPLAYGAIN_ALBUM_GAIN", &out->has_album_gain, &out->album_gain);
            gain_value(freeform, "REPLAYGAIN_ALBUM_PEAK", &out->has_album_peak, &out->album_peak);
        }
        auto *props = mp4->audioProperties();
        if (props && props->codec() == TagLib::MP4::Properties::ALAC) out->bits_per_sample = props->bitsPerSample();
        const TagLib::MP4::Item smpb = mp4->tag() ? mp4->tag()->item("----:com.apple.iTunes:iTunSMPB") : TagLib::MP4::Item();
        if (smpb.isValid() && !smpb.toStringList().isEmpty()) {
            unsigned zero = 0, delay = 0, padding = 0;
            unsigned long long frames = 0;
            const std::string text = smpb.toStringList().front().to8Bit(true);
            if (std::sscanf(text.c_str(), " %x %x %x %llx", &zero, &delay, &padding, &frames) == 4 && frames > 0)
                out->exact_samples = static_cast<long long>(frames);
        }
    } else if (auto *wav = dynamic_cast<TagLib::RIFF::WAV::File *>(file)) {
        out->bits_per_sample = wav->audioProperties()->bitsPerSample();
        out->exact_samples = wav->audioProperties()->sampleFrames();
    } else if (auto *aiff = dynamic_cast<TagLib::RIFF::AIFF::File *>(file)) {
        out->bits_per_sample = aiff->audioProperties()->bitsPerSample();
        out->exact_samples = aiff->audioProperties()->sampleFrames();
    } else if (auto *wavpack = dynamic_cast<TagLib::WavPack::File *>(file)) {
        out->bits_per_sample = wavpack->audioProperties()->bitsPerSample();
        out->exact_samples = wavpack->audioProperties()->sampleFrames();
    }
}

// Where the audio starts after a leading ID3v2 tag (0 without one), as the decoders'
// reader (BudgetedReader) finds it.
off_t leading_tag_size(int fd) {
    unsigned char header[10];
    if (::pread(fd, header, 10, 0) != 10 || header[0] != 'I' || header[1] != 'D' || header[2] != '3' ||
        header[3] == 0xFF || header[4] == 0xFF || ((header[6] | header[7] | header[8] | header[9]) & 0x80) != 0) {
        return 0;
    }
    const off_t footer = (header[5] & 0x10) ? 10 : 0;
    return 10 + ((off_t(header[6]) << 21) | (off_t(header[7]) << 14) | (off_t(header[8]) << 7) | header[9]) + footer;
}

// Whether the 256 KB after a leading ID3v2 tag are all zero bytes: no audio format
// starts so, and TagLib would search a file of zeros (a sparse 2 GB one, say) to its
// end for a frame, holding a scanner thread for many seconds.
bool starts_with_zeros(int fd, off_t start) {
    static thread_local unsigned char window[64 * 1024];
    const off_t limit = start + 256 * 1024;
    bool read_any = false;
    for (off_t offset = start; offset < limit; offset += sizeof(window)) {
        ssize_t got = ::pread(fd, window, sizeof(window), offset);
        if (got <= 0) break;
        read_any = true;
        for (ssize_t i = 0; i < got; i++) {
            if (window[i] != 0) return false;
        }
    }
    return read_any;
}

// TagLib's parser for `kind`; nullptr for QP_KIND_NONE or a kind this shim does not know.
TagLib::File *open_kind(qplay::BudgetStream *stream, qp_tag_kind kind) {
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

// Reads tags and properties through `stream`. A read past the budget throws out of TagLib
// (an empty read would look like the end of the file to some of its loops and to none of
// its length checks); what TagLib built by then is dropped with the exception.
qp_tag_status read_stream(qplay::BudgetStream *stream, qp_tag_kind kind, qp_tag_info *out) {
    try {
        std::unique_ptr<TagLib::File> owned;
        TagLib::FileRef detected;
        TagLib::File *file = nullptr;
        if (kind == QP_KIND_DETECTED) {
            // The stream has no name here (see qp_tag_read): FileRef finds no type by an
            // extension and detects it from the content.
            detected = TagLib::FileRef(stream, true, TagLib::AudioProperties::Average);
            file = detected.file();
            if (!file) return QP_TAG_INVALID;
        } else {
            owned.reset(open_kind(stream, kind));
            if (!owned) return QP_TAG_NOT_CHOSEN;
            file = owned.get();
        }
        if (!file->isValid()) return QP_TAG_INVALID;
        TagLib::AudioProperties *props = file->audioProperties();
        // ADTS: TagLib's MPEG parser read its ID3v2 tag and no properties (see adts_length.h).
        const bool adts = kind == QP_KIND_MP4 && dynamic_cast<TagLib::MPEG::File *>(file);
        // ALAC that TagLib reads no properties of (see mp4_alac.h): the cookie's.
        int alac_rate = 0, alac_channels = 0, alac_bits = 0;
        auto *mp4 = dynamic_cast<TagLib::MP4::File *>(file);
        if (mp4 && props && props->sampleRate() <= 0)
            qplay::mp4_alac_cookie(mp4, &alac_rate, &alac_channels, &alac_bits);
        if (!adts && (!props || (props->sampleRate() <= 0 && alac_rate <= 0))) return QP_TAG_NOT_AUDIO;
        auto *mpeg = adts ? nullptr : dynamic_cast<TagLib::MPEG::File *>(file);
        auto *flac = dynamic_cast<TagLib::FLAC::File *>(file);
        auto *vorbis = dynamic_cast<TagLib::Ogg::Vorbis::File *>(file);
        auto *opus = dynamic_cast<TagLib::Ogg::Opus::File *>(file);

        const TagLib::PropertyMap map = file->properties();
        out->title = property(map, "TITLE");
        out->artist = property(map, "ARTIST");
        out->album = property(map, "ALBUM");
        out->album_artist = property(map, "ALBUMARTIST");
        out->genre = property(map, "GENRE");
        number_pair(map, "TRACKNUMBER", &out->track, &out->track_total);
        number_pair(map, "DISCNUMBER", &out->disc, &out->disc_total);
        // Vorbis comments keep totals apart ("TRACKNUMBER=1", "TRACKTOTAL=2").
        int unused = 0;
        if (!out->track_total) number_pair(map, "TRACKTOTAL", &out->track_total, &unused);
        if (!out->track_total) number_pair(map, "TOTALTRACKS", &out->track_total, &unused);
        if (!out->disc_total) number_pair(map, "DISCTOTAL", &out->disc_total, &unused);
        if (!out->disc_total) number_pair(map, "TOTALDISCS", &out->disc_total, &unused);
        out->year = year_of(map);
        gain_value(map, "REPLAYGAIN_TRACK_GAIN", &out->has_track_gain, &out->track_gain);
        gain_value(map, "REPLAYGAIN_TRACK_PEAK", &out->has_track_peak, &out->track_peak);
        gain_value(map, "REPLAYGAIN_ALBUM_GAIN", &out->has_album_gain, &out->album_gain);
        gain_value(map, "REPLAYGAIN_ALBUM_PEAK", &out->has_album_peak, &out->album_peak);
        if (opus) {
            // Opus's own loudness tags win over REPLAYGAIN_* ones a tagger may add.
            r128_gain(map, "R128_TRACK_GAIN", &out->has_track_gain, &out->track_gain);
            r128_gain(map, "R128_ALBUM_GAIN", &out->has_album_gain, &out->album_gain);
        }

        // TagLib computes these from header fields; damaged headers can give negative
        // numbers (INT_MIN ms), which mean "unknown" like 0.
        if (adts) {
            if (!qplay::adts_properties(stream, qplay::leading_id3v2_size(stream), out)) {
                qp_tag_info_free(out);
                return QP_TAG_NOT_AUDIO;
            }
        } else {
            out->duration_ms = std::max(0, props->lengthInMilliseconds());
            out->bitrate_kbps = std::max(0, props->bitrate());
            out->sample_rate = props->sampleRate();
            out->channels = props->channels();
        }
        if (mpeg) read_lame_header(mpeg, out);
        if (flac) {
            auto *flacProps = static_cast<TagLib::FLAC::Properties *>(props);
            out->bits_per_sample = flacProps->bitsPerSample();
            out->exact_samples = static_cast<long long>(flacProps->sampleFrames());
        }
        if (vorbis) out->exact_samples = ogg_samples(vorbis, false);
        if (opus) {
            out->sample_rate = 48000;  // what libopusfile decodes to; the tag is the input's
            out->exact_samples = ogg_samples(opus, true);
        }
        lossless_properties(file, out);
        if (alac_rate > 0) {
            out->sample_rate = alac_rate;
            out->channels = alac_channels;
            out->bits_per_sample = alac_bits;
        }
        return QP_TAG_OK;
    } catch (const qplay::BudgetExceeded &exceeded) {
        qp_tag_info_free(out);
        return exceeded.time ? QP_TAG_TIME_BUDGET : QP_TAG_BYTE_BUDGET;
    } catch (...) {
        qp_tag_info_free(out);
        return QP_TAG_FAILED;
    }
}

}  // namespace

extern "C" qp_tag_status qp_tag_read(const char *path, const qp_tag_budget *budget, int head_capacity,
                                     qp_tag_chooser choose, void *context, qp_tag_info *out, int *err_no) {
    std::memset(out, 0, sizeof(*out));
    silence_taglib();
    if (err_no) *err_no = 0;
    // Read-only (TagLib's FileRef(path) would open it for writing), non-blocking, and
    // only regular files: a FIFO or device put in place of a file after the walk saw it
    // would block or never end a scanner thread. TagLib reports an unreadable file the
    // same way as an unknown format; opening it here also tells the scanner which.
    int fd = ::open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
        if (err_no) *err_no = errno;
        return QP_TAG_UNREADABLE;
    }
    struct stat info;
    if (::fstat(fd, &info) != 0) {
        if (err_no) *err_no = errno;
        ::close(fd);
        return QP_TAG_UNREADABLE;
    }
    if (!S_ISREG(info.st_mode)) {
        ::close(fd);
        return QP_TAG_NOT_REGULAR;
    }
    const off_t audio_start = leading_tag_size(fd);
    if (starts_with_zeros(fd, audio_start)) {
        ::close(fd);
        return QP_TAG_NOT_AUDIO;
    }
    std::vector<unsigned char> head(static_cast<size_t>(std::max(0, head_capacity)));
    const ssize_t got = head.empty() ? 0 : ::pread(fd, head.data(), head.size(), audio_start);
    const qp_tag_kind kind = choose(head.data(), got > 0 ? static_cast<int>(got) : 0, context);
    if (kind == QP_KIND_NONE) {
        ::close(fd);
        return QP_TAG_NOT_CHOSEN;
    }
    std::FILE *file = ::fdopen(fd, "rb");
    if (!file) {
        if (err_no) *err_no = errno;
        ::close(fd);
        return QP_TAG_UNREADABLE;
    }
    const qp_tag_budget unlimited = {0, 0};
    qplay::BudgetStream stream(kind == QP_KIND_DETECTED ? std::string() : std::string(path), file, static_cast<long>(info.st_size), budget ? *budget : unlimited,
                               qplay::picture_ranges(fd));
    const qp_tag_status status = read_stream(&stream, kind, out);
    out->bytes_read = stream.bytesRead();
    out->cpu_nanoseconds = stream.cpuNanoseconds();
    return status;
}

extern "C" void qp_tag_info_free(qp_tag_info *info) {
    if (!info) return;
    std::free(info->title);
    std::free(info->artist);
    std::free(info->album);
    std::free(info->album_artist);
    std::free(info->genre);
    info->title = info->artist = info->album = info->album_artist = info->genre = nullptr;
}

#if defined(__GLIBC__)
#include <malloc.h>
#endif

extern "C" int qp_malloc_trim(void) {
#if defined(__GLIBC__)
    return malloc_trim(0);
#else
    return 0;
#endif
}

extern "C" int qp_malloc_set_mmap_threshold(int bytes) {
#if defined(__GLIBC__)
    return mallopt(M_MMAP_THRESHOLD, bytes);
#else
    (void)bytes;
    return 0;
#endif
}

// Embedded pictures, read on request (artwork), never during a scan: the scanner's
// stream hands TagLib zeros where pictures lie (picture_ranges.h); this one reads them.

#include <taglib/aifffile.h>
#include <taglib/attachedpictureframe.h>
#include <taglib/flacpicture.h>
#include <taglib/id3v2tag.h>
#include <taglib/mp4coverart.h>
#include <taglib/mp4file.h>
#include <taglib/mp4tag.h>
#include <taglib/wavfile.h>
#include <taglib/xiphcomment.h>

namespace {

struct PictureCandidate {
    TagLib::ByteVector data;  // shared with TagLib's copy, not duplicated
    std::string mime;
    int type;
};

// Every APIC frame with image data, in the tag's order. A "-->" MIME type marks a link,
// not a picture; MPD skips those too.
void id3v2_pictures(TagLib::ID3v2::Tag *tag, std::vector<PictureCandidate> &into) {
    if (!tag) return;
    const TagLib::ID3v2::FrameList &frames = tag->frameListMap()["APIC"];
    for (TagLib::ID3v2::Frame *frame : frames) {
        auto *apic = dynamic_cast<TagLib::ID3v2::AttachedPictureFrame *>(frame);
        if (!apic || apic->picture().isEmpty()) continue;
        const std::string mime = apic->mimeType().to8Bit(true);
        if (mime == "-->") continue;
        into.push_back({apic->picture(), mime, static_cast<int>(apic->type())});
    }
}

void flac_pictures(const TagLib::List<TagLib::FLAC::Picture *> &pictures, std::vector<PictureCandidate> &into) {
    for (TagLib::FLAC::Picture *picture : pictures) {
        if (!picture || picture->data().isEmpty()) continue;
        into.push_back({picture->data(), picture->mimeType().to8Bit(true), static_cast<int>(picture->type())});
    }
}

void mp4_pictures(TagLib::MP4::Tag *tag, std::vector<PictureCandidate> &into) {
    if (!tag || !tag->contains("covr")) return;
    const TagLib::MP4::CoverArtList covers = tag->item("covr").toCoverArtList();
    for (const TagLib::MP4::CoverArt &cover : covers) {
        if (cover.data().isEmpty()) continue;
        const char *mime = "";
        switch (cover.format()) {
        case TagLib::MP4::CoverArt::JPEG: mime = "image/jpeg"; break;
        case TagLib::MP4::CoverArt::PNG: mime = "image/png"; break;
        case TagLib::MP4::CoverArt::BMP: mime = "image/bmp"; break;
        case TagLib::MP4::CoverArt::GIF: mime = "image/gif"; break;
        default: break;
        }
        into.push_back({cover.data(), mime, -1});
    }
}

// The pictures of whichever TagLib type `file` is, in the file's order.
std::vector<PictureCandidate> pictures_of(TagLib::File *file) {
    std::vector<PictureCandidate> found;
    if (auto *mpeg = dynamic_cast<TagLib::MPEG::File *>(file)) {
        id3v2_pictures(mpeg->ID3v2Tag(false), found);
    } else if (auto *flac = dynamic_cast<TagLib::FLAC::File *>(file)) {
        flac_pictures(flac->pictureList(), found);
        if (found.empty() && flac->hasXiphComment()) flac_pictures(flac->xiphComment()->pictureList(), found);
    } else if (auto *vorbis = dynamic_cast<TagLib::Ogg::Vorbis::File *>(file)) {
        if (vorbis->tag()) flac_pictures(vorbis->tag()->pictureList(), found);
    } else if (auto *opus = dynamic_cast<TagLib::Ogg::Opus::File *>(file)) {
        if (opus->tag()) flac_pictures(opus->tag()->pictureList(), found);
    } else if (auto *mp4 = dynamic_cast<TagLib::MP4::File *>(file)) {
        mp4_pictures(mp4->tag(), found);
    } else if (auto *wav = dynamic_cast<TagLib::RIFF::WAV::File *>(file)) {
        if (wav->hasID3v2Tag()) id3v2_pictures(wav->ID3v2Tag(), found);
    } else if (auto *aiff = dynamic_cast<TagLib::RIFF::AIFF::File *>(file)) {
        if (aiff->hasID3v2Tag()) id3v2_pictures(aiff->tag(), found);
    }
    return found;
}

char *copy_text(const std::string &text) {
    if (text.empty()) return nullptr;
    char *out = static_cast<char *>(std::malloc(text.size() + 1));
    if (out) std::memcpy(out, text.c_str(), text.size() + 1);
    return out;
}

qp_picture_status read_picture_stream(qplay::BudgetStream *stream, qp_tag_kind kind, qp_picture_choice choice,
                                      long long max_size, qp_picture *out) {
    try {
        std::unique_ptr<TagLib::File> owned;
        TagLib::FileRef detected;
        TagLib::File *file = nullptr;
        if (kind != QP_KIND_DETECTED) {
            owned.reset(open_kind(stream, kind));
            file = owned.get();
        }
        if (!file) {
            // A kind without a parser of its own here: TagLib finds the type itself.
            detected = TagLib::FileRef(stream, false);
            file = detected.file();
        }
        if (!file || !file->isValid()) return QP_PICTURE_INVALID;
        const std::vector<PictureCandidate> found = pictures_of(file);
        if (found.empty()) return QP_PICTURE_NONE;
        const PictureCandidate *chosen = &found.front();
        if (choice == QP_PICTURE_FRONT_COVER) {
            for (const PictureCandidate &candidate : found) {
                if (candidate.type == 3) {
                    chosen = &candidate;
                    break;
                }
            }
        }
        const long long size = static_cast<long long>(chosen->data.size());
        if (max_size > 0 && size > max_size) {
            out->size = size;  // told, not copied
            return QP_PICTURE_TOO_LARGE;
        }
        out->data = static_cast<unsigned char *>(std::malloc(static_cast<size_t>(size)));
        if (!out->data) return QP_PICTURE_FAILED;
        std::memcpy(out->data, chosen->data.data(), static_cast<size_t>(size));
        out->size = size;
        out->mime = copy_text(chosen->mime);
        out->type = chosen->type;
        return QP_PICTURE_OK;
    } catch (const qplay::BudgetExceeded &) {
        qp_picture_free(out);
        return QP_PICTURE_BUDGET;
    } catch (...) {
        qp_picture_free(out);
        return QP_PICTURE_FAILED;
    }
}

}  // namespace

extern "C" qp_picture_status qp_picture_read(const char *path, const qp_tag_budget *budget, int head_capacity,
                                             qp_tag_chooser choose, void *context, qp_picture_choice choice,
                                             long long max_size, qp_picture *out, int *err_no) {
    std::memset(out, 0, sizeof(*out));
    out->type = -1;
    silence_taglib();
    if (err_no) *err_no = 0;
    // Opened as qp_tag_read opens files: read-only, non-blocking, regular files only.
    int fd = ::open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
        if (err_no) *err_no = errno;
        return QP_PICTURE_UNREADABLE;
    }
    struct stat info;
    if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
        ::close(fd);
        return QP_PICTURE_INVALID;
    }
    const off_t audio_start = leading_tag_size(fd);
    std::vector<unsigned char> head(static_cast<size_t>(std::max(0, head_capacity)));
    const ssize_t got = head.empty() ? 0 : ::pread(fd, head.data(), head.size(), audio_start);
    const qp_tag_kind kind = choose(head.data(), got > 0 ? static_cast<int>(got) : 0, context);
    if (kind == QP_KIND_NONE) {
        ::close(fd);
        return QP_PICTURE_INVALID;
    }
    std::FILE *file = ::fdopen(fd, "rb");
    if (!file) {
        if (err_no) *err_no = errno;
        ::close(fd);
        return QP_PICTURE_UNREADABLE;
    }
    const qp_tag_budget unlimited = {0, 0};
    qplay::BudgetStream stream(kind == QP_KIND_DETECTED ? std::string() : std::string(path), file,
                               static_cast<long>(info.st_size), budget ? *budget : unlimited);
    return read_picture_stream(&stream, kind, choice, max_size, out);
}

extern "C" void qp_picture_free(qp_picture *picture) {
    if (!picture) return;
    std::free(picture->data);
    std::free(picture->mime);
    picture->data = nullptr;
    picture->mime = nullptr;
    picture->size = 0;
}
