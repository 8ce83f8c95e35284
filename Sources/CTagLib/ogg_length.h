#ifndef QPLAY_OGG_LENGTH_H
#define QPLAY_OGG_LENGTH_H
// The exact length of an Ogg Vorbis or Opus stream, in samples per channel, computed the
// way libvorbisfile (ov_pcm_total) and libopusfile (op_pcm_total) compute it: the
// granule position of the last page, minus the stream's start offset (the granule of
// the first audio page minus the samples of the packets completed on it), minus Opus's
// pre-skip. TagLib only gives milliseconds, so the shim walks the pages itself through
// the same metered stream TagLib reads from.

#include <cstring>

#include <taglib/tbytevector.h>
#include <taglib/tfile.h>

namespace qplay {
namespace ogg {

struct Page {
    long long offset = 0;
    long long granule = -1;
    unsigned serial = 0;
    int type = 0;  // 1: continues a packet, 2: first page, 4: last page
    int segments = 0;
    unsigned char lacing[255];
    long long header_size = 0;
    long long body_size = 0;
    long long end() const { return offset + header_size + body_size; }
};

inline unsigned crc_step(unsigned crc, unsigned char byte) {
    static const auto table = [] {
        struct Table { unsigned v[256]; } t;
        for (unsigned i = 0; i < 256; i++) {
            unsigned r = i << 24;
            for (int j = 0; j < 8; j++) r = (r & 0x80000000u) ? (r << 1) ^ 0x04C11DB7u : (r << 1);
            t.v[i] = r;
        }
        return t;
    }();
    return (crc << 8) ^ table.v[((crc >> 24) ^ byte) & 0xFF];
}

inline unsigned le32(const unsigned char *p) {
    return unsigned(p[0]) | (unsigned(p[1]) << 8) | (unsigned(p[2]) << 16) | (unsigned(p[3]) << 24);
}

// Reads the page header at `offset`; with `body`, reads the body too and checks the CRC
// (a page cut short or damaged is no page). False when there is no whole page there.
inline bool read_page(TagLib::File *file, long long offset, long long length, Page *page,
                      TagLib::ByteVector *body) {
    if (offset < 0 || offset + 27 > length) return false;
    file->seek(offset);
    const TagLib::ByteVector head = file->readBlock(27);
    if (head.size() != 27) return false;
    const unsigned char *h = reinterpret_cast<const unsigned char *>(head.data());
    if (std::memcmp(h, "OggS", 4) != 0 || h[4] != 0) return false;
    page->offset = offset;
    page->type = h[5];
    unsigned long long granule = 0;
    for (int i = 7; i >= 0; i--) granule = (granule << 8) | h[6 + i];
    page->granule = static_cast<long long>(granule);
    page->serial = le32(h + 14);
    page->segments = h[26];
    const TagLib::ByteVector table = file->readBlock(static_cast<unsigned long>(page->segments));
    if (static_cast<int>(table.size()) != page->segments) return false;
    page->body_size = 0;
    for (int i = 0; i < page->segments; i++) {
        page->lacing[i] = static_cast<unsigned char>(table[i]);
        page->body_size += page->lacing[i];
    }
    page->header_size = 27 + page->segments;
    if (page->end() > length) return false;
    if (!body) return true;
    *body = file->readBlock(static_cast<unsigned long>(page->body_size));
    if (static_cast<long long>(body->size()) != page->body_size) return false;
    unsigned crc = 0;
    for (int i = 0; i < 27; i++) crc = crc_step(crc, (i >= 22 && i < 26) ? 0 : h[i]);
    for (int i = 0; i < page->segments; i++) crc = crc_step(crc, page->lacing[i]);
    const unsigned char *b = reinterpret_cast<const unsigned char *>(body->data());
    for (long long i = 0; i < page->body_size; i++) crc = crc_step(crc, b[i]);
    return crc == le32(h + 22);
}

// The granule position of the last whole page of the stream `serial`, searching back
// from the end of the file (at most 1 MB). -1 when none is found, or when the last page
// belongs to another stream: a chained file, whose links each count from their own start.
inline long long last_granule(TagLib::File *file, long long length, unsigned serial) {
    // Small steps: a last page is a few KB, and each candidate is read whole on its own.
    const long long chunk = 16 * 1024;
    long long end = length;
    while (end > 0 && length - end < 1024 * 1024) {
        const long long start = end > chunk ? end - chunk : 0;
        file->seek(start);
        const TagLib::ByteVector block = file->readBlock(static_cast<unsigned long>(end - start + 3));
        const unsigned char *b = reinterpret_cast<const unsigned char *>(block.data());
        for (long long i = static_cast<long long>(block.size()) - 4; i >= 0; i--) {
            if (i >= end - start || std::memcmp(b + i, "OggS", 4) != 0) continue;
            Page page;
            TagLib::ByteVector body;
            if (!read_page(file, start + i, length, &page, &body)) continue;
            if (page.serial != serial) return -1;
            if (page.granule != -1) return page.granule;
        }
        end = start;
    }
    return -1;
}

// Samples one audio packet decodes to, from its first bytes; -1 when it cannot tell.
struct PacketSamples {
    virtual ~PacketSamples() = default;
    virtual long long operator()(const unsigned char *packet, long long size) = 0;
};

// The granule position at which the stream's audio starts (0 for almost every file):
// the granule of the first page that completes an audio packet, minus the samples of
// the audio packets completed up to it. `headers` packets come before the audio; both
// formats start the audio on a fresh page. -1 when the pages do not tell.
inline long long start_granule(TagLib::File *file, long long length, unsigned serial, int headers,
                               PacketSamples &samples) {
    long long offset = 0;
    int packets = 0;
    long long accumulated = 0;
    TagLib::ByteVector partial;  // the start of an audio packet continued on the next page
    for (int pages = 0; pages < 4096; pages++) {
        Page page;
        if (!read_page(file, offset, length, &page, nullptr)) return -1;
        offset = page.end();
        if (page.serial != serial) continue;
        if (packets < headers) {
            for (int i = 0; i < page.segments; i++) {
                if (page.lacing[i] < 255) packets++;
            }
            if (packets > headers) return -1;  // audio shares a page with a header
            continue;
        }
        TagLib::ByteVector body;
        if (!read_page(file, page.offset, length, &page, &body)) return -1;
        const unsigned char *b = reinterpret_cast<const unsigned char *>(body.data());
        long long position = 0;
        long long packet_start = 0;
        bool completed = false;
        // A page continuing a packet whose start is not here (pages lost, as in a
        // stream recorded from the middle): the decoders drop that packet's end.
        bool orphan = (page.type & 1) && partial.isEmpty();
        for (int i = 0; i < page.segments; i++) {
            position += page.lacing[i];
            if (page.lacing[i] == 255) continue;
            if (orphan) {
                orphan = false;
                packet_start = position;
                continue;
            }
            long long count;
            if (!partial.isEmpty()) {
                TagLib::ByteVector whole = partial;
                whole.append(body.mid(0, static_cast<unsigned>(position)));
                count = samples(reinterpret_cast<const unsigned char *>(whole.data()), whole.size());
                partial.clear();
            } else {
                count = samples(b + packet_start, position - packet_start);
            }
            if (count < 0) return -1;
            accumulated += count;
            completed = true;
            packet_start = position;
        }
        if (!orphan && packet_start < position) partial.append(body.mid(static_cast<unsigned>(packet_start)));
        if (completed && page.granule != -1) {
            const long long start = page.granule - accumulated;
            return start > 0 ? start : 0;
        }
    }
    return -1;
}

// Opus: a packet's duration at 48 kHz from its TOC byte (RFC 6716 section 3.1).
struct OpusPacketSamples : PacketSamples {
    long long operator()(const unsigned char *packet, long long size) override {
        if (size < 1) return 0;
        const int config = packet[0] >> 3;
        long long frame;
        if (config < 12) {
            static const int silk[4] = {480, 960, 1920, 2880};
            frame = silk[config & 3];
        } else if (config < 16) {
            frame = (config & 1) ? 960 : 480;
        } else {
            static const int celt[4] = {120, 240, 480, 960};
            frame = celt[config & 3];
        }
        int frames;
        switch (packet[0] & 3) {
        case 0: frames = 1; break;
        case 3:
            if (size < 2) return -1;
            frames = packet[1] & 0x3F;
            break;
        default: frames = 2;
        }
        return frame * frames;
    }
};

// Vorbis: each packet's block size comes from its mode; a packet decodes to a quarter
// of the previous block plus a quarter of its own (the first to nothing).
struct VorbisPacketSamples : PacketSamples {
    long long short_block = 0, long_block = 0;
    bool long_mode[64] = {};
    int mode_bits = 0;
    long long previous = -1;

    // `ident` and `setup` are the first and third header packets. The setup header is
    // read backwards from its end, where the mode table is (its start needs the whole
    // codebook decoded): the last candidate mode count that fits is taken, as FFmpeg does.
    bool load(const TagLib::ByteVector &ident, const TagLib::ByteVector &setup) {
        if (ident.size() < 30 || setup.size() < 8) return false;
        const unsigned char sizes = static_cast<unsigned char>(ident[28]);
        short_block = 1LL << (sizes & 0x0F);
        long_block = 1LL << (sizes >> 4);
        const unsigned char *s = reinterpret_cast<const unsigned char *>(setup.data());
        const long long bits = static_cast<long long>(setup.size()) * 8;
        auto bit = [&](long long p) { return (s[p >> 3] >> (p & 7)) & 1; };
        long long cursor = bits - 1;
        while (cursor >= 0 && !bit(cursor)) cursor--;  // the framing bit
        if (cursor < 0) return false;
        cursor--;
        // Fields end at `cursor` and are read towards the start.
        auto field = [&](long long &at, int n) -> long long {
            long long value = 0;
            for (int i = n - 1; i >= 0; i--) value |= static_cast<long long>(bit(at - (n - 1) + i)) << i;
            at -= n;
            return value;
        };
        int modes = 0, found = 0;
        long long at = cursor;
        while (at >= 41 + 6) {
            long long probe = at;
            const long long mapping = field(probe, 8);
            const long long transform = field(probe, 16);
            const long long window = field(probe, 16);
            if (mapping > 63 || transform != 0 || window != 0) break;
            probe -= 1;  // block flag
            modes++;
            if (modes > 64) break;
            at = probe;
            long long count_at = at;
            if (field(count_at, 6) + 1 == modes) found = modes;
        }
        if (found == 0) return false;
        at = cursor;
        for (int m = found - 1; m >= 0; m--) {
            at -= 40;
            long_mode[m] = bit(at) != 0;
            at -= 1;
        }
        mode_bits = 0;
        while ((1 << mode_bits) < found) mode_bits++;
        return true;
    }

    long long operator()(const unsigned char *packet, long long size) override {
        if (size < 1) return 0;
        if (packet[0] & 1) return -1;  // not an audio packet
        const int mode = (packet[0] >> 1) & ((1 << mode_bits) - 1);
        const long long block = long_mode[mode] ? long_block : short_block;
        const long long count = previous < 0 ? 0 : (previous + block) / 4;
        previous = block;
        return count;
    }
};

}  // namespace ogg
}  // namespace qplay

#endif
