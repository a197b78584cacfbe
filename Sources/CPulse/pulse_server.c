// Whether a PulseAudio server may answer, decided from the places libpulse looks for one, so that a
// process on a machine without a server never loads libpulse and the libraries it brings.
#include "CPulse.h"

#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int exists(const char *folder, const char *name) {
    char path[4096];
    if (!folder || !folder[0]) return 0;
    return snprintf(path, sizeof path, "%s/%s", folder, name) < (int)sizeof path && access(path, F_OK) == 0;
}

/// Whether one of libpulse's server strings ("unix:/path", "/path", "{machine}tcp:host", "host")
/// may reach a server: a local socket that is there, or anything that is not a local socket.
static int server_may_answer(const char *entry, size_t length) {
    if (length > 0 && entry[0] == '{') {
        const char *end = memchr(entry, '}', length);
        if (!end) return 1;
        length -= (size_t)(end + 1 - entry);
        entry = end + 1;
    }
    const char *path = NULL;
    if (length > 5 && strncmp(entry, "unix:", 5) == 0) path = entry + 5;
    else if (length > 0 && entry[0] == '/') path = entry;
    if (!path) return length > 0;
    char copy[4096];
    size_t size = length - (size_t)(path - entry);
    if (size >= sizeof copy) return 1;
    memcpy(copy, path, size);
    copy[size] = 0;
    return access(copy, F_OK) == 0;
}

/// Whether any of the space-separated servers in `list` (PULSE_SERVER's syntax) may answer.
static int any_server_may_answer(const char *list) {
    for (const char *p = list; *p;) {
        while (*p && isspace((unsigned char)*p)) p++;
        const char *start = p;
        while (*p && !isspace((unsigned char)*p)) p++;
        if (p > start && server_may_answer(start, (size_t)(p - start))) return 1;
    }
    return 0;
}

static int is_true(const char *value) {
    return strcasecmp(value, "yes") == 0 || strcasecmp(value, "true") == 0 || strcasecmp(value, "on") == 0 || strcmp(value, "1") == 0;
}

/// A client configuration larger than this is not read here: libpulse is left to read it.
enum { config_size_limit = 1 << 16 };

/// Whether the client configuration file at `path` names a server or asks for one on this host or
/// display (default-server, auto-connect-localhost, auto-connect-display). Only a regular file
/// within the size limit is read; anything else (a pipe, a device, a huge file) may name one.
static int config_file_names_server(const char *path) {
    int descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (descriptor < 0) return 0;
    struct stat facts;
    if (fstat(descriptor, &facts) != 0 || !S_ISREG(facts.st_mode) || facts.st_size > config_size_limit) {
        close(descriptor);
        return 1;
    }
    FILE *file = fdopen(descriptor, "r");
    if (!file) {
        close(descriptor);
        return 1;
    }
    char line[1024];
    int names = 0;
    while (!names && fgets(line, sizeof line, file)) {
        char *key = line;
        while (isspace((unsigned char)*key)) key++;
        if (*key == ';' || *key == '#' || *key == 0) continue;
        char *equals = strchr(key, '=');
        if (!equals) continue;
        char *key_end = equals;
        while (key_end > key && isspace((unsigned char)key_end[-1])) key_end--;
        *key_end = 0;
        char *value = equals + 1;
        while (isspace((unsigned char)*value)) value++;
        char *value_end = value + strlen(value);
        while (value_end > value && isspace((unsigned char)value_end[-1])) value_end--;
        *value_end = 0;
        if (strcmp(key, "default-server") == 0) names = value[0] != 0;
        else if (strcmp(key, "auto-connect-localhost") == 0 || strcmp(key, "auto-connect-display") == 0) names = is_true(value);
    }
    fclose(file);
    return names;
}

/// The same for `folder`/`name` and the files of its `.d` folder, as libpulse reads them.
static int config_names_server(const char *folder, const char *name) {
    char path[4096];
    if (!folder || !folder[0] || snprintf(path, sizeof path, "%s/%s", folder, name) >= (int)sizeof path) return 0;
    if (config_file_names_server(path)) return 1;
    char parts[4096 + 8];
    snprintf(parts, sizeof parts, "%s.d", path);
    DIR *directory = opendir(parts);
    if (!directory) return 0;
    int names = 0;
    for (struct dirent *entry; !names && (entry = readdir(directory));) {
        size_t length = strlen(entry->d_name);
        if (length < 6 || strcmp(entry->d_name + length - 5, ".conf") != 0) continue;
        char file[sizeof parts + 256];
        snprintf(file, sizeof file, "%s/%s", parts, entry->d_name);
        names = config_file_names_server(file);
    }
    closedir(directory);
    return names;
}

/// Whether a per-machine runtime folder (`<machine-id>-runtime`, used without XDG_RUNTIME_DIR) in
/// `folder` holds a server's socket.
static int machine_runtime_has_socket(const char *folder) {
    DIR *directory = folder && folder[0] ? opendir(folder) : NULL;
    if (!directory) return 0;
    int found = 0;
    for (struct dirent *entry; !found && (entry = readdir(directory));) {
        size_t length = strlen(entry->d_name);
        if (length < 9 || strcmp(entry->d_name + length - 8, "-runtime") != 0) continue;
        char runtime[4096];
        if (snprintf(runtime, sizeof runtime, "%s/%s", folder, entry->d_name) < (int)sizeof runtime) found = exists(runtime, "native");
    }
    closedir(directory);
    return found;
}

int cpulse_server_may_answer_at(const cpulse_server_places *places) {
    // A named server is the only one a client tries, and no server is started for it.
    if (places->server && places->server[0]) return any_server_may_answer(places->server);
    // An X11 display's root window may name one; a configuration may; a client may start one.
    if (places->display && places->display[0]) return 1;
    if (places->client_config && places->client_config[0] && config_file_names_server(places->client_config)) return 1;
    char folder[4096];
    if (config_names_server(places->config_path, "client.conf") || config_names_server(places->system_config, "client.conf")) return 1;
    if (places->config_home && places->config_home[0] && snprintf(folder, sizeof folder, "%s/pulse", places->config_home) < (int)sizeof folder &&
        (config_names_server(folder, "client.conf") || machine_runtime_has_socket(folder)))
        return 1;
    if (places->home && places->home[0] && snprintf(folder, sizeof folder, "%s/.pulse", places->home) < (int)sizeof folder &&
        (config_names_server(folder, "client.conf") || machine_runtime_has_socket(folder)))
        return 1;
    if (!places->root && places->daemon && places->daemon[0] && access(places->daemon, X_OK) == 0) return 1;
    // Otherwise the sockets: the user's server, then the system's.
    if (exists(places->runtime_path, "native") || exists(places->system_runtime, "native")) return 1;
    return places->xdg_runtime_dir && places->xdg_runtime_dir[0] && snprintf(folder, sizeof folder, "%s/pulse", places->xdg_runtime_dir) < (int)sizeof folder &&
           exists(folder, "native");
}

int cpulse_server_may_answer(void) {
    const char *home = getenv("HOME");
    char config_home[4096] = "";
    const char *xdg_config = getenv("XDG_CONFIG_HOME");
    if (xdg_config && xdg_config[0]) snprintf(config_home, sizeof config_home, "%s", xdg_config);
    else if (home && home[0]) snprintf(config_home, sizeof config_home, "%s/.config", home);
    cpulse_server_places places = {
        .server = getenv("PULSE_SERVER"),
        .display = getenv("DISPLAY"),
        .runtime_path = getenv("PULSE_RUNTIME_PATH"),
        .xdg_runtime_dir = getenv("XDG_RUNTIME_DIR"),
        .client_config = getenv("PULSE_CLIENTCONFIG"),
        .config_path = getenv("PULSE_CONFIG_PATH"),
        .config_home = config_home,
        .home = home,
        .system_config = "/etc/pulse",
        .system_runtime = "/run/pulse",
        .daemon = "/usr/bin/pulseaudio",
        .root = getuid() == 0,
    };
    if (cpulse_server_may_answer_at(&places)) return 1;
    places.system_runtime = "/var/run/pulse";
    return cpulse_server_may_answer_at(&places);
}
