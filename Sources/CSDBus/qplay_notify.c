#include "qplay_notify.h"

#include <string.h>

int qplay_notify(sd_bus *bus, uint32_t replaces_id, const char *summary, const char *body,
                 const char *image_path, uint64_t timeout_usec, uint32_t *id, sd_bus_error *error) {
    sd_bus_message *call = NULL;
    sd_bus_message *reply = NULL;
    int r = sd_bus_message_new_method_call(bus, &call, "org.freedesktop.Notifications",
                                           "/org/freedesktop/Notifications",
                                           "org.freedesktop.Notifications", "Notify");
    if (r < 0) goto done;
    r = sd_bus_message_append(call, "susss", "qplay", replaces_id, "", summary, body);
    if (r < 0) goto done;
    r = sd_bus_message_append(call, "as", 0);
    if (r < 0) goto done;
    r = sd_bus_message_open_container(call, 'a', "{sv}");
    if (r < 0) goto done;
    r = sd_bus_message_append(call, "{sv}", "desktop-entry", "s", "qplay");
    if (r < 0) goto done;
    if (image_path != NULL) {
        r = sd_bus_message_append(call, "{sv}", "image-path", "s", image_path);
        if (r < 0) goto done;
    }
    r = sd_bus_message_close_container(call);
    if (r < 0) goto done;
    r = sd_bus_message_append(call, "i", (int32_t)-1);
    if (r < 0) goto done;
    r = sd_bus_call(bus, call, timeout_usec, error, &reply);
    if (r < 0) goto done;
    r = sd_bus_message_read(reply, "u", id);
done:
    sd_bus_message_unref(reply);
    sd_bus_message_unref(call);
    return r;
}

int qplay_notify_has_capability(sd_bus *bus, const char *name, uint64_t timeout_usec, sd_bus_error *error) {
    sd_bus_message *call = NULL;
    sd_bus_message *reply = NULL;
    const char *capability = NULL;
    int found = 0;
    int r = sd_bus_message_new_method_call(bus, &call, "org.freedesktop.Notifications",
                                           "/org/freedesktop/Notifications",
                                           "org.freedesktop.Notifications", "GetCapabilities");
    if (r < 0) goto done;
    r = sd_bus_call(bus, call, timeout_usec, error, &reply);
    if (r < 0) goto done;
    r = sd_bus_message_enter_container(reply, 'a', "s");
    if (r < 0) goto done;
    while ((r = sd_bus_message_read(reply, "s", &capability)) > 0) {
        if (strcmp(capability, name) == 0) found = 1;
    }
    if (r < 0) goto done;
    r = sd_bus_message_exit_container(reply);
done:
    sd_bus_message_unref(reply);
    sd_bus_message_unref(call);
    return r < 0 ? r : found;
}
