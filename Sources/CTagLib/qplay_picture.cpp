#include "qplay_taglib.h"
#include "shim_files.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <fcntl.h>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

#include <taglib/fileref.h>
#include <taglib/tfile.h>

using qplay::leading_tag_size;
using qplay::open_kind;
using qplay::silence_taglib;

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
