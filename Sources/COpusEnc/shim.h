#include <opusenc.h>

/* ope_encoder_ctl is variadic, which Swift cannot call: one typed function per request
   the HTTP stream uses. */
static inline int qp_ope_set_bitrate(OggOpusEnc *encoder, opus_int32 bitsPerSecond) {
    return ope_encoder_ctl(encoder, OPUS_SET_BITRATE(bitsPerSecond));
}

/* How long libopusenc may hold audio before it writes an Ogg page: a live stream wants
   pages soon, not the default second. */
static inline int qp_ope_set_muxing_delay(OggOpusEnc *encoder, opus_int32 samples48k) {
    return ope_encoder_ctl(encoder, OPE_SET_MUXING_DELAY(samples48k));
}
