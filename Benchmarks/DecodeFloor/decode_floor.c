/*
 * decode-floor: each codec library alone decoding a file to nowhere, as fast as it
 * goes, as a share of one core at real time. No player does less work than this for
 * the same file, so it is the floor under the CPU figures of scripts/bench engine.
 *
 *   decode-floor FILE        prints "PERCENT FRAMES RATE" (one line)
 *
 * The library is chosen by the file name's extension (.mp3, .flac, .ogg, .opus, .m4a);
 * the bench names its files itself. Each library decodes at the source's own rate into
 * the output it produces most cheaply (libFLAC's 32-bit buffers, libvorbisfile's and
 * libopusfile's floats, libmpg123's 16-bit frames in place): no resampling, no copy
 * beyond what the library does anyway. An .m4a (AAC, ALAC) goes through libavformat's
 * demuxer and libavcodec's decoder on one thread, as qplay opens it, into the frames
 * libavcodec hands qplay (AAC planar floats, 16-bit ALAC planar 16-bit integers): the
 * samples qplay then converts, not converted here. The file is decoded again and again
 * until at least MIN_CPU_SECONDS of CPU time add up, so the figure does not rest on one
 * short pass. Built by scripts/bench-lib/engine:
 *   cc -O2 decode_floor.c $(pkg-config --cflags --libs flac vorbisfile opusfile libmpg123 \
 *     libavformat libavcodec libavutil)
 */
#include <FLAC/stream_decoder.h>
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/log.h>
#include <mpg123.h>
#include <opusfile.h>
#include <vorbis/vorbisfile.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MIN_CPU_SECONDS 1.5
#define MAX_PASSES 200

/* One pass over the whole file: frames decoded and the rate, or -1 on failure. */
typedef long long (*decode_pass)(const char *path, long *rate);

static void *floor_sink; /* keeps the compiler from dropping the decoded data */

static FLAC__StreamDecoderWriteStatus flac_write(const FLAC__StreamDecoder *decoder,
                                                  const FLAC__Frame *frame,
                                                  const FLAC__int32 *const buffer[],
                                                  void *context) {
    (void)decoder;
    long long *frames = context;
    *frames += frame->header.blocksize;
    floor_sink = (void *)buffer[0];
    return FLAC__STREAM_DECODER_WRITE_STATUS_CONTINUE;
}

static void flac_error(const FLAC__StreamDecoder *decoder, FLAC__StreamDecoderErrorStatus status,
                       void *context) {
    (void)decoder;
    (void)context;
    fprintf(stderr, "decode-floor: libFLAC: %s\n", FLAC__StreamDecoderErrorStatusString[status]);
}

static long long flac_pass(const char *path, long *rate) {
    FLAC__StreamDecoder *decoder = FLAC__stream_decoder_new();
    long long frames = 0;
    if (decoder == NULL) return -1;
    if (FLAC__stream_decoder_init_file(decoder, path, flac_write, NULL, flac_error, &frames) !=
        FLAC__STREAM_DECODER_INIT_STATUS_OK) {
        FLAC__stream_decoder_delete(decoder);
        return -1;
    }
    FLAC__bool ok = FLAC__stream_decoder_process_until_end_of_stream(decoder);
    *rate = (long)FLAC__stream_decoder_get_sample_rate(decoder);
    FLAC__stream_decoder_finish(decoder);
    FLAC__stream_decoder_delete(decoder);
    return ok ? frames : -1;
}

static long long vorbis_pass(const char *path, long *rate) {
    OggVorbis_File file;
    if (ov_fopen(path, &file) != 0) return -1;
    *rate = ov_info(&file, -1)->rate;
    long long frames = 0;
    for (;;) {
        float **pcm;
        int section;
        long count = ov_read_float(&file, &pcm, 4096, &section);
        if (count == OV_HOLE) continue;
        if (count < 0) {
            frames = -1;
            break;
        }
        if (count == 0) break;
        floor_sink = pcm;
        frames += count;
    }
    ov_clear(&file);
    return frames;
}

static long long opus_pass(const char *path, long *rate) {
    int error = 0;
    OggOpusFile *file = op_open_file(path, &error);
    if (file == NULL) return -1;
    *rate = 48000; /* libopusfile always decodes at 48 kHz */
    static float buffer[5760 * 8];
    long long frames = 0;
    for (;;) {
        int count = op_read_float(file, buffer, (int)(sizeof buffer / sizeof buffer[0]), NULL);
        if (count == OP_HOLE) continue;
        if (count < 0) {
            frames = -1;
            break;
        }
        if (count == 0) break;
        floor_sink = buffer;
        frames += count;
    }
    op_free(file);
    return frames;
}

static long long mpg123_pass(const char *path, long *rate) {
    mpg123_handle *handle = mpg123_new(NULL, NULL);
    if (handle == NULL || mpg123_open(handle, path) != MPG123_OK) {
        mpg123_delete(handle);
        return -1;
    }
    int channels = 0, encoding = 0;
    if (mpg123_getformat(handle, rate, &channels, &encoding) != MPG123_OK) {
        mpg123_delete(handle);
        return -1;
    }
    long long frames = 0;
    for (;;) {
        off_t number;
        unsigned char *audio;
        size_t bytes;
        int result = mpg123_decode_frame(handle, &number, &audio, &bytes);
        if (result == MPG123_NEW_FORMAT) {
            mpg123_getformat(handle, rate, &channels, &encoding);
            continue;
        }
        if (result == MPG123_DONE) break;
        if (result != MPG123_OK) {
            frames = -1;
            break;
        }
        floor_sink = audio;
        frames += (long long)(bytes / (size_t)(channels * mpg123_encsize(encoding)));
    }
    mpg123_close(handle);
    mpg123_delete(handle);
    return frames;
}

/* libavcodec's frames, one after another, counted and dropped. */
static long long ffmpeg_drain(AVCodecContext *codec, AVFrame *frame) {
    long long frames = 0;
    while (avcodec_receive_frame(codec, frame) >= 0) {
        frames += frame->nb_samples;
        floor_sink = frame->extended_data[0];
        av_frame_unref(frame);
    }
    return frames;
}

static long long ffmpeg_pass(const char *path, long *rate) {
    AVFormatContext *context = NULL;
    if (avformat_open_input(&context, path, NULL, NULL) < 0) return -1;
    long long frames = -1;
    AVCodecContext *codec = NULL;
    AVPacket *packet = av_packet_alloc();
    AVFrame *frame = av_frame_alloc();
    int audio = av_find_best_stream(context, AVMEDIA_TYPE_AUDIO, -1, -1, NULL, 0);
    if (audio < 0 || packet == NULL || frame == NULL) goto done;
    AVCodecParameters *parameters = context->streams[audio]->codecpar;
    const AVCodec *decoder = avcodec_find_decoder(parameters->codec_id);
    codec = decoder != NULL ? avcodec_alloc_context3(decoder) : NULL;
    if (codec == NULL || avcodec_parameters_to_context(codec, parameters) < 0) goto done;
    codec->thread_count = 1; /* as qplay's FFmpegStream */
    codec->pkt_timebase = context->streams[audio]->time_base;
    if (avcodec_open2(codec, decoder, NULL) < 0) goto done;
    frames = 0;
    while (av_read_frame(context, packet) >= 0) {
        if (packet->stream_index == audio && avcodec_send_packet(codec, packet) >= 0)
            frames += ffmpeg_drain(codec, frame);
        av_packet_unref(packet);
    }
    avcodec_send_packet(codec, NULL);
    frames += ffmpeg_drain(codec, frame);
    *rate = codec->sample_rate;
done:
    av_frame_free(&frame);
    av_packet_free(&packet);
    avcodec_free_context(&codec);
    avformat_close_input(&context);
    return frames;
}

static double cpu_seconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
    return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: decode-floor FILE(.mp3|.flac|.ogg|.opus|.m4a)\n");
        return 2;
    }
    const char *path = argv[1];
    const char *dot = strrchr(path, '.');
    decode_pass pass = NULL;
    if (dot != NULL && strcmp(dot, ".flac") == 0) pass = flac_pass;
    if (dot != NULL && strcmp(dot, ".ogg") == 0) pass = vorbis_pass;
    if (dot != NULL && strcmp(dot, ".opus") == 0) pass = opus_pass;
    if (dot != NULL && strcmp(dot, ".mp3") == 0) pass = mpg123_pass;
    if (dot != NULL && strcmp(dot, ".m4a") == 0) pass = ffmpeg_pass;
    if (pass == NULL) {
        fprintf(stderr, "decode-floor: %s: unknown extension\n", path);
        return 2;
    }
    if (mpg123_init() != MPG123_OK) return 1; /* a no-op since libmpg123 1.27, needed before */
    av_log_set_level(AV_LOG_ERROR);

    double start = cpu_seconds(), used = 0;
    long long frames = 0;
    long rate = 0;
    for (int passes = 0; passes < MAX_PASSES && used < MIN_CPU_SECONDS; passes++) {
        long long decoded = pass(path, &rate);
        if (decoded <= 0 || rate <= 0) {
            fprintf(stderr, "decode-floor: %s: cannot decode\n", path);
            return 1;
        }
        frames += decoded;
        used = cpu_seconds() - start;
    }
    printf("%.3f %lld %ld\n", used / ((double)frames / (double)rate) * 100, frames, rate);
    return 0;
}
