/*
 * test-adapter: one adapter connection in a process of its own, so that a test can kill it with SIGKILL at
 * any moment. It registers as ADAPTER for APP with traitd, prints "registered" once traitd accepted that,
 * and for every transition of APP's window waits DELAY_MS and then reports one frame with ReportLayout.
 *
 * Signals are taken only from the unique name that owned org.traitd.Layout1 when it started (GetNameOwner):
 * anyone could send one straight to this connection.
 *
 * Usage: test-adapter BUS_ADDRESS APP ADAPTER DELAY_MS. Single-threaded, blocking; exits when the bus goes.
 */
#include <dbus/dbus.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BUS_NAME "org.traitd.Layout1"
#define ROOT "/org/traitd/Layout1"
#define WINDOW_IFACE "org.traitd.Layout1.Window"

static void fail(const char *what, DBusError *error) {
    fprintf(stderr, "test-adapter: %s: %s\n", what, error && dbus_error_is_set(error) ? error->message : "failed");
    exit(1);
}

/* Calls a method with string arguments (NULL-terminated), blocking; returns the reply or exits. */
static DBusMessage *call(DBusConnection *c, const char *dest, const char *path, const char *iface, const char *member,
                         const char **strings) {
    DBusMessage *m = dbus_message_new_method_call(dest, path, iface, member);
    if (!m) fail("new call", NULL);
    for (; strings && *strings; strings++) dbus_message_append_args(m, DBUS_TYPE_STRING, strings, DBUS_TYPE_INVALID);
    DBusError error;
    dbus_error_init(&error);
    DBusMessage *reply = dbus_connection_send_with_reply_and_block(c, m, 10000, &error);
    dbus_message_unref(m);
    if (!reply) fail(member, &error);
    return reply;
}

static void report(DBusConnection *c, const char *path, dbus_uint64_t id, const char *adapter) {
    DBusMessage *m = dbus_message_new_method_call(BUS_NAME, path, WINDOW_IFACE, "ReportLayout");
    DBusMessageIter args, frames, entry, rect, extras;
    const char *element = "main";
    double values[4] = {0, 0, 10, 10};
    dbus_message_iter_init_append(m, &args);
    dbus_message_iter_append_basic(&args, DBUS_TYPE_UINT64, &id);
    dbus_message_iter_append_basic(&args, DBUS_TYPE_STRING, &adapter);
    dbus_message_iter_open_container(&args, DBUS_TYPE_ARRAY, "{s(dddd)}", &frames);
    dbus_message_iter_open_container(&frames, DBUS_TYPE_DICT_ENTRY, NULL, &entry);
    dbus_message_iter_append_basic(&entry, DBUS_TYPE_STRING, &element);
    dbus_message_iter_open_container(&entry, DBUS_TYPE_STRUCT, NULL, &rect);
    for (int i = 0; i < 4; i++) dbus_message_iter_append_basic(&rect, DBUS_TYPE_DOUBLE, &values[i]);
    dbus_message_iter_close_container(&entry, &rect);
    dbus_message_iter_close_container(&frames, &entry);
    dbus_message_iter_close_container(&args, &frames);
    dbus_message_iter_open_container(&args, DBUS_TYPE_ARRAY, "{sv}", &extras);
    dbus_message_iter_close_container(&args, &extras);
    DBusError error;
    dbus_error_init(&error);
    DBusMessage *reply = dbus_connection_send_with_reply_and_block(c, m, 10000, &error);
    dbus_message_unref(m);
    if (reply) {
        printf("reported %llu\n", (unsigned long long)id);
        dbus_message_unref(reply);
    } else {
        printf("refused %llu: %s\n", (unsigned long long)id, error.message);
        dbus_error_free(&error);
    }
    fflush(stdout);
}

int main(int argc, char **argv) {
    if (argc != 5) {
        fprintf(stderr, "usage: test-adapter BUS_ADDRESS APP ADAPTER DELAY_MS\n");
        return 64;
    }
    const char *app = argv[2], *adapter = argv[3];
    int delay_ms = atoi(argv[4]);
    char path[512];
    snprintf(path, sizeof path, ROOT "/window/%s", app); /* APP must be [A-Za-z0-9] here: no escaping */

    DBusError error;
    dbus_error_init(&error);
    DBusConnection *c = dbus_connection_open_private(argv[1], &error);
    if (!c || !dbus_bus_register(c, &error)) fail("connect", &error);

    const char *owner_args[] = {BUS_NAME, NULL};
    DBusMessage *reply = call(c, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "GetNameOwner", owner_args);
    const char *owner_text = NULL;
    if (!dbus_message_get_args(reply, &error, DBUS_TYPE_STRING, &owner_text, DBUS_TYPE_INVALID)) fail("GetNameOwner", &error);
    char *owner = strdup(owner_text);
    dbus_message_unref(reply);

    char rule[1024];
    snprintf(rule, sizeof rule, "type='signal',sender='%s',path='%s',interface='" WINDOW_IFACE "'", owner, path);
    dbus_bus_add_match(c, rule, &error);
    if (dbus_error_is_set(&error)) fail("AddMatch", &error);
    const char *register_args[] = {app, adapter, NULL};
    dbus_message_unref(call(c, BUS_NAME, ROOT, "org.traitd.Layout1.Display", "RegisterAdapter", register_args));
    printf("registered\n");
    fflush(stdout);

    dbus_uint64_t last = 0;
    while (dbus_connection_read_write(c, -1)) {
        DBusMessage *m;
        while ((m = dbus_connection_pop_message(c))) {
            const char *sender = dbus_message_get_sender(m);
            dbus_uint64_t id = 0;
            if (dbus_message_get_type(m) == DBUS_MESSAGE_TYPE_SIGNAL && sender && strcmp(sender, owner) == 0 &&
                dbus_message_has_interface(m, WINDOW_IFACE) && !dbus_message_has_member(m, "TransitionCompleted") &&
                dbus_message_get_args(m, NULL, DBUS_TYPE_UINT64, &id, DBUS_TYPE_INVALID) && id > last) {
                last = id;
                usleep((useconds_t)delay_ms * 1000);
                report(c, path, id, adapter);
            }
            dbus_message_unref(m);
        }
    }
    free(owner);
    return 0;
}
