/* traitd-follow: a C client of traitd built on the proxy that gdbus-codegen generates from the interface XML
 * (Config/dbus-1/org.traitd.Layout1.xml). It prints the display and one app's window, asks for a rotation, and
 * prints the window's ViewWillTransitionToSize and TransitionCompleted signals until that transition completes
 * (Rotate's reply names the transitions it started; the signals of all of them came before it).
 *
 *   make -C examples/c-client && examples/c-client/traitd-follow [APP] [ORIENTATION]
 *
 * The same generated code is how Vala, GJS, Rust (gio) or any GObject language would use traitd: the XML is the
 * contract, and nothing here is written by hand that the XML already says. */
#include <gio/gio.h>
#include <stdio.h>
#include <stdlib.h>

#include "traitd-generated.h"

typedef struct {
    GMainLoop *loop;
    int status;
    int completed;
} Follow;

static void print_frame(const char *label, GVariant *frame) {
    double x, y, w, h;
    g_variant_get(frame, "(dddd)", &x, &y, &w, &h);
    printf("%s %g, %g, %g x %g\n", label, x, y, w, h);
}

static void on_will_transition_to_size(TraitdWindow *window, guint64 transition, gdouble width, gdouble height,
                                       GVariant *context, gpointer data) {
    (void)window; (void)data;
    const char *reason = "?", *orientation = "?";
    double duration = 0;
    g_variant_lookup(context, "reason", "&s", &reason);
    g_variant_lookup(context, "orientation", "&s", &orientation);
    g_variant_lookup(context, "duration", "d", &duration);
    printf("ViewWillTransitionToSize #%" G_GUINT64_FORMAT " %g x %g reason=%s orientation=%s duration=%gs\n",
           transition, width, height, reason, orientation, duration);
    fflush(stdout);
}

static char *joined(const gchar *const *names) {
    return names && names[0] ? g_strjoinv(",", (gchar **)names) : g_strdup("-");
}

static void on_transition_completed(TraitdWindow *window, guint64 transition, const gchar *const *reported,
                                    const gchar *const *missed, const gchar *const *failed, gpointer data) {
    Follow *follow = data;
    char *r = joined(reported), *m = joined(missed), *f = joined(failed);
    printf("TransitionCompleted #%" G_GUINT64_FORMAT " reported=%s missed=%s failed=%s\n", transition, r, m, f);
    g_free(r); g_free(m); g_free(f);
    /* The proxy's property cache follows PropertiesChanged: the frame is the new one by now. */
    GVariant *frame = traitd_window_get_frame(window);
    if (frame) print_frame("frame now", frame);
    printf("size classes now %s %s\n", traitd_window_get_horizontal_size_class(window),
           traitd_window_get_vertical_size_class(window));
    fflush(stdout);
    follow->completed = 1;
    follow->status = 0;
    g_main_loop_quit(follow->loop);
}

static gboolean on_timeout(gpointer data) {
    Follow *follow = data;
    fprintf(stderr, "traitd-follow: no TransitionCompleted within 10 s\n");
    g_main_loop_quit(follow->loop);
    return G_SOURCE_REMOVE;
}

int main(int argc, char **argv) {
    const char *app = argc > 1 ? argv[1] : "mail";
    const char *orientation = argc > 2 ? argv[2] : "portrait";
    GError *error = NULL;

    TraitdDisplay *display = traitd_display_proxy_new_for_bus_sync(
        G_BUS_TYPE_SESSION, G_DBUS_PROXY_FLAGS_NONE, "org.traitd.Layout1", "/org/traitd/Layout1", NULL, &error);
    if (!display) {
        fprintf(stderr, "traitd-follow: %s\n", error->message);
        return 1;
    }
    if (!traitd_display_get_device(display)) {
        fprintf(stderr, "traitd-follow: traitd is not on the session bus (try: traitctl run -- %s)\n", argv[0]);
        return 1;
    }
    double screen_width, screen_height;
    g_variant_get(traitd_display_get_screen_size(display), "(dd)", &screen_width, &screen_height);
    printf("device %s %s %g x %g @%gx %s serial %" G_GUINT64_FORMAT "\n", traitd_display_get_device(display),
           traitd_display_get_orientation(display), screen_width, screen_height, traitd_display_get_scale(display),
           traitd_display_get_arrangement(display), traitd_display_get_serial(display));

    char *path = g_strdup_printf("/org/traitd/Layout1/window/%s", app);
    TraitdWindow *window = traitd_window_proxy_new_for_bus_sync(
        G_BUS_TYPE_SESSION, G_DBUS_PROXY_FLAGS_NONE, "org.traitd.Layout1", path, NULL, &error);
    if (!window || !traitd_window_get_app(window)) {
        fprintf(stderr, "traitd-follow: no window for %s at %s\n", app, path);
        return 1;
    }
    printf("window %s role %s state %s\n", traitd_window_get_app(window), traitd_window_get_role(window),
           traitd_window_get_state(window));
    print_frame("frame", traitd_window_get_frame(window));
    printf("size classes %s %s\n", traitd_window_get_horizontal_size_class(window),
           traitd_window_get_vertical_size_class(window));
    fflush(stdout);

    Follow follow = {g_main_loop_new(NULL, FALSE), 1, 0};
    g_signal_connect(window, "view-will-transition-to-size", G_CALLBACK(on_will_transition_to_size), &follow);
    g_signal_connect(window, "transition-completed", G_CALLBACK(on_transition_completed), &follow);

    /* A refusal comes back as a named D-Bus error, e.g. org.traitd.Layout1.Error.InvalidOrientation. */
    GVariant *started = NULL;
    if (!traitd_display_call_rotate_sync(display, orientation, &started, NULL, &error)) {
        gchar *name = g_dbus_error_get_remote_error(error);
        g_dbus_error_strip_remote_error(error);
        fprintf(stderr, "traitd-follow: Rotate(%s) refused: %s: %s\n", orientation, name ? name : "?", error->message);
        return 2;
    }
    printf("Rotate(%s) accepted\n", orientation);
    printf("started %" G_GSIZE_FORMAT " transition(s)\n", g_variant_n_children(started));
    g_variant_unref(started);
    fflush(stdout);
    g_timeout_add_seconds(10, on_timeout, &follow);
    g_main_loop_run(follow.loop);

    g_object_unref(window);
    g_object_unref(display);
    g_free(path);
    return follow.status;
}
