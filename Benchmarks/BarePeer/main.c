/*
 * bare-peer: the transition benchmark's baseline. A minimal service on plain libdbus that takes the name
 * org.traitd.Layout1 on a bus and exchanges the messages one traitd transition needs, with no simulation,
 * no object model and no bookkeeping beyond a counter:
 *
 *   RegisterAdapter(s app, s adapter)   -> reply; counts the adapters
 *   SetArrangement(s)                    -> the messages traitd sends for it, in its order and with the same contents:
 *                                           mail's WillTransitionToTraitCollection (the whole trait collection) and
 *                                           ViewWillTransitionToSize (the whole context), notes's ViewWillTransitionToSize,
 *                                           PropertiesChanged for the display (Arrangement, DividerPosition, Serial), mail
 *                                           (Frame, HorizontalSizeClass, Traits) and notes (Frame), each followed by
 *                                           its DidUpdateEffectiveGeometry (the whole previous geometry), mail's
 *                                           TraitCollectionDidChange and TraitDidChange, both windows' ViewWillLayoutSubviews,
 *                                           notes's TransitionCompleted; then the reply naming both transitions (with
 *                                           no adapters, mail's completion at once)
 *   ReportLayout(t, s, a{s(dddd)}, a{sv}) on the window -> reply; the last report emits the window's LayoutExtras,
 *                                           LayoutProblems and Layouts (PropertiesChanged, one frame per adapter, no
 *                                           problem) and TransitionCompleted(t, reported, [], [])
 *   MoveDivider(d)                       -> PropertiesChanged(DividerPosition) on the display, then the reply
 *   BeginDividerDrag, EndDividerDrag     -> reply
 *   ResizeTo((dd)) on the window         -> when no resize transition waits for adapters: a transition's signals
 *                                           (the trait signals when the width crosses 678 pt, ViewWillLayoutSubviews),
 *                                           then the reply; else
 *                                           the size waits (the latest wins) and goes when the open one completes,
 *                                           as traitd coalesces a live resize
 *   SetWindowing, BeginResize, EndResize -> reply
 *   Properties.Get                       -> a uint64 0 in a variant (the load benchmark's reads of Serial)
 *
 * The benchmark runs the same clients against it and against traitd, so the difference is traitd's own cost.
 * Usage: bare-peer BUS_ADDRESS. Single-threaded, blocking; exits when the bus goes away.
 */
#include <dbus/dbus.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BUS_NAME "org.traitd.Layout1"
#define ROOT "/org/traitd/Layout1"
#define WINDOW "/org/traitd/Layout1/window/mail"
#define NOTES "/org/traitd/Layout1/window/notes"
#define DISPLAY_IFACE "org.traitd.Layout1.Display"
#define WINDOW_IFACE "org.traitd.Layout1.Window"
#define MAX_ADAPTERS 4096

static int adapters = 0;
/* Transition ids as traitd numbers them: one counter, an id per window's transition (mail's first, then notes's). */
static dbus_uint64_t next_id = 1;
static dbus_uint64_t transition = 0, notes_transition = 0;
/* The display's Serial: 1 at start, one more for each change of the display. */
static dbus_uint64_t serial = 1;
static char *reported[MAX_ADAPTERS];
static int reported_count = 0;
static int compact = 0;
static double width = 694;
/* The live resize: whether a step's transition waits for its adapters, and the latest step waiting for it. */
static int resize_open = 0;
static int resize_waiting = 0;
static double waiting_width, waiting_height;

static void fail(const char *what, DBusError *error) {
    fprintf(stderr, "bare-peer: %s: %s\n", what, error && dbus_error_is_set(error) ? error->message : "out of memory");
    exit(1);
}

static void send_and_unref(DBusConnection *c, DBusMessage *m) {
    if (!m || !dbus_connection_send(c, m, NULL)) fail("send", NULL);
    dbus_message_unref(m);
}

/* One entry of an a{sv}: open_entry opens the entry and its variant of signature `type`, the caller appends the
 * value, close_entry closes both. */
static void open_entry(DBusMessageIter *dict, DBusMessageIter *entry, DBusMessageIter *variant, const char *key,
                       const char *type) {
    dbus_message_iter_open_container(dict, DBUS_TYPE_DICT_ENTRY, NULL, entry);
    dbus_message_iter_append_basic(entry, DBUS_TYPE_STRING, &key);
    dbus_message_iter_open_container(entry, DBUS_TYPE_VARIANT, type, variant);
}

static void close_entry(DBusMessageIter *dict, DBusMessageIter *entry, DBusMessageIter *variant) {
    dbus_message_iter_close_container(entry, variant);
    dbus_message_iter_close_container(dict, entry);
}

/* One a{sv} entry whose value is a string. */
static void append_string_entry(DBusMessageIter *dict, const char *key, const char *value) {
    DBusMessageIter entry, variant;
    open_entry(dict, &entry, &variant, key, "s");
    dbus_message_iter_append_basic(&variant, DBUS_TYPE_STRING, &value);
    close_entry(dict, &entry, &variant);
}

/* The id of the open transition of the window at `path`. */
static dbus_uint64_t *transition_of(const char *path) { return strcmp(path, NOTES) == 0 ? &notes_transition : &transition; }

/* The window's whole trait collection (a{sv}, the twelve keys traitd sends, in its order). */
static void append_traits(DBusMessageIter *args, const char *size_class) {
    DBusMessageIter dict, entry, variant;
    const double scale = 2;
    dbus_message_iter_open_container(args, DBUS_TYPE_ARRAY, "{sv}", &dict);
    append_string_entry(&dict, "accessibilityContrast", "normal");
    append_string_entry(&dict, "activeAppearance", "active");
    append_string_entry(&dict, "displayGamut", "srgb");
    open_entry(&dict, &entry, &variant, "displayScale", "d");
    dbus_message_iter_append_basic(&variant, DBUS_TYPE_DOUBLE, &scale);
    close_entry(&dict, &entry, &variant);
    append_string_entry(&dict, "horizontalSizeClass", size_class);
    append_string_entry(&dict, "idiom", "pad");
    append_string_entry(&dict, "layoutDirection", "left-to-right");
    append_string_entry(&dict, "legibilityWeight", "regular");
    append_string_entry(&dict, "preferredContentSizeCategory", "large");
    append_string_entry(&dict, "userInterfaceLevel", "base");
    append_string_entry(&dict, "userInterfaceStyle", "light");
    append_string_entry(&dict, "verticalSizeClass", "regular");
    dbus_message_iter_close_container(args, &dict);
}

static void traits_signal(DBusConnection *c, const char *member, const char *size_class) {
    DBusMessage *s = dbus_message_new_signal(WINDOW, WINDOW_IFACE, member);
    DBusMessageIter args;
    dbus_message_iter_init_append(s, &args);
    dbus_message_iter_append_basic(&args, DBUS_TYPE_UINT64, &transition);
    append_traits(&args, size_class);
    send_and_unref(c, s);
}

/* TraitDidChange(t, s, v, v): the one trait that changes, its new value and the one before. */
static void trait_did_change(DBusConnection *c, const char *value, const char *previous) {
    DBusMessage *s = dbus_message_new_signal(WINDOW, WINDOW_IFACE, "TraitDidChange");
    DBusMessageIter args, variant;
    const char *key = "horizontalSizeClass";
    dbus_message_iter_init_append(s, &args);
    dbus_message_iter_append_basic(&args, DBUS_TYPE_UINT64, &transition);
    dbus_message_iter_append_basic(&args, DBUS_TYPE_STRING, &key);
    dbus_message_iter_open_container(&args, DBUS_TYPE_VARIANT, "s", &variant);
    dbus_message_iter_append_basic(&variant, DBUS_TYPE_STRING, &value);
    dbus_message_iter_close_container(&args, &variant);
    dbus_message_iter_open_container(&args, DBUS_TYPE_VARIANT, "s", &variant);
    dbus_message_iter_append_basic(&variant, DBUS_TYPE_STRING, &previous);
    dbus_message_iter_close_container(&args, &variant);
    send_and_unref(c, s);
}

/* ViewWillLayoutSubviews(t): a transition's news is complete. */
static void will_layout(DBusConnection *c, const char *path) {
    DBusMessage *s = dbus_message_new_signal(path, WINDOW_IFACE, "ViewWillLayoutSubviews");
    DBusMessageIter args;
    dbus_message_iter_init_append(s, &args);
    dbus_message_iter_append_basic(&args, DBUS_TYPE_UINT64, transition_of(path));
    send_and_unref(c, s);
}

static void append_quad(DBusMessageIter *variant, const double values[4]) {
    DBusMessageIter quad;
    dbus_message_iter_open_container(variant, DBUS_TYPE_STRUCT, NULL, &quad);
    for (int i = 0; i < 4; i++) dbus_message_iter_append_basic(&quad, DBUS_TYPE_DOUBLE, &values[i]);
    dbus_message_iter_close_container(variant, &quad);
}

/* DidUpdateEffectiveGeometry(t, a{sv}): the window's scene geometry before the change (its frame x, 0, w, h),
 * with the six keys traitd sends, in its order. */
static void effective_geometry(DBusConnection *c, const char *path, double x, double w, double h) {
    DBusMessage *s = dbus_message_new_signal(path, WINDOW_IFACE, "DidUpdateEffectiveGeometry");
    DBusMessageIter args, dict, entry, variant, pair;
    const double frame[4] = {x, 0, w, h}, none[2] = {0, 0};
    const dbus_bool_t no = FALSE;
    dbus_message_iter_init_append(s, &args);
    dbus_message_iter_append_basic(&args, DBUS_TYPE_UINT64, transition_of(path));
    dbus_message_iter_open_container(&args, DBUS_TYPE_ARRAY, "{sv}", &dict);
    append_string_entry(&dict, "display", "device");
    open_entry(&dict, &entry, &variant, "frame", "(dddd)");
    append_quad(&variant, frame);
    close_entry(&dict, &entry, &variant);
    open_entry(&dict, &entry, &variant, "interactivelyResizing", "b");
    dbus_message_iter_append_basic(&variant, DBUS_TYPE_BOOLEAN, &no);
    close_entry(&dict, &entry, &variant);
    for (int k = 0; k < 2; k++) {
        open_entry(&dict, &entry, &variant, k == 0 ? "maximumSize" : "minimumSize", "(dd)");
        dbus_message_iter_open_container(&variant, DBUS_TYPE_STRUCT, NULL, &pair);
        for (int i = 0; i < 2; i++) dbus_message_iter_append_basic(&pair, DBUS_TYPE_DOUBLE, &none[i]);
        dbus_message_iter_close_container(&variant, &pair);
        close_entry(&dict, &entry, &variant);
    }
    append_string_entry(&dict, "orientation", "landscape-left");
    dbus_message_iter_close_container(&args, &dict);
    send_and_unref(c, s);
}

/* ViewWillTransitionToSize with the whole context traitd sends, its fourteen keys in its order; the window's new
 * frame is (x, 0, width, height). */
static void size_signal(DBusConnection *c, const char *path, double x, double width, double height) {
    DBusMessage *s = dbus_message_new_signal(path, WINDOW_IFACE, "ViewWillTransitionToSize");
    DBusMessageIter args, dict, entry, variant, pair;
    const double duration = 0.3, frame[4] = {x, 0, width, height}, insets[4] = {20, 0, 0, 0};
    const double screen[2] = {1024, 768};
    const dbus_bool_t no = FALSE;
    dbus_message_iter_init_append(s, &args);
    dbus_message_iter_append_basic(&args, DBUS_TYPE_UINT64, transition_of(path));
    dbus_message_iter_append_basic(&args, DBUS_TYPE_DOUBLE, &width);
    dbus_message_iter_append_basic(&args, DBUS_TYPE_DOUBLE, &height);
    dbus_message_iter_open_container(&args, DBUS_TYPE_ARRAY, "{sv}", &dict);
    append_string_entry(&dict, "accessibilityContrast", "normal");
    open_entry(&dict, &entry, &variant, "duration", "d");
    dbus_message_iter_append_basic(&variant, DBUS_TYPE_DOUBLE, &duration);
    close_entry(&dict, &entry, &variant);
    open_entry(&dict, &entry, &variant, "frame", "(dddd)");
    append_quad(&variant, frame);
    close_entry(&dict, &entry, &variant);
    open_entry(&dict, &entry, &variant, "interactivelyResizing", "b");
    dbus_message_iter_append_basic(&variant, DBUS_TYPE_BOOLEAN, &no);
    close_entry(&dict, &entry, &variant);
    append_string_entry(&dict, "layoutDirection", "left-to-right");
    append_string_entry(&dict, "legibilityWeight", "regular");
    append_string_entry(&dict, "orientation", "landscape-left");
    append_string_entry(&dict, "preferredContentSizeCategory", "large");
    append_string_entry(&dict, "reason", "arrangement");
    open_entry(&dict, &entry, &variant, "reduceMotion", "b");
    dbus_message_iter_append_basic(&variant, DBUS_TYPE_BOOLEAN, &no);
    close_entry(&dict, &entry, &variant);
    open_entry(&dict, &entry, &variant, "safeAreaInsets", "(dddd)");
    append_quad(&variant, insets);
    close_entry(&dict, &entry, &variant);
    open_entry(&dict, &entry, &variant, "screenSize", "(dd)");
    dbus_message_iter_open_container(&variant, DBUS_TYPE_STRUCT, NULL, &pair);
    for (int i = 0; i < 2; i++) dbus_message_iter_append_basic(&pair, DBUS_TYPE_DOUBLE, &screen[i]);
    dbus_message_iter_close_container(&variant, &pair);
    close_entry(&dict, &entry, &variant);
    open_entry(&dict, &entry, &variant, "snapshot", "b");
    dbus_message_iter_append_basic(&variant, DBUS_TYPE_BOOLEAN, &no);
    close_entry(&dict, &entry, &variant);
    append_string_entry(&dict, "userInterfaceStyle", "light");
    dbus_message_iter_close_container(&args, &dict);
    send_and_unref(c, s);
}

static void append_strings(DBusMessageIter *args, char **items, int count) {
    DBusMessageIter array;
    dbus_message_iter_open_container(args, DBUS_TYPE_ARRAY, "s", &array);
    for (int i = 0; i < count; i++) dbus_message_iter_append_basic(&array, DBUS_TYPE_STRING, &items[i]);
    dbus_message_iter_close_container(args, &array);
}

static void completed(DBusConnection *c, const char *path) {
    DBusMessage *s = dbus_message_new_signal(path, WINDOW_IFACE, "TransitionCompleted");
    DBusMessageIter args;
    dbus_message_iter_init_append(s, &args);
    dbus_message_iter_append_basic(&args, DBUS_TYPE_UINT64, transition_of(path));
    append_strings(&args, reported, reported_count);
    append_strings(&args, NULL, 0);
    append_strings(&args, NULL, 0);
    send_and_unref(c, s);
    for (int i = 0; i < reported_count; i++) free(reported[i]);
    reported_count = 0;
}

/* A PropertiesChanged signal on `path` for `iface`: begin opens its changed-properties a{sv} (`dict`), the caller
 * adds the entries, end closes it, adds the empty invalidated list and sends it. */
typedef struct { DBusMessage *message; DBusMessageIter args, dict; } PropertiesChanged;

static void properties_begin(PropertiesChanged *p, const char *path, const char *iface) {
    p->message = dbus_message_new_signal(path, "org.freedesktop.DBus.Properties", "PropertiesChanged");
    dbus_message_iter_init_append(p->message, &p->args);
    dbus_message_iter_append_basic(&p->args, DBUS_TYPE_STRING, &iface);
    dbus_message_iter_open_container(&p->args, DBUS_TYPE_ARRAY, "{sv}", &p->dict);
}

static void properties_end(DBusConnection *c, PropertiesChanged *p) {
    DBusMessageIter none;
    dbus_message_iter_close_container(&p->args, &p->dict);
    dbus_message_iter_open_container(&p->args, DBUS_TYPE_ARRAY, "s", &none);
    dbus_message_iter_close_container(&p->args, &none);
    send_and_unref(c, p->message);
}

static void property_changed(DBusConnection *c, const char *path, const char *iface, const char *key, double x) {
    PropertiesChanged p;
    DBusMessageIter entry, variant;
    properties_begin(&p, path, iface);
    open_entry(&p.dict, &entry, &variant, key, "d");
    dbus_message_iter_append_basic(&variant, DBUS_TYPE_DOUBLE, &x);
    close_entry(&p.dict, &entry, &variant);
    properties_end(c, &p);
}

/* PropertiesChanged on the display for a new arrangement: Arrangement, DividerPosition and Serial, as traitd
 * publishes them. */
static void display_changed(DBusConnection *c, const char *arrangement, double divider) {
    PropertiesChanged p;
    DBusMessageIter entry, variant;
    properties_begin(&p, ROOT, DISPLAY_IFACE);
    append_string_entry(&p.dict, "Arrangement", arrangement);
    open_entry(&p.dict, &entry, &variant, "DividerPosition", "d");
    dbus_message_iter_append_basic(&variant, DBUS_TYPE_DOUBLE, &divider);
    close_entry(&p.dict, &entry, &variant);
    open_entry(&p.dict, &entry, &variant, "Serial", "t");
    dbus_message_iter_append_basic(&variant, DBUS_TYPE_UINT64, &serial);
    close_entry(&p.dict, &entry, &variant);
    properties_end(c, &p);
}

/* PropertiesChanged on a window: its Frame (x, 0, width, height), and when its size class changed
 * (size_class not NULL) HorizontalSizeClass and Traits, as traitd publishes them. */
static void window_changed(DBusConnection *c, const char *path, double x, double w, double h, const char *size_class) {
    PropertiesChanged p;
    DBusMessageIter entry, variant;
    const double frame[4] = {x, 0, w, h};
    properties_begin(&p, path, WINDOW_IFACE);
    open_entry(&p.dict, &entry, &variant, "Frame", "(dddd)");
    append_quad(&variant, frame);
    close_entry(&p.dict, &entry, &variant);
    if (size_class) {
        append_string_entry(&p.dict, "HorizontalSizeClass", size_class);
        open_entry(&p.dict, &entry, &variant, "Traits", "a{sv}");
        append_traits(&variant, size_class);
        close_entry(&p.dict, &entry, &variant);
    }
    properties_end(c, &p);
}

/* The window's LayoutExtras, LayoutProblems and Layouts, as traitd announces them once a transition's reports
 * are in (its order: the keys sorted): every reported adapter with no extras; no problems (traitd sends the empty
 * list all the same); one element per adapter, root = the middle half of the window, as the benchmark's adapters
 * report it (inside the safe area: traitd's layout checks find nothing). */
static void layouts_changed(DBusConnection *c, double width, double height) {
    PropertiesChanged p;
    DBusMessageIter entry, variant, adapters, adapter, elements, element, frame, extras, problems;
    const char *root = "root";
    double values[4] = {width / 4, height / 4, width / 2, height / 2};
    properties_begin(&p, WINDOW, WINDOW_IFACE);
    open_entry(&p.dict, &entry, &variant, "LayoutExtras", "a{sa{sv}}");
    dbus_message_iter_open_container(&variant, DBUS_TYPE_ARRAY, "{sa{sv}}", &adapters);
    for (int i = 0; i < reported_count; i++) {
        dbus_message_iter_open_container(&adapters, DBUS_TYPE_DICT_ENTRY, NULL, &adapter);
        dbus_message_iter_append_basic(&adapter, DBUS_TYPE_STRING, &reported[i]);
        dbus_message_iter_open_container(&adapter, DBUS_TYPE_ARRAY, "{sv}", &extras);
        dbus_message_iter_close_container(&adapter, &extras);
        dbus_message_iter_close_container(&adapters, &adapter);
    }
    dbus_message_iter_close_container(&variant, &adapters);
    close_entry(&p.dict, &entry, &variant);
    open_entry(&p.dict, &entry, &variant, "LayoutProblems", "a(ssss)");
    dbus_message_iter_open_container(&variant, DBUS_TYPE_ARRAY, "(ssss)", &problems);
    dbus_message_iter_close_container(&variant, &problems);
    close_entry(&p.dict, &entry, &variant);
    open_entry(&p.dict, &entry, &variant, "Layouts", "a{sa{s(dddd)}}");
    dbus_message_iter_open_container(&variant, DBUS_TYPE_ARRAY, "{sa{s(dddd)}}", &adapters);
    for (int i = 0; i < reported_count; i++) {
        dbus_message_iter_open_container(&adapters, DBUS_TYPE_DICT_ENTRY, NULL, &adapter);
        dbus_message_iter_append_basic(&adapter, DBUS_TYPE_STRING, &reported[i]);
        dbus_message_iter_open_container(&adapter, DBUS_TYPE_ARRAY, "{s(dddd)}", &elements);
        dbus_message_iter_open_container(&elements, DBUS_TYPE_DICT_ENTRY, NULL, &element);
        dbus_message_iter_append_basic(&element, DBUS_TYPE_STRING, &root);
        dbus_message_iter_open_container(&element, DBUS_TYPE_STRUCT, NULL, &frame);
        for (int k = 0; k < 4; k++) dbus_message_iter_append_basic(&frame, DBUS_TYPE_DOUBLE, &values[k]);
        dbus_message_iter_close_container(&element, &frame);
        dbus_message_iter_close_container(&elements, &element);
        dbus_message_iter_close_container(&adapter, &elements);
        dbus_message_iter_close_container(&adapters, &adapter);
    }
    dbus_message_iter_close_container(&variant, &adapters);
    close_entry(&p.dict, &entry, &variant);
    properties_end(c, &p);
}

/* One live-resize step: the signals of its transition; it completes when the adapters have reported. */
static void resize_step(DBusConnection *c, double w, double h) {
    int was_compact = compact;
    transition = next_id++;
    compact = w < 678;
    width = w;
    const char *now = compact ? "compact" : "regular", *before = was_compact ? "compact" : "regular";
    int changed = compact != was_compact;
    if (changed) traits_signal(c, "WillTransitionToTraitCollection", now);
    size_signal(c, WINDOW, 0, w, h);
    window_changed(c, WINDOW, 0, w, h, changed ? now : NULL);
    effective_geometry(c, WINDOW, 0, w, h);
    if (changed) {
        traits_signal(c, "TraitCollectionDidChange", before);
        trait_did_change(c, now, before);
    }
    will_layout(c, WINDOW);
    if (adapters == 0) completed(c, WINDOW); else resize_open = 1;
}

static void handle(DBusConnection *c, DBusMessage *m) {
    if (dbus_message_get_type(m) != DBUS_MESSAGE_TYPE_METHOD_CALL) return;
    const char *member = dbus_message_get_member(m);
    DBusMessage *reply = NULL;
    if (strcmp(member, "RegisterAdapter") == 0) {
        adapters++;
    } else if (strcmp(member, "SetArrangement") == 0) {
        transition = next_id++;
        notes_transition = next_id++;
        serial++;
        compact = !compact;
        /* Every arrangement change crosses the size-class boundary, as 694 <-> 507 does. */
        /* The signals traitd sends for split-two-thirds <-> split-half, in its order: both windows' "will"
         * steps, the new property values, mail's "did" step; notes (no adapters) completes at once. */
        width = compact ? 507 : 694;
        const char *now = compact ? "compact" : "regular", *before = compact ? "regular" : "compact";
        traits_signal(c, "WillTransitionToTraitCollection", now);
        size_signal(c, WINDOW, 0, width, 768);
        size_signal(c, NOTES, compact ? 517 : 704, compact ? 507 : 320, 768);
        display_changed(c, compact ? "split-half" : "split-two-thirds", width);
        window_changed(c, WINDOW, 0, width, 768, now);
        effective_geometry(c, WINDOW, 0, compact ? 694 : 507, 768);
        window_changed(c, NOTES, compact ? 517 : 704, compact ? 507 : 320, 768, NULL);
        effective_geometry(c, NOTES, compact ? 704 : 517, compact ? 320 : 507, 768);
        traits_signal(c, "TraitCollectionDidChange", before);
        trait_did_change(c, now, before);
        will_layout(c, WINDOW);
        will_layout(c, NOTES);
        completed(c, NOTES);
        if (adapters == 0) completed(c, WINDOW);
    } else if (strcmp(member, "ReportLayout") == 0) {
        DBusMessageIter args;
        dbus_uint64_t id = 0;
        const char *name = "";
        if (dbus_message_iter_init(m, &args) && dbus_message_iter_get_arg_type(&args) == DBUS_TYPE_UINT64) {
            dbus_message_iter_get_basic(&args, &id);
            if (dbus_message_iter_next(&args) && dbus_message_iter_get_arg_type(&args) == DBUS_TYPE_STRING)
                dbus_message_iter_get_basic(&args, &name);
        }
        if (id == transition && reported_count < MAX_ADAPTERS) {
            reported[reported_count++] = strdup(name);
            if (reported_count == adapters) {
                layouts_changed(c, width, 768);
                completed(c, WINDOW);
                resize_open = 0;
                if (resize_waiting) {
                    resize_waiting = 0;
                    resize_step(c, waiting_width, waiting_height);
                }
            }
        }
    } else if (strcmp(member, "MoveDivider") == 0) {
        double x = 0;
        dbus_message_get_args(m, NULL, DBUS_TYPE_DOUBLE, &x, DBUS_TYPE_INVALID);
        property_changed(c, ROOT, DISPLAY_IFACE, "DividerPosition", x);
    } else if (strcmp(member, "Get") == 0) {
        DBusMessageIter args, variant;
        dbus_uint64_t zero = 0;
        reply = dbus_message_new_method_return(m);
        dbus_message_iter_init_append(reply, &args);
        dbus_message_iter_open_container(&args, DBUS_TYPE_VARIANT, "t", &variant);
        dbus_message_iter_append_basic(&variant, DBUS_TYPE_UINT64, &zero);
        dbus_message_iter_close_container(&args, &variant);
    } else if (strcmp(member, "ResizeTo") == 0) {
        DBusMessageIter args, size;
        double w = 0, h = 0;
        if (dbus_message_iter_init(m, &args) && dbus_message_iter_get_arg_type(&args) == DBUS_TYPE_STRUCT) {
            dbus_message_iter_recurse(&args, &size);
            dbus_message_iter_get_basic(&size, &w);
            dbus_message_iter_next(&size);
            dbus_message_iter_get_basic(&size, &h);
        }
        if (resize_open) {
            resize_waiting = 1;
            waiting_width = w;
            waiting_height = h;
        } else {
            resize_step(c, w, h);
        }
    } else if (strcmp(member, "BeginDividerDrag") != 0 && strcmp(member, "EndDividerDrag") != 0
               && strcmp(member, "SetWindowing") != 0 && strcmp(member, "BeginResize") != 0
               && strcmp(member, "EndResize") != 0) {
        reply = dbus_message_new_error(m, DBUS_ERROR_UNKNOWN_METHOD, "bare-peer knows only the benchmark's methods");
    }
    if (!reply) {
        reply = dbus_message_new_method_return(m);
        /* The commands reply with the transitions they started (at), as traitd does; the clients decode it. */
        if (strcmp(member, "RegisterAdapter") != 0 && strcmp(member, "ReportLayout") != 0) {
            DBusMessageIter args, ids;
            dbus_message_iter_init_append(reply, &args);
            dbus_message_iter_open_container(&args, DBUS_TYPE_ARRAY, "t", &ids);
            if (strcmp(member, "SetArrangement") == 0) {
                dbus_message_iter_append_basic(&ids, DBUS_TYPE_UINT64, &transition);
                dbus_message_iter_append_basic(&ids, DBUS_TYPE_UINT64, &notes_transition);
            }
            dbus_message_iter_close_container(&args, &ids);
        }
    }
    send_and_unref(c, reply);
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: bare-peer BUS_ADDRESS\n");
        return 64;
    }
    DBusError error;
    dbus_error_init(&error);
    DBusConnection *c = dbus_connection_open_private(argv[1], &error);
    if (!c || !dbus_bus_register(c, &error)) fail("connect", &error);
    if (dbus_bus_request_name(c, BUS_NAME, DBUS_NAME_FLAG_DO_NOT_QUEUE, &error) != DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER)
        fail("request the name", &error);
    while (dbus_connection_read_write(c, -1)) {
        DBusMessage *m;
        while ((m = dbus_connection_pop_message(c)) != NULL) {
            handle(c, m);
            dbus_message_unref(m);
        }
        dbus_connection_flush(c);
    }
    return 0;
}
