/* The least a switch can do to bring up an OpenFlow session: the kernel's floor for the
 * engine's handshake rate (issue 42, bench.py scale --c-client).
 *
 * Per connection: a non-blocking socket, connect() from a source address (IP_BIND_ADDRESS_NO_PORT,
 * as the engine), HELLO (OpenFlow 1.3, 8 bytes) once connected, then read until the controller's
 * FEATURES_REQUEST and answer it with a FEATURES_REPLY (32 bytes): the session is up. Nothing
 * else: no per-session state beyond the fd, one epoll per process, no allocation per session.
 * The sessions stay open until all of this process's are up, then the process exits.
 *
 *   hsclient HOST PORT N PROCS PARALLEL SRC_PREFIX
 *
 * N sessions over PROCS processes (each under its open-file limit), at most PARALLEL
 * handshakes in progress per process; process i connects from SRC_PREFIX.i.1 .. .250 (e.g.
 * 127.77: 127.77.i.k), at most 9,000 sessions per source address. Prints one JSON line: sessions
 * up, failed, seconds from the first connect to the last session up, the rate, and the CPU of
 * all processes (user, system). Built by bench.py with `cc -O2` at run time; never committed as
 * a binary.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef IP_BIND_ADDRESS_NO_PORT
#define IP_BIND_ADDRESS_NO_PORT 24
#endif

#define PER_ADDR 9000
#define MAXFD (1 << 20)

static unsigned char state[MAXFD]; /* 0 free, 1 connecting, 2 hello sent, 3 up */

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static int open_one(int ep, struct sockaddr_in *dst, const char *prefix, int proc, int k) {
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0 || fd >= MAXFD) return -1;
    int one = 1;
    setsockopt(fd, IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT, &one, sizeof one);
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    char src[64];
    snprintf(src, sizeof src, "%s.%d.%d", prefix, proc, 1 + k / PER_ADDR);
    struct sockaddr_in s = {.sin_family = AF_INET};
    inet_pton(AF_INET, src, &s.sin_addr);
    if (bind(fd, (struct sockaddr *)&s, sizeof s) < 0) { close(fd); return -1; }
    if (connect(fd, (struct sockaddr *)dst, sizeof *dst) < 0 && errno != EINPROGRESS) { close(fd); return -1; }
    struct epoll_event ev = {.events = EPOLLOUT | EPOLLIN, .data.fd = fd};
    epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev);
    state[fd] = 1;
    return fd;
}

/* Read what is there; answer a FEATURES_REQUEST. Returns 1 when the session came up, -1 dead. */
static int on_read(int fd) {
    unsigned char buf[4096];
    for (;;) {
        ssize_t n = read(fd, buf, sizeof buf);
        if (n == 0) return -1;
        if (n < 0) return errno == EAGAIN ? 0 : -1;
        /* messages are small and whole here; walk them by their header's length */
        for (ssize_t at = 0; at + 8 <= n;) {
            unsigned len = (buf[at + 2] << 8) | buf[at + 3];
            if (buf[at + 1] == 5) { /* FEATURES_REQUEST */
                unsigned char r[32] = {4, 6, 0, 32};
                memcpy(r + 4, buf + at + 4, 4); /* its xid */
                r[15] = (unsigned char)fd;       /* a datapath id */
                r[14] = (unsigned char)(fd >> 8);
                r[13] = (unsigned char)(fd >> 16);
                r[20] = 1; /* n_tables */
                if (write(fd, r, 32) != 32) return -1;
                return 1;
            }
            at += len < 8 ? 8 : len;
        }
    }
}

static int run(const char *host, int port, int n, int par, const char *prefix, int proc, int out) {
    struct sockaddr_in dst = {.sin_family = AF_INET, .sin_port = htons(port)};
    inet_pton(AF_INET, host, &dst.sin_addr);
    int ep = epoll_create1(EPOLL_CLOEXEC);
    struct epoll_event evs[1024];
    int opened = 0, up = 0, failed = 0, busy = 0;
    static const unsigned char hello[8] = {4, 0, 0, 8, 0, 0, 0, 1};
    double t0 = now_s();
    while (up + failed < n) {
        while (busy < par && opened < n) {
            if (open_one(ep, &dst, prefix, proc, opened) < 0) failed++; else busy++;
            opened++;
        }
        int k = epoll_wait(ep, evs, 1024, 1000);
        for (int i = 0; i < k; i++) {
            int fd = evs[i].data.fd, r = 0;
            if (state[fd] == 1 && (evs[i].events & (EPOLLOUT | EPOLLERR | EPOLLHUP))) {
                int err = 0;
                socklen_t l = sizeof err;
                getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &l);
                if (err || write(fd, hello, 8) != 8) r = -1;
                else {
                    state[fd] = 2;
                    struct epoll_event ev = {.events = EPOLLIN, .data.fd = fd};
                    epoll_ctl(ep, EPOLL_CTL_MOD, fd, &ev);
                }
            }
            if (r == 0 && state[fd] == 2 && (evs[i].events & EPOLLIN)) r = on_read(fd);
            if (r == 1) {
                state[fd] = 3;
                epoll_ctl(ep, EPOLL_CTL_DEL, fd, NULL);
                up++, busy--;
            } else if (r < 0) {
                epoll_ctl(ep, EPOLL_CTL_DEL, fd, NULL);
                close(fd);
                state[fd] = 0;
                failed++, busy--;
            }
        }
    }
    double t1 = now_s();
    char line[160];
    int m = snprintf(line, sizeof line, "%d %d %.6f %.6f\n", up, failed, t0, t1);
    if (write(out, line, m) != m) return 1;
    return 0;
}

int main(int argc, char **argv) {
    if (argc != 7) {
        fprintf(stderr, "usage: hsclient HOST PORT N PROCS PARALLEL SRC_PREFIX\n");
        return 1;
    }
    int n = atoi(argv[3]), procs = atoi(argv[4]), par = atoi(argv[5]);
    if (n < 1 || procs < 1 || par < 1) { fprintf(stderr, "hsclient: N, PROCS, PARALLEL: numbers >= 1\n"); return 1; }
    struct rlimit rl;
    getrlimit(RLIMIT_NOFILE, &rl);
    rl.rlim_cur = rl.rlim_max;
    setrlimit(RLIMIT_NOFILE, &rl);
    int fds[2];
    if (pipe(fds) < 0) return 3;
    for (int p = 0; p < procs; p++) {
        int share = n / procs + (p < n % procs);
        if (fork() == 0) {
            close(fds[0]);
            _exit(run(argv[1], atoi(argv[2]), share, par, argv[6], p, fds[1]));
        }
    }
    close(fds[1]);
    FILE *in = fdopen(fds[0], "r");
    int up = 0, failed = 0, u, f;
    double first = 1e18, last = 0, a, b;
    while (fscanf(in, "%d %d %lf %lf", &u, &f, &a, &b) == 4) {
        up += u, failed += f;
        if (a < first) first = a;
        if (b > last) last = b;
    }
    while (wait(NULL) > 0) {}
    struct rusage ru;
    getrusage(RUSAGE_CHILDREN, &ru);
    double secs = last - first;
    printf("{\"sessions_up\": %d, \"failed\": %d, \"seconds\": %.3f, \"rate_per_s\": %.1f, \"cpu_user_s\": %.3f, \"cpu_system_s\": %.3f}\n",
           up, failed, secs, secs > 0 ? up / secs : 0.0, ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6,
           ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6);
    return failed ? 2 : 0;
}
