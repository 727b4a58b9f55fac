// The hotkey's floor: the least a program can do for what `paste -c` does at a hotkey, in one
// process, so that scripts/bench can say how far paste is from its architecture's floor (issue 44).
//
//   floor URL      read CLIPBOARD (UTF8_STRING) over one Xlib connection, POST it as the seed
//                  pipeline's form (paste[body], paste[parser]=plaintext,
//                  paste[authorization]=burger) with libcurl, follow the redirect, print the
//                  final URL, take CLIPBOARD with it and fork a process that serves it (TARGETS,
//                  UTF8_STRING, STRING) until another client takes the selection.
//
// Nothing else: no config, no history, no outbox, no secret guard, no notification. It is linked
// as paste is (libcurl, OpenSSL and Xlib from Debian's static archives, scripts/bench builds it),
// so the difference between the two is paste's own work. Exits 1 with one line on any failure.
#include <X11/Xatom.h>
#include <X11/Xlib.h>
#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

static void fail(const char *what) {
    fprintf(stderr, "floor: %s\n", what);
    _exit(1);
}

/// What the server answers (the last page after the redirect) is not needed: dropped.
static size_t drop(char *data, size_t size, size_t count, void *unused) {
    (void)data, (void)unused;
    return size * count;
}

/// Serves `text` as CLIPBOARD from `window` until the selection is taken by someone else.
static void serve(Display *display, Atom clipboard, Atom targets, Atom utf8, const unsigned char *text,
                  int length) {
    for (;;) {
        XEvent event;
        XNextEvent(display, &event);
        if (event.type == SelectionClear && event.xselectionclear.selection == clipboard) return;
        if (event.type != SelectionRequest) continue;
        XSelectionRequestEvent *request = &event.xselectionrequest;
        XSelectionEvent answer = {.type = SelectionNotify,
                                  .display = display,
                                  .requestor = request->requestor,
                                  .selection = request->selection,
                                  .target = request->target,
                                  .property = request->property ? request->property : request->target,
                                  .time = request->time};
        if (request->target == targets) {
            Atom offered[] = {targets, utf8, XA_STRING};
            XChangeProperty(display, request->requestor, answer.property, XA_ATOM, 32, PropModeReplace,
                            (unsigned char *)offered, 3);
        } else if (request->target == utf8 || request->target == XA_STRING) {
            XChangeProperty(display, request->requestor, answer.property, request->target, 8, PropModeReplace, text,
                            length);
        } else {
            answer.property = None;
        }
        XSendEvent(display, request->requestor, False, 0, (XEvent *)&answer);
        XFlush(display);
    }
}

int main(int argc, char **argv) {
    if (argc != 2) fail("usage: floor URL");
    Display *display = XOpenDisplay(NULL);
    if (!display) fail("cannot open the display");
    Window window = XCreateSimpleWindow(display, DefaultRootWindow(display), 0, 0, 1, 1, 0, 0, 0);
    XSelectInput(display, window, PropertyChangeMask);
    char *names[] = {"CLIPBOARD", "UTF8_STRING", "TARGETS", "FLOOR_SELECTION"};
    Atom atoms[4];
    XInternAtoms(display, names, 4, False, atoms);  // one round trip
    Atom clipboard = atoms[0], utf8 = atoms[1], targets = atoms[2], property = atoms[3];

    // The server's time, for owning the selection (ICCCM: never CurrentTime): a zero-length
    // append makes a PropertyNotify that carries it. Asked together with the clipboard's text.
    XChangeProperty(display, window, XA_WM_NAME, XA_STRING, 8, PropModeAppend, NULL, 0);
    XConvertSelection(display, clipboard, utf8, property, window, CurrentTime);
    Time now = CurrentTime;
    int converted = 0;
    while (now == CurrentTime || !converted) {
        XEvent event;
        XNextEvent(display, &event);
        if (event.type == PropertyNotify && event.xproperty.atom == XA_WM_NAME) now = event.xproperty.time;
        if (event.type == SelectionNotify) {
            if (event.xselection.property == None) fail("the clipboard holds no text");
            converted = 1;
        }
    }
    Atom type;
    int format;
    unsigned long count, left;
    unsigned char *text = NULL;
    if (XGetWindowProperty(display, window, property, 0, 1 << 24, True, AnyPropertyType, &type, &format, &count,
                           &left, &text) != Success || type != utf8 || format != 8)
        fail("the clipboard's owner answered with something else than text (INCR is not handled)");

    // The upload: the seed pipeline's form, its redirect followed as `curl -L` does.
    if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) fail("curl_global_init failed");
    CURL *curl = curl_easy_init();
    if (!curl) fail("curl_easy_init failed");
    curl_mime *form = curl_mime_init(curl);
    curl_mimepart *part = curl_mime_addpart(form);
    curl_mime_name(part, "paste[body]");
    curl_mime_data(part, (const char *)text, count);
    part = curl_mime_addpart(form);
    curl_mime_name(part, "paste[parser]");
    curl_mime_data(part, "plaintext", CURL_ZERO_TERMINATED);
    part = curl_mime_addpart(form);
    curl_mime_name(part, "paste[authorization]");
    curl_mime_data(part, "burger", CURL_ZERO_TERMINATED);
    struct curl_slist *headers = curl_slist_append(NULL, "Expect:");
    curl_easy_setopt(curl, CURLOPT_URL, argv[1]);
    curl_easy_setopt(curl, CURLOPT_MIMEPOST, form);
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 1L);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, drop);
    if (curl_easy_perform(curl) != CURLE_OK) fail("the upload failed");
    long status = 0;
    char *location = NULL;
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
    curl_easy_getinfo(curl, CURLINFO_EFFECTIVE_URL, &location);
    if (status != 200 || !location) fail("the server did not answer with a page");
    char *url = strdup(location);
    int length = (int)strlen(url);

    // The URL on the clipboard: owned from this window at the server's time, then served by a
    // child that inherits the connection; this process exits as soon as the child has it.
    XSetSelectionOwner(display, clipboard, window, now);
    if (XGetSelectionOwner(display, clipboard) != window) fail("could not take the clipboard");
    printf("%s\n", url);
    fflush(stdout);
    pid_t child = fork();
    if (child < 0) fail("fork failed");
    if (child == 0) {
        setsid();
        // Not holding the caller's pipes open (a shell's `$(floor URL)` would wait for them).
        freopen("/dev/null", "r", stdin), freopen("/dev/null", "w", stdout), freopen("/dev/null", "w", stderr);
        serve(display, clipboard, targets, utf8, (const unsigned char *)url, length);
        _exit(0);
    }
    _exit(0);  // no exit handlers: the child owns the connection now
}
