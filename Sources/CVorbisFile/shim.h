// The header's static stdio callbacks are left out: qplay reads through its own.
#define OV_EXCLUDE_STATIC_CALLBACKS
#include <vorbis/vorbisfile.h>
