#ifndef QPLAY_CALSA_SHIM_H
#define QPLAY_CALSA_SHIM_H
#include <alsa/asoundlib.h>

// ALSA's error handler is variadic, which Swift cannot implement. qplay reports ALSA
// errors through its own logs, so the library's stderr chatter is switched off here.
static void qplay_alsa_silent_handler(const char *file, int line, const char *function,
                                      int err, const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err; (void)fmt;
}

static inline void qplay_alsa_silence_errors(void) {
    snd_lib_error_set_handler(qplay_alsa_silent_handler);
}
#endif
