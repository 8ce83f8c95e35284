#ifndef QPLAY_TAGLIB_H
#define QPLAY_TAGLIB_H
// A plain C view of exactly what the qplay scanner needs from TagLib. TagLib's own C
// binding has no album artist, disc number, ReplayGain or property map.
// Strings are malloc'd UTF-8 (NULL when absent); numbers are 0 when absent.
#ifdef __cplusplus
extern "C" {
#endif

// The TagLib file types the shim reads a file as. The caller chooses one by the file's
// content (qplay's format table, TagLibKind in QPlayModel, holds these numbers), so a
// FLAC file named .mp3 is read as FLAC: TagLib's FileRef would pick by the name.
typedef enum qp_tag_kind {
    QP_KIND_NONE = 0,        // not to be read: qp_tag_read answers QP_TAG_NOT_CHOSEN
    QP_KIND_MPEG = 1,        // MPEG-1/2/2.5 layer I, II or III
    QP_KIND_FLAC = 2,        // native FLAC (not Ogg FLAC)
    QP_KIND_OGG_VORBIS = 3,  // Ogg Vorbis
    QP_KIND_OGG_OPUS = 4,    // Ogg Opus
    // Any other type TagLib knows (MP4, WAV, AIFF, WavPack, …), as TagLib finds it from
    // the content alone (the file name is kept from it): a format without a kind of its
    // own here needs no change to the shim.
    QP_KIND_DETECTED = 5,
    // MP4 (AAC, ALAC): iTunes atoms, freeform ReplayGain atoms, the ALAC depth and
    // iTunSMPB's exact length. ADTS AAC, which TagLib does not read, comes here too: its
    // length from the frame headers (see adts_length.h).
    QP_KIND_MP4 = 6,
    QP_KIND_WAV = 7,      // RIFF WAVE: INFO and ID3 chunks, depth, exact length
    QP_KIND_AIFF = 8,     // AIFF, AIFF-C: ID3 chunk, depth, exact length
    QP_KIND_WAVPACK = 9   // WavPack: APEv2, depth, exact length
} qp_tag_kind;

// Chooses the kind to read a file as from `head`: its first `head_length` bytes after a
// leading ID3v2 tag (at most the capacity qp_tag_read was given). `context` is the
// caller's, passed through.
typedef qp_tag_kind (*qp_tag_chooser)(const unsigned char *head, int head_length, void *context);

typedef struct qp_tag_info {
    char *title;
    char *artist;
    char *album;
    char *album_artist;
    char *genre;
    int track;
    int track_total;
    int disc;
    int disc_total;
    int year;
    int duration_ms;
    int bitrate_kbps;
    int sample_rate;  // Opus: 48000, the rate it decodes to, whatever the input rate was
    int channels;
    int bits_per_sample;  // the lossless formats' depth (FLAC, ALAC, WAV, AIFF, WavPack); 0 for the others
    int has_track_gain, has_track_peak, has_album_gain, has_album_peak;
    double track_gain, track_peak, album_gain, album_peak;
    // The exact number of samples per channel the file decodes to (0 when unknown):
    // MPEG with a Xing/Info + LAME header: after removing the encoder delay and padding;
    // FLAC: STREAMINFO's total; Vorbis and Opus: as ov_pcm_total / op_pcm_total count
    // (last granule position minus the start offset, and Opus's pre-skip).
    long long exact_samples;
    // Bytes of MPEG audio the Xing/Info header promises, and the bytes the file holds
    // from the first frame to its end (0 when unknown). Fewer present than promised
    // means the file was cut short.
    long long promised_audio_bytes;
    long long present_audio_bytes;
    // What reading this file cost, whatever the status (0 when it could not be opened):
    // bytes TagLib asked the stream for, and CPU time of the reading thread.
    long long bytes_read;
    long long cpu_nanoseconds;
} qp_tag_info;

// Most a file may cost TagLib before the shim gives up on it (0: no limit). Bytes count
// what TagLib asks for; time is the reading thread's CPU time, so a busy machine does
// not make a good file look hostile.
typedef struct qp_tag_budget {
    long long max_bytes;
    long long max_cpu_nanoseconds;
} qp_tag_budget;

typedef enum qp_tag_status {
    QP_TAG_OK = 0,
    QP_TAG_UNREADABLE = 1,   // open(2) failed; errno is in *err_no
    QP_TAG_INVALID = 3,      // TagLib could not parse it
    QP_TAG_NOT_AUDIO = 4,    // parsed, but no audio stream (sample rate 0)
    QP_TAG_FAILED = 5,       // TagLib threw an exception
    QP_TAG_NOT_REGULAR = 6,  // not a regular file (FIFO, socket, device): never read
    QP_TAG_BYTE_BUDGET = 7,  // gave up: TagLib wanted more bytes than the budget allows
    QP_TAG_TIME_BUDGET = 8,  // gave up: reading took more CPU time than the budget allows
    QP_TAG_NOT_CHOSEN = 9    // the chooser answered QP_KIND_NONE: never parsed
} qp_tag_status;

// `path` is the file name as raw bytes (any encoding). The file is opened read-only and
// non-blocking, and only a regular file is read: `choose` sees up to `head_capacity`
// bytes after a leading ID3v2 tag and names the kind TagLib reads it as. Never throws;
// on any status but QP_TAG_OK, *out holds nothing to free (its cost fields are still set).
qp_tag_status qp_tag_read(const char *path, const qp_tag_budget *budget, int head_capacity, qp_tag_chooser choose,
                          void *context, qp_tag_info *out, int *err_no);
void qp_tag_info_free(qp_tag_info *info);

// glibc's malloc_trim(0), for the library index (malloc.h is not in Swift's Glibc module).
int qp_malloc_trim(void);
// mallopt(M_MMAP_THRESHOLD, bytes): allocations this big get their own mapping, returned
// to the kernel on free. Fixing it also stops glibc from raising the threshold (and the
// trim threshold with it) after every large free.
int qp_malloc_set_mmap_threshold(int bytes);

// An embedded picture, read on request (never during a scan): its bytes, MIME type as
// the tag gives it (NULL when none) and ID3v2/FLAC picture type (-1 for MP4 `covr`,
// which has none). Freed with qp_picture_free.
typedef struct qp_picture {
    unsigned char *data;
    long long size;
    char *mime;
    int type;
} qp_picture;

typedef enum qp_picture_choice {
    // The front cover (type 3) when there is one, else the first picture.
    QP_PICTURE_FRONT_COVER = 0,
    // The first picture whatever its type, as MPD's readpicture answers.
    QP_PICTURE_FIRST = 1
} qp_picture_choice;

typedef enum qp_picture_status {
    QP_PICTURE_OK = 0,
    QP_PICTURE_NONE = 1,        // read, and no picture in it
    QP_PICTURE_UNREADABLE = 2,  // open(2) failed; errno is in *err_no
    QP_PICTURE_INVALID = 3,     // not a file TagLib can parse (or not a regular file)
    QP_PICTURE_TOO_LARGE = 4,   // the chosen picture is larger than max_size (its size in out->size)
    QP_PICTURE_BUDGET = 5,      // TagLib wanted more bytes or time than the budget allows
    QP_PICTURE_FAILED = 6       // TagLib threw, or memory ran out
} qp_picture_status;

// Reads the embedded picture of `path`: ID3v2 APIC (MPEG, WAV, AIFF), FLAC PICTURE,
// Vorbis/Opus METADATA_BLOCK_PICTURE, MP4 `covr`. The kind is chosen as by qp_tag_read.
// A picture over `max_size` bytes is refused, not copied. Never throws.
qp_picture_status qp_picture_read(const char *path, const qp_tag_budget *budget, int head_capacity,
                                  qp_tag_chooser choose, void *context, qp_picture_choice choice,
                                  long long max_size, qp_picture *out, int *err_no);
void qp_picture_free(qp_picture *picture);

#ifdef __cplusplus
}
#endif
#endif
