#include "qplay_taglib.h"
#include "budget_stream.h"
#include "ogg_length.h"
#include "adts_length.h"
#include "lame_header.h"
#include "mp4_aac.h"
#include "mp4_alac.h"
#include "picture_ranges.h"
#include "shim_files.h"

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

using qplay::leading_tag_size;
using qplay::read_lame_header;
using qplay::open_kind;
using qplay::silence_taglib;


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
            if (mp4 && alac_rate <= 0) {
                const int aac_channels = qplay::mp4_aac_channels(mp4);
                if (aac_channels > 0) out->channels = aac_channels;
            }
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
