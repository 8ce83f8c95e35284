#define _GNU_SOURCE
#include "qplay_mpris_bus.h"

#include <pthread.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>

void qplay_mpris_name_thread(const char *name) { pthread_setname_np(pthread_self(), name); }

int qplay_mpris_wake_descriptor(void) { return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC); }

static int on_method(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    const qplay_mpris_handlers *handlers = userdata;
    return handlers->method(handlers->context, m, error);
}

static int on_get(sd_bus *bus, const char *path, const char *interface, const char *property,
                  sd_bus_message *reply, void *userdata, sd_bus_error *error) {
    (void)bus;
    (void)path;
    const qplay_mpris_handlers *handlers = userdata;
    return handlers->get(handlers->context, interface, property, reply, error);
}

static int on_set(sd_bus *bus, const char *path, const char *interface, const char *property,
                  sd_bus_message *value, void *userdata, sd_bus_error *error) {
    (void)bus;
    (void)path;
    (void)interface;
    const qplay_mpris_handlers *handlers = userdata;
    return handlers->set(handlers->context, property, value, error);
}

#define CHANGES SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE
#define FIXED SD_BUS_VTABLE_PROPERTY_CONST

static const sd_bus_vtable root_vtable[] = {
    SD_BUS_VTABLE_START(0),
    SD_BUS_METHOD("Raise", "", "", on_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("Quit", "", "", on_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_PROPERTY("CanQuit", "b", on_get, 0, FIXED),
    SD_BUS_PROPERTY("CanRaise", "b", on_get, 0, FIXED),
    SD_BUS_PROPERTY("HasTrackList", "b", on_get, 0, FIXED),
    SD_BUS_PROPERTY("Identity", "s", on_get, 0, FIXED),
    SD_BUS_PROPERTY("DesktopEntry", "s", on_get, 0, FIXED),
    SD_BUS_PROPERTY("SupportedUriSchemes", "as", on_get, 0, FIXED),
    SD_BUS_PROPERTY("SupportedMimeTypes", "as", on_get, 0, FIXED),
    SD_BUS_VTABLE_END,
};

static const sd_bus_vtable player_vtable[] = {
    SD_BUS_VTABLE_START(0),
    SD_BUS_METHOD("Next", "", "", on_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("Previous", "", "", on_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("Pause", "", "", on_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("PlayPause", "", "", on_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("Stop", "", "", on_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("Play", "", "", on_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD_WITH_NAMES("Seek", "x", SD_BUS_PARAM(Offset), "", "", on_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD_WITH_NAMES("SetPosition", "ox", SD_BUS_PARAM(TrackId) SD_BUS_PARAM(Position), "", "",
                             on_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD_WITH_NAMES("OpenUri", "s", SD_BUS_PARAM(Uri), "", "", on_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_SIGNAL_WITH_NAMES("Seeked", "x", SD_BUS_PARAM(Position), 0),
    SD_BUS_PROPERTY("PlaybackStatus", "s", on_get, 0, CHANGES),
    SD_BUS_WRITABLE_PROPERTY("LoopStatus", "s", on_get, on_set, 0, CHANGES | SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_WRITABLE_PROPERTY("Shuffle", "b", on_get, on_set, 0, CHANGES | SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_WRITABLE_PROPERTY("Volume", "d", on_get, on_set, 0, CHANGES | SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_PROPERTY("Metadata", "a{sv}", on_get, 0, CHANGES),
    // Read on demand: MPRIS says clients follow Seeked and the clock, not change signals.
    SD_BUS_PROPERTY("Position", "x", on_get, 0, 0),
    // Writable as MPRIS requires, though it stays 1.0 (sd-bus refuses a writable const).
    SD_BUS_WRITABLE_PROPERTY("Rate", "d", on_get, on_set, 0, CHANGES | SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_PROPERTY("MinimumRate", "d", on_get, 0, FIXED),
    SD_BUS_PROPERTY("MaximumRate", "d", on_get, 0, FIXED),
    SD_BUS_PROPERTY("CanGoNext", "b", on_get, 0, CHANGES),
    SD_BUS_PROPERTY("CanGoPrevious", "b", on_get, 0, CHANGES),
    SD_BUS_PROPERTY("CanPlay", "b", on_get, 0, CHANGES),
    SD_BUS_PROPERTY("CanPause", "b", on_get, 0, CHANGES),
    SD_BUS_PROPERTY("CanSeek", "b", on_get, 0, CHANGES),
    SD_BUS_PROPERTY("CanControl", "b", on_get, 0, FIXED),
    SD_BUS_VTABLE_END,
};

int qplay_mpris_add_objects(sd_bus *bus, sd_bus_slot **root, sd_bus_slot **player,
                            const qplay_mpris_handlers *handlers) {
    int r = sd_bus_add_object_vtable(bus, root, QPLAY_MPRIS_PATH, QPLAY_MPRIS_ROOT_INTERFACE, root_vtable,
                                     (void *)handlers);
    if (r < 0) return r;
    return sd_bus_add_object_vtable(bus, player, QPLAY_MPRIS_PATH, QPLAY_MPRIS_PLAYER_INTERFACE, player_vtable,
                                    (void *)handlers);
}

int qplay_mpris_emit_seeked(sd_bus *bus, int64_t position) {
    return sd_bus_emit_signal(bus, QPLAY_MPRIS_PATH, QPLAY_MPRIS_PLAYER_INTERFACE, "Seeked", "x", position);
}

int qplay_mpris_emit_changed(sd_bus *bus, const char *interface, const char *names) {
    char *copy = strdup(names);
    if (!copy) return -ENOMEM;
    char *list[32];
    size_t count = 0;
    char *saved = NULL;
    for (char *name = strtok_r(copy, " ", &saved); name && count < 31; name = strtok_r(NULL, " ", &saved)) {
        list[count++] = name;
    }
    list[count] = NULL;
    int r = count ? sd_bus_emit_properties_changed_strv(bus, QPLAY_MPRIS_PATH, interface, list) : 0;
    free(copy);
    return r;
}

int qplay_mpris_reply_empty(sd_bus_message *call) { return sd_bus_reply_method_return(call, ""); }

int qplay_mpris_append_string(sd_bus_message *m, const char *value) {
    return sd_bus_message_append_basic(m, SD_BUS_TYPE_STRING, value);
}

int qplay_mpris_append_bool(sd_bus_message *m, int value) {
    int b = value ? 1 : 0;
    return sd_bus_message_append_basic(m, SD_BUS_TYPE_BOOLEAN, &b);
}

int qplay_mpris_append_double(sd_bus_message *m, double value) {
    return sd_bus_message_append_basic(m, SD_BUS_TYPE_DOUBLE, &value);
}

int qplay_mpris_append_int64(sd_bus_message *m, int64_t value) {
    return sd_bus_message_append_basic(m, SD_BUS_TYPE_INT64, &value);
}

int qplay_mpris_append_string_list(sd_bus_message *m, const char *joined, char separator) {
    int r = sd_bus_message_open_container(m, SD_BUS_TYPE_ARRAY, "s");
    if (r < 0) return r;
    const char *start = joined;
    while (*start) {
        const char *end = strchr(start, separator);
        size_t length = end ? (size_t)(end - start) : strlen(start);
        char *item = strndup(start, length);
        if (!item) return -ENOMEM;
        r = sd_bus_message_append_basic(m, SD_BUS_TYPE_STRING, item);
        free(item);
        if (r < 0) return r;
        if (!end) break;
        start = end + 1;
    }
    return sd_bus_message_close_container(m);
}

int qplay_mpris_open_dict(sd_bus_message *m) { return sd_bus_message_open_container(m, SD_BUS_TYPE_ARRAY, "{sv}"); }

int qplay_mpris_close_dict(sd_bus_message *m) { return sd_bus_message_close_container(m); }

/// Opens `{key: variant of contents}`; the caller appends the value and closes twice.
static int open_entry(sd_bus_message *m, const char *key, const char *contents) {
    int r = sd_bus_message_open_container(m, SD_BUS_TYPE_DICT_ENTRY, "sv");
    if (r < 0) return r;
    r = sd_bus_message_append_basic(m, SD_BUS_TYPE_STRING, key);
    if (r < 0) return r;
    return sd_bus_message_open_container(m, SD_BUS_TYPE_VARIANT, contents);
}

static int close_entry(sd_bus_message *m, int r) {
    if (r < 0) return r;
    r = sd_bus_message_close_container(m);
    if (r < 0) return r;
    return sd_bus_message_close_container(m);
}

int qplay_mpris_dict_string(sd_bus_message *m, const char *key, const char *value) {
    int r = open_entry(m, key, "s");
    if (r < 0) return r;
    return close_entry(m, sd_bus_message_append_basic(m, SD_BUS_TYPE_STRING, value));
}

int qplay_mpris_dict_object_path(sd_bus_message *m, const char *key, const char *path) {
    int r = open_entry(m, key, "o");
    if (r < 0) return r;
    return close_entry(m, sd_bus_message_append_basic(m, SD_BUS_TYPE_OBJECT_PATH, path));
}

int qplay_mpris_dict_int64(sd_bus_message *m, const char *key, int64_t value) {
    int r = open_entry(m, key, "x");
    if (r < 0) return r;
    return close_entry(m, sd_bus_message_append_basic(m, SD_BUS_TYPE_INT64, &value));
}

int qplay_mpris_dict_int32(sd_bus_message *m, const char *key, int32_t value) {
    int r = open_entry(m, key, "i");
    if (r < 0) return r;
    return close_entry(m, sd_bus_message_append_basic(m, SD_BUS_TYPE_INT32, &value));
}

int qplay_mpris_dict_string_list(sd_bus_message *m, const char *key, const char *joined, char separator) {
    int r = open_entry(m, key, "as");
    if (r < 0) return r;
    return close_entry(m, qplay_mpris_append_string_list(m, joined, separator));
}

int qplay_mpris_read_int64(sd_bus_message *m, int64_t *value) {
    return sd_bus_message_read_basic(m, SD_BUS_TYPE_INT64, value);
}

int qplay_mpris_read_double(sd_bus_message *m, double *value) {
    return sd_bus_message_read_basic(m, SD_BUS_TYPE_DOUBLE, value);
}

int qplay_mpris_read_bool(sd_bus_message *m, int *value) {
    return sd_bus_message_read_basic(m, SD_BUS_TYPE_BOOLEAN, value);
}

int qplay_mpris_read_string(sd_bus_message *m, const char **value) {
    return sd_bus_message_read_basic(m, SD_BUS_TYPE_STRING, value);
}

int qplay_mpris_read_object_path(sd_bus_message *m, const char **value) {
    return sd_bus_message_read_basic(m, SD_BUS_TYPE_OBJECT_PATH, value);
}
