#ifndef QPLAY_PICTURE_RANGES_H
#define QPLAY_PICTURE_RANGES_H
// Where a file's embedded pictures lie, found with a few small reads before TagLib opens
// it, so the stream hands TagLib zeros there instead of reading them (BudgetStream's
// `unread`). TagLib 1.13 reads every FLAC metadata block whole and assembles and
// base64-decodes an Ogg comment packet whole; covers of many MB would cost their size
// in reading (and decoding) for nothing the index keeps. Zeros make TagLib drop the
// picture as invalid; every other tag around it reads as before.

#include <cstring>
#include <strings.h>
#include <sys/types.h>
#include <unistd.h>
#include <vector>

#include "budget_stream.h"

namespace qplay {

inline unsigned long le32_at(const unsigned char *p) {
    return (unsigned long)p[0] | ((unsigned long)p[1] << 8) | ((unsigned long)p[2] << 16) |
           ((unsigned long)p[3] << 24);
}

// FLAC: the data of every PICTURE metadata block (after an ID3v2 tag, if any).
inline std::vector<Range> flac_picture_ranges(int fd) {
    std::vector<Range> pictures;
    unsigned char header[10];
    off_t offset = 0;
    if (::pread(fd, header, 10, 0) == 10 && std::memcmp(header, "ID3", 3) == 0 &&
        ((header[6] | header[7] | header[8] | header[9]) & 0x80) == 0) {
        offset = 10 + ((off_t(header[6]) << 21) | (off_t(header[7]) << 14) | (off_t(header[8]) << 7) | header[9]);
        if (header[5] & 0x10) offset += 10;  // footer
    }
    unsigned char magic[4];
    if (::pread(fd, magic, 4, offset) != 4 || std::memcmp(magic, "fLaC", 4) != 0) return pictures;
    offset += 4;
    for (int blocks = 0; blocks < 1024; blocks++) {
        unsigned char block[4];
        if (::pread(fd, block, 4, offset) != 4) break;
        const long length = (long(block[1]) << 16) | (long(block[2]) << 8) | long(block[3]);
        if ((block[0] & 0x7F) == 6 && length > 0) pictures.push_back({static_cast<long>(offset) + 4, length});
        offset += 4 + length;
        if (block[0] & 0x80) break;
    }
    return pictures;
}

// The bytes of one Ogg packet as pieces of the file, in order.
class OggPacketMap {
public:
    void add(long file_offset, long length) {
        if (length <= 0) return;
        if (!pieces_.empty() && pieces_.back().offset + pieces_.back().length == file_offset) {
            pieces_.back().length += length;
        } else {
            pieces_.push_back({file_offset, length});
        }
        size_ += length;
    }
    long size() const { return size_; }

    // Reads `count` bytes at packet offset `at`; false past the end.
    bool read(int fd, long at, unsigned char *into, long count) const {
        for (const Range &piece : pieces_) {
            if (count == 0) return true;
            if (at >= piece.length) {
                at -= piece.length;
                continue;
            }
            const long take = std::min(count, piece.length - at);
            if (::pread(fd, into, static_cast<size_t>(take), piece.offset + at) != take) return false;
            into += take;
            count -= take;
            at = 0;
        }
        return count == 0;
    }

    // The file ranges holding packet bytes [from, to).
    void ranges(long from, long to, std::vector<Range> *out) const {
        long base = 0;
        for (const Range &piece : pieces_) {
            const long a = std::max(from, base), b = std::min(to, base + piece.length);
            if (a < b) out->push_back({piece.offset + (a - base), b - a});
            base += piece.length;
        }
    }

private:
    std::vector<Range> pieces_;
    long size_ = 0;
};

// Ogg Vorbis or Opus: the values of METADATA_BLOCK_PICTURE (and the older COVERART)
// comments in the comment header, the stream's second packet.
inline std::vector<Range> ogg_picture_ranges(int fd) {
    std::vector<Range> pictures;
    OggPacketMap comment;
    long offset = 0;
    int packets = 0;
    unsigned serial = 0;
    for (int pages = 0; pages < 4096 && packets < 2; pages++) {
        unsigned char head[27 + 255];
        if (::pread(fd, head, 27, offset) != 27 || std::memcmp(head, "OggS", 4) != 0) return pictures;
        const int segments = head[26];
        if (::pread(fd, head + 27, static_cast<size_t>(segments), offset + 27) != segments) return pictures;
        const unsigned page_serial = static_cast<unsigned>(le32_at(head + 14));
        if (pages == 0) serial = page_serial;
        long position = offset + 27 + segments;
        for (int i = 0; i < segments; i++) {
            const int lace = head[27 + i];
            if (page_serial == serial) {
                if (packets == 1) comment.add(position, lace);
                if (lace < 255 && ++packets == 2) break;
            }
            position += lace;
        }
        long body = 0;
        for (int i = 0; i < segments; i++) body += head[27 + i];
        offset += 27 + segments + body;
    }
    if (packets < 2) return pictures;
    unsigned char magic[8];
    long at;
    if (comment.read(fd, 0, magic, 8) && std::memcmp(magic, "OpusTags", 8) == 0) at = 8;
    else if (comment.read(fd, 0, magic, 7) && std::memcmp(magic, "\x03vorbis", 7) == 0) at = 7;
    else return pictures;
    unsigned char word[4];
    if (!comment.read(fd, at, word, 4)) return pictures;
    at += 4 + static_cast<long>(le32_at(word));  // vendor
    if (!comment.read(fd, at, word, 4)) return pictures;
    const unsigned long count = le32_at(word);
    at += 4;
    static const char picture_key[] = "METADATA_BLOCK_PICTURE=";
    static const char cover_key[] = "COVERART=";
    for (unsigned long i = 0; i < count && at < comment.size(); i++) {
        if (!comment.read(fd, at, word, 4)) break;
        const long length = static_cast<long>(le32_at(word));
        at += 4;
        if (length < 0 || at + length > comment.size()) break;
        char key[sizeof(picture_key)] = {};
        const long peek = std::min<long>(length, sizeof(picture_key) - 1);
        if (!comment.read(fd, at, reinterpret_cast<unsigned char *>(key), peek)) break;
        long skip = 0;
        if (peek == sizeof(picture_key) - 1 && strncasecmp(key, picture_key, sizeof(picture_key) - 1) == 0) {
            skip = sizeof(picture_key) - 1;
        } else if (peek >= long(sizeof(cover_key) - 1) && strncasecmp(key, cover_key, sizeof(cover_key) - 1) == 0) {
            skip = sizeof(cover_key) - 1;
        }
        if (skip) comment.ranges(at + skip, at + length, &pictures);
        at += length;
    }
    return pictures;
}

// The picture ranges of a FLAC or Ogg file; none for anything else.
inline std::vector<Range> picture_ranges(int fd) {
    unsigned char magic[4];
    if (::pread(fd, magic, 4, 0) == 4 && std::memcmp(magic, "OggS", 4) == 0) return ogg_picture_ranges(fd);
    return flac_picture_ranges(fd);
}

}  // namespace qplay

#endif
