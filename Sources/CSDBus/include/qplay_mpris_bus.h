#ifndef QPLAY_MPRIS_BUS_H
#define QPLAY_MPRIS_BUS_H

// MPRIS on sd-bus (libsystemd) for Swift. sd-bus describes objects with vtables built by
// C macros and reads and writes messages through variadic functions; neither imports
// into Swift. This target holds the two MPRIS vtables (so sd-bus itself answers
// Introspect, Properties.Get/GetAll/Set and checks every signature) and forwards each
// method call, property read and property write to three plain callbacks; the other
// functions are non-variadic wrappers for the message parts qplay writes.

#include <stdint.h>
#include <systemd/sd-bus.h>

#define QPLAY_MPRIS_PATH "/org/mpris/MediaPlayer2"
#define QPLAY_MPRIS_ROOT_INTERFACE "org.mpris.MediaPlayer2"
#define QPLAY_MPRIS_PLAYER_INTERFACE "org.mpris.MediaPlayer2.Player"

/// Called on the thread that runs sd_bus_process. `method` answers (or fails) the call
/// itself; `get` appends the property's value to `reply`; `set` reads the new value
/// from `value` (positioned inside the variant). Each returns >= 0 or a negative errno,
/// or fills `error` and returns the result of sd_bus_error_set.
typedef struct qplay_mpris_handlers {
    void *context;
    int (*method)(void *context, sd_bus_message *call, sd_bus_error *error);
    int (*get)(void *context, const char *interface, const char *property, sd_bus_message *reply,
               sd_bus_error *error);
    int (*set)(void *context, const char *property, sd_bus_message *value, sd_bus_error *error);
} qplay_mpris_handlers;

/// A non-blocking, close-on-exec eventfd (sys/eventfd.h does not import into Swift): how
/// core events wake the bus thread's poll. -1 with errno on failure.
int qplay_mpris_wake_descriptor(void);

/// Names the calling thread (as `top -H` and /proc/PID/task/TID/comm show it): Foundation's
/// Thread.name does not reach the kernel on Linux.
void qplay_mpris_name_thread(const char *name);

/// Registers both interfaces at /org/mpris/MediaPlayer2. `handlers` must outlive the slots.
int qplay_mpris_add_objects(sd_bus *bus, sd_bus_slot **root, sd_bus_slot **player,
                            const qplay_mpris_handlers *handlers);

/// org.mpris.MediaPlayer2.Player.Seeked(x position).
int qplay_mpris_emit_seeked(sd_bus *bus, int64_t position);

/// PropertiesChanged for the properties named in `names`, separated by spaces; sd-bus
/// reads their values through the `get` callback.
int qplay_mpris_emit_changed(sd_bus *bus, const char *interface, const char *names);

/// An empty method return.
int qplay_mpris_reply_empty(sd_bus_message *call);

// Values, as the `get` callback appends them.
int qplay_mpris_append_string(sd_bus_message *m, const char *value);
int qplay_mpris_append_bool(sd_bus_message *m, int value);
int qplay_mpris_append_double(sd_bus_message *m, double value);
int qplay_mpris_append_int64(sd_bus_message *m, int64_t value);
/// An array of strings (`as`) from `joined`, the strings separated by `separator`; an
/// empty `joined` is an empty array.
int qplay_mpris_append_string_list(sd_bus_message *m, const char *joined, char separator);

// The Metadata dictionary (`a{sv}`): open, entries, close.
int qplay_mpris_open_dict(sd_bus_message *m);
int qplay_mpris_close_dict(sd_bus_message *m);
int qplay_mpris_dict_string(sd_bus_message *m, const char *key, const char *value);
int qplay_mpris_dict_object_path(sd_bus_message *m, const char *key, const char *path);
int qplay_mpris_dict_int64(sd_bus_message *m, const char *key, int64_t value);
int qplay_mpris_dict_int32(sd_bus_message *m, const char *key, int32_t value);
int qplay_mpris_dict_string_list(sd_bus_message *m, const char *key, const char *joined, char separator);

// Reading method arguments and written values.
int qplay_mpris_read_int64(sd_bus_message *m, int64_t *value);
int qplay_mpris_read_double(sd_bus_message *m, double *value);
int qplay_mpris_read_bool(sd_bus_message *m, int *value);
/// The string stays valid while the message lives.
int qplay_mpris_read_string(sd_bus_message *m, const char **value);
int qplay_mpris_read_object_path(sd_bus_message *m, const char **value);

#endif
