#ifndef QPLAY_NOTIFY_H
#define QPLAY_NOTIFY_H

// org.freedesktop.Notifications.Notify for Swift: sd-bus writes and reads messages
// through variadic functions, which do not import into Swift.

#include <stdint.h>
#include <systemd/sd-bus.h>

/// Calls Notify(app_name "qplay", replaces_id, app_icon "", summary, body, actions [],
/// hints {"desktop-entry": "qplay", "image-path": image_path when not NULL},
/// expire_timeout -1) and waits at most `timeout_usec` for the answer. On success
/// stores the notification's id in `id` and returns >= 0; otherwise a negative errno,
/// with the server's error (if it sent one) in `error`.
int qplay_notify(sd_bus *bus, uint32_t replaces_id, const char *summary, const char *body,
                 const char *image_path, uint64_t timeout_usec, uint32_t *id, sd_bus_error *error);

/// Whether GetCapabilities lists `name`: 1 or 0, or a negative errno (error in `error`).
int qplay_notify_has_capability(sd_bus *bus, const char *name, uint64_t timeout_usec, sd_bus_error *error);

#endif
