#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
#include <libavutil/channel_layout.h>

// FFmpeg's error codes are function-like macros (AVERROR, FFERRTAG), which Swift does
// not import: the ones qplay's decoder tells apart, as constants.
static const int QP_AVERROR_EOF = AVERROR_EOF;
static const int QP_AVERROR_EAGAIN = AVERROR(EAGAIN);
static const int QP_AVERROR_EIO = AVERROR(EIO);
static const int QP_AVERROR_INVALIDDATA = AVERROR_INVALIDDATA;
static const int QP_AVERROR_ENOMEM = AVERROR(ENOMEM);
static const int QP_AVERROR_EXIT = AVERROR_EXIT;
// avio's seek callback is asked for the stream's size with this whence.
static const int QP_AVSEEK_SIZE = AVSEEK_SIZE;
static const long long QP_AV_NOPTS_VALUE = AV_NOPTS_VALUE;
// Whether a codec throws information away (AAC, MP3 in MP4): decoded to 16 bits, as the
// other lossy decoders are, rather than at a depth of its own.
static const int QP_AV_CODEC_PROP_LOSSY = AV_CODEC_PROP_LOSSY;
static const int QP_AV_CODEC_PROP_LOSSLESS = AV_CODEC_PROP_LOSSLESS;
