/* The least a switch can do to bring up an OpenFlow session: the kernel's floor for the
 * engine's handshake rate (issue 42, bench.py scale --c-client).
 *
 * Per connection: a non-blocking socket, connect() from a source address (IP_BIND_ADDRESS_NO_PORT,
 * as the engine), HELLO (OpenFlow 1.3, 8 bytes) once connected, then read until the controller's
 * FEATURES_REQUEST and answer it with a FEATURES_REPLY (32 bytes): the session is up. Nothing
 * else: no per-session state beyond the fd, one epoll per process, no allocation per session.
 * The sessions stay open until all of this process's are up, then the process exits.
 *
 *   hsclient [--tls CA CERT KEY VERSIONS] HOST PORT N PROCS PARALLEL SRC_PREFIX
 *            [RATE SECONDS ECHO_EVERY_MS TIMEOUT_MS DRAIN_MS]
 *
 * With --tls (issue 51), the least a switch can do over TLS, on OpenSSL: once connected, a TLS
 * client handshake (VERSIONS: 1.2, 1.3 or 1.2,1.3 offered), the controller's certificate checked
 * against CA and its address (HOST), this switch's CERT and KEY presented; then the same HELLO
 * and FEATURES_REPLY, encrypted. No session resumption (each session a full handshake), buffers
 * released when idle (SSL_MODE_RELEASE_BUFFERS). The JSON line adds the protocol version and
 * cipher suite the first session negotiated. Handshakes only: no load phase over TLS.
 *
 * With RATE, a load phase follows once every process's sessions are up (the kernel's floor for
 * the engine's fixed-rate load at scale): for SECONDS, RATE packet-ins/s over all sessions
 * (each process RATE/PROCS, round robin over its sessions, the engine's 1.3 packet-in with a
 * 128-byte frame), and an echo request from every session every ECHO_EVERY_MS (0: none), each
 * sent when due at a 1 ms tick; then a drain of at most DRAIN_MS, which ends early once every
 * request and echo of the process is answered. Each request's xid is its number in the
 * process's schedule (each echo's too), and the controller's answer carries it back, so every
 * answer's latency is counted from its own scheduled time (go + xid / rate), and at the drain's
 * end every request is one of: answered (within TIMEOUT_MS, or after it: `late`, still
 * answered), `lost` (no answer, and TIMEOUT_MS passed since it was due), `unsettled` (no
 * answer, and its TIMEOUT_MS had not passed: the drain ended first). The same for the echoes.
 * The engine's account under the same drain and timeout (bench/engine/held.py says how the two
 * are judged alike). Prints "go" when the load starts (so the caller can read the responder's
 * CPU over exactly that window), then the JSON line with a "load" object.
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
#include <math.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
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
#define NB 512 /* latency buckets: 16 per power of two of microseconds */

static unsigned char state[MAXFD]; /* 0 free, 1 connecting, 4 TLS handshake, 2 hello sent, 3 up */
static SSL_CTX *ctx;                /* NULL: plain TCP */
static SSL *ssl[MAXFD];
static const char *peer_host;
static char negotiated[160];       /* the first TLS session's VERSION/CIPHER_SUITE */

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
static ssize_t get(int fd, unsigned char *buf, size_t len) {
    if (!ssl[fd]) return read(fd, buf, len);
    int n = SSL_read(ssl[fd], buf, (int)len);
    if (n > 0) return n;
    int e = SSL_get_error(ssl[fd], n);
    errno = e == SSL_ERROR_WANT_READ || e == SSL_ERROR_WANT_WRITE ? EAGAIN : EPIPE;
    return e == SSL_ERROR_ZERO_RETURN ? 0 : -1;
}

static ssize_t put(int fd, const unsigned char *buf, size_t len) {
    return ssl[fd] ? SSL_write(ssl[fd], buf, (int)len) : write(fd, buf, len);
}

static int on_read(int fd) {
    unsigned char buf[4096];
    for (;;) {
        ssize_t n = get(fd, buf, sizeof buf);
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
                if (put(fd, r, 32) != 32) return -1;
                return 1;
            }
            at += len < 8 ? 8 : len;
        }
    }
}

static const unsigned char hello[8] = {4, 0, 0, 8, 0, 0, 0, 1};

static void watch(int ep, int fd, unsigned events) {
    struct epoll_event ev = {.events = events, .data.fd = fd};
    epoll_ctl(ep, EPOLL_CTL_MOD, fd, &ev);
}

/* The TLS handshake's next step; once done, HELLO (state 2). Returns -1 when it failed. */
static int tls_step(int ep, int fd) {
    int r = SSL_do_handshake(ssl[fd]);
    if (r == 1) {
        if (!negotiated[0])
            snprintf(negotiated, sizeof negotiated, "%s/%s", SSL_get_version(ssl[fd]),
                     SSL_CIPHER_get_name(SSL_get_current_cipher(ssl[fd])));
        if (put(fd, hello, 8) != 8) return -1;
        state[fd] = 2;
        watch(ep, fd, EPOLLIN);
        return 0;
    }
    int e = SSL_get_error(ssl[fd], r);
    if (e == SSL_ERROR_WANT_READ) watch(ep, fd, EPOLLIN);
    else if (e == SSL_ERROR_WANT_WRITE) watch(ep, fd, EPOLLOUT);
    else return -1;
    return 0;
}

/* Connected: over TLS the handshake starts (state 4), else HELLO (state 2). */
static int connected(int ep, int fd) {
    if (!ctx) {
        if (write(fd, hello, 8) != 8) return -1;
        state[fd] = 2;
        watch(ep, fd, EPOLLIN);
        return 0;
    }
    ssl[fd] = SSL_new(ctx);
    if (!ssl[fd] || !SSL_set_fd(ssl[fd], fd) || !X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl[fd]), peer_host)) return -1;
    SSL_set_connect_state(ssl[fd]);
    state[fd] = 4;
    return tls_step(ep, fd);
}

static void forget(int fd) {
    if (ssl[fd]) SSL_free(ssl[fd]);
    ssl[fd] = NULL;
}

/* Bring up n sessions; their fds are left in ups (up of them). Returns sessions failed. */
static int handshakes(const char *host, int port, int n, int par, const char *prefix, int proc, int *ups, int *up_out,
                      double *t0, double *t1) {
    struct sockaddr_in dst = {.sin_family = AF_INET, .sin_port = htons(port)};
    inet_pton(AF_INET, host, &dst.sin_addr);
    int ep = epoll_create1(EPOLL_CLOEXEC);
    struct epoll_event evs[1024];
    int opened = 0, up = 0, failed = 0, busy = 0;
    *t0 = now_s();
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
                r = err ? -1 : connected(ep, fd);
            } else if (state[fd] == 4) {
                r = tls_step(ep, fd);
            }
            if (r == 0 && state[fd] == 2 && (evs[i].events & EPOLLIN)) r = on_read(fd);
            if (r == 1) {
                state[fd] = 3;
                epoll_ctl(ep, EPOLL_CTL_DEL, fd, NULL);
                ups[up++] = fd, busy--;
            } else if (r < 0) {
                epoll_ctl(ep, EPOLL_CTL_DEL, fd, NULL);
                forget(fd);
                close(fd);
                state[fd] = 0;
                failed++, busy--;
            }
        }
    }
    *t1 = now_s();
    *up_out = up;
    close(ep);
    return failed;
}

static int bucket(double us) {
    int b = us < 1 ? 0 : (int)(16 * log2(us));
    return b < NB ? b : NB - 1;
}

/* The load phase's figures of one process. */
struct load {
    long sent, answered, echo_sent, echo_answered, partial; /* partial: a short read or write */
    long late, lost, unsettled, echo_late, echo_lost, echo_unsettled;
    double cpu_user, cpu_sys;
    long hist[NB];
};

/* The load's schedule (one process's): the go, the rates, the timeout; and which request and
 * echo numbers were answered (one bit each). */
static struct {
    double go, rate, echo_rate, timeout;
    unsigned char *req, *echo;
    long nreq, necho;
} sched;

/* Answer to number `seq` of a schedule (`bits`, rate `r`) at time t: counted once, its latency
 * from its scheduled time; 1 when it was late (after the timeout), 0 on time, -1 not counted. */
static int settle(unsigned char *bits, long n, long seq, double r, double t, long *hist) {
    if (seq < 0 || seq >= n || (bits[seq >> 3] & (1 << (seq & 7)))) return -1;
    bits[seq >> 3] |= (unsigned char)(1 << (seq & 7));
    double lat = t - (sched.go + seq / r);
    if (hist) hist[bucket(1e6 * lat)]++;
    return lat > sched.timeout;
}

/* At the drain's end (t): each unanswered number of a schedule is lost (its timeout passed)
 * or unsettled. */
static void unanswered(const unsigned char *bits, long sent, double r, double t, long *lost, long *unsettled) {
    for (long seq = 0; seq < sent; seq++)
        if (!(bits[seq >> 3] & (1 << (seq & 7)))) {
            if (t - (sched.go + seq / r) >= sched.timeout) (*lost)++;
            else (*unsettled)++;
        }
}

/* The engine's 1.3 packet-in: buffer id, 128-byte frame, OXM match in_port=1 (ofwire's layout). */
static int packet_in(unsigned char *m, uint32_t seq) {
    memset(m, 0, 170);
    m[0] = 4, m[1] = 10, m[3] = 170;
    m[4] = seq >> 24, m[5] = seq >> 16, m[6] = seq >> 8, m[7] = seq;
    memcpy(m + 8, m + 4, 4);  /* buffer id = xid */
    m[13] = 128;              /* total_len */
    m[24] = 0, m[25] = 1, m[26] = 0, m[27] = 12;          /* match: OXM, length 12 */
    m[28] = 0x80, m[29] = 0, m[30] = 0, m[31] = 4, m[35] = 1; /* in_port = 1 */
    return 170;
}

static void read_replies(int fd, struct load *L, double t) {
    unsigned char buf[4096];
    for (;;) {
        ssize_t n = read(fd, buf, sizeof buf);
        if (n <= 0) return;
        ssize_t at = 0;
        for (; at + 8 <= n;) {
            unsigned len = (buf[at + 2] << 8) | buf[at + 3];
            if (len < 8 || at + len > (unsigned)n) break;
            /* the answer's xid is its request's number (an echo reply's, its echo's) */
            long xid = ((long)buf[at + 4] << 24) | (buf[at + 5] << 16) | (buf[at + 6] << 8) | buf[at + 7];
            int r = -1;
            if (buf[at + 1] == 14 && (r = settle(sched.req, sched.nreq, xid, sched.rate, t, L->hist)) >= 0) {
                L->answered++, L->late += r;
            } else if (buf[at + 1] == 3 && (r = settle(sched.echo, sched.necho, xid, sched.echo_rate, t, NULL)) >= 0) {
                L->echo_answered++, L->echo_late += r;
            }
            at += len;
        }
        if (at != n) L->partial++;
        if (n < (ssize_t)sizeof buf) return;
    }
}

static double cpu_of(int who, int user) {
    struct rusage ru;
    getrusage(who, &ru);
    struct timeval v = user ? ru.ru_utime : ru.ru_stime;
    return v.tv_sec + v.tv_usec / 1e6;
}

/* Send what is due at a 1 ms tick until go + secs, read every reply, drain until every one is
 * answered or drain seconds have passed; then sort what is unanswered into lost and unsettled. */
static void load(int *fds, int n, double rate, double secs, double echo_ms, double timeout, double drain, double go,
                 struct load *L) {
    int ep = epoll_create1(EPOLL_CLOEXEC);
    for (int i = 0; i < n; i++) {
        struct epoll_event ev = {.events = EPOLLIN, .data.fd = fds[i]};
        epoll_ctl(ep, EPOLL_CTL_ADD, fds[i], &ev);
    }
    double echo_rate = echo_ms > 0 ? n * 1000.0 / echo_ms : 0;
    sched.go = go, sched.rate = rate, sched.echo_rate = echo_rate, sched.timeout = timeout;
    sched.nreq = (long)(secs * rate) + 1, sched.necho = (long)(secs * echo_rate) + 1;
    sched.req = calloc(sched.nreq / 8 + 1, 1), sched.echo = calloc(sched.necho / 8 + 1, 1);
    unsigned char m[170], echo[8] = {4, 2, 0, 8};
    struct epoll_event evs[1024];
    double u0 = cpu_of(RUSAGE_SELF, 1), s0 = cpu_of(RUSAGE_SELF, 0);
    for (;;) {
        double t = now_s(), el = t - go;
        /* settled: everything due sent, and all of it answered */
        int settled = L->sent == sched.nreq - 1 && L->echo_sent == sched.necho - 1 && L->answered == L->sent &&
                      L->echo_answered == L->echo_sent;
        if (el > secs + drain || (el >= secs && settled)) break;
        long due = el < secs ? (long)(el * rate) : (long)(secs * rate);
        for (; L->sent < due; L->sent++) {
            int fd = fds[L->sent % n];
            packet_in(m, (uint32_t)L->sent);
            if (write(fd, m, 170) != 170) L->partial++;
        }
        long edue = el < secs ? (long)(el * echo_rate) : (long)(secs * echo_rate);
        for (; L->echo_sent < edue; L->echo_sent++) {
            int fd = fds[L->echo_sent % n];
            echo[4] = L->echo_sent >> 24, echo[5] = L->echo_sent >> 16, echo[6] = L->echo_sent >> 8, echo[7] = L->echo_sent;
            if (write(fd, echo, 8) != 8) L->partial++;
        }
        int k = epoll_wait(ep, evs, 1024, 1);
        double tr = now_s();
        for (int i = 0; i < k; i++) read_replies(evs[i].data.fd, L, tr);
    }
    double t_end = now_s();
    unanswered(sched.req, L->sent, rate, t_end, &L->lost, &L->unsettled);
    unanswered(sched.echo, L->echo_sent, echo_rate, t_end, &L->echo_lost, &L->echo_unsettled);
    L->cpu_user = cpu_of(RUSAGE_SELF, 1) - u0, L->cpu_sys = cpu_of(RUSAGE_SELF, 0) - s0;
    close(ep);
}

static int run(const char *host, int port, int n, int par, const char *prefix, int proc, int out, int go_fd,
               double rate, double secs, double echo_ms, double timeout, double drain) {
    static int ups[MAXFD];
    int up;
    double t0, t1;
    int failed = handshakes(host, port, n, par, prefix, proc, ups, &up, &t0, &t1);
    char line[400];
    int m = snprintf(line, sizeof line, "%d %d %.6f %.6f %.6f %.6f %s\n", up, failed, t0, t1, cpu_of(RUSAGE_SELF, 1),
                     cpu_of(RUSAGE_SELF, 0), negotiated[0] ? negotiated : "-");
    if (write(out, line, m) != m) return 1;
    if (rate <= 0) return 0;
    double go;
    if (read(go_fd, &go, sizeof go) != sizeof go) return 1;
    static struct load L;
    load(ups, up, rate, secs, echo_ms, timeout, drain, go, &L);
    char big[NB * 12 + 400];
    m = snprintf(big, sizeof big, "%ld %ld %ld %ld %ld %.6f %.6f %ld %ld %ld %ld %ld %ld", L.sent, L.answered,
                 L.echo_sent, L.echo_answered, L.partial, L.cpu_user, L.cpu_sys, L.late, L.lost, L.unsettled,
                 L.echo_late, L.echo_lost, L.echo_unsettled);  /* the histogram follows: every answer's latency */
    for (int b = 0; b < NB; b++) m += snprintf(big + m, sizeof big - m, " %ld", L.hist[b]);
    big[m++] = '\n';
    return write(out, big, m) == m ? 0 : 1;
}

/* The latency percentile q (0..1) of the summed histogram, in us (its bucket's upper edge). */
static double percentile(const long *h, long total, double q) {
    long seen = 0;
    for (int b = 0; b < NB; b++) {
        seen += h[b];
        if (total && seen >= q * total) return exp2((b + 1) / 16.0);
    }
    return 0;
}

static void print_load(FILE *in, int procs, double rate, double secs, double echo_ms, double timeout, double drain) {
    long s = 0, a = 0, es = 0, ea = 0, part = 0, h[NB] = {0}, k[6] = {0};
    double cu = 0, cs = 0;
    for (int p = 0; p < procs; p++) {
        long v[5], w[6];
        double u, y;
        if (fscanf(in, "%ld %ld %ld %ld %ld %lf %lf %ld %ld %ld %ld %ld %ld", &v[0], &v[1], &v[2], &v[3], &v[4], &u, &y,
                   &w[0], &w[1], &w[2], &w[3], &w[4], &w[5]) != 13) break;
        s += v[0], a += v[1], es += v[2], ea += v[3], part += v[4], cu += u, cs += y;
        for (int i = 0; i < 6; i++) k[i] += w[i];
        for (int b = 0; b < NB; b++) {
            long c;
            if (fscanf(in, "%ld", &c) == 1) h[b] += c;
        }
    }
    long timed = 0;
    for (int b = 0; b < NB; b++) timed += h[b];
    printf(", \"load\": {\"offered_per_s\": %.1f, \"seconds\": %.1f, \"echo_every_ms\": %.0f, \"timeout_ms\": %.0f, "
           "\"drain_ms\": %.0f, \"sent\": %ld, \"answered\": %ld, \"late\": %ld, \"lost\": %ld, \"unsettled\": %ld, "
           "\"echo_sent\": %ld, \"echo_answered\": %ld, \"echo_late\": %ld, \"echo_lost\": %ld, \"echo_unsettled\": %ld, "
           "\"partial_io\": %ld, \"p50_us\": %.0f, \"p99_us\": %.0f, \"p99_9_us\": %.0f, \"cpu_user_s\": %.3f, "
           "\"cpu_system_s\": %.3f}",
           rate, secs, echo_ms, 1e3 * timeout, 1e3 * drain, s, a, k[0], k[1], k[2], es, ea, k[3], k[4], k[5], part,
           percentile(h, timed, 0.5), percentile(h, timed, 0.99), percentile(h, timed, 0.999), cu, cs);
}

/* The client side of --tls: CA checks the controller, CERT and KEY are this switch's; VERSIONS
 * 1.2, 1.3 or 1.2,1.3. NULL (with the reason on stderr) when a file or a version is wrong. */
static SSL_CTX *tls_context(const char *ca, const char *cert, const char *key, const char *versions) {
    SSL_CTX *c = SSL_CTX_new(TLS_client_method());
    int lo = strstr(versions, "1.2") ? TLS1_2_VERSION : TLS1_3_VERSION;
    int hi = strstr(versions, "1.3") ? TLS1_3_VERSION : TLS1_2_VERSION;
    if (!strstr(versions, "1.2") && !strstr(versions, "1.3")) { fprintf(stderr, "hsclient: --tls VERSIONS: 1.2, 1.3 or 1.2,1.3\n"); return NULL; }
    if (!c || !SSL_CTX_set_min_proto_version(c, lo) || !SSL_CTX_set_max_proto_version(c, hi)) return NULL;
    if (SSL_CTX_load_verify_locations(c, ca, NULL) != 1) { fprintf(stderr, "hsclient: --tls CA %s: not a PEM CA\n", ca); return NULL; }
    if (SSL_CTX_use_certificate_chain_file(c, cert) != 1) { fprintf(stderr, "hsclient: --tls CERT %s: not a PEM certificate\n", cert); return NULL; }
    if (SSL_CTX_use_PrivateKey_file(c, key, SSL_FILETYPE_PEM) != 1 || SSL_CTX_check_private_key(c) != 1) {
        fprintf(stderr, "hsclient: --tls KEY %s: not the key of %s\n", key, cert);
        return NULL;
    }
    SSL_CTX_set_verify(c, SSL_VERIFY_PEER, NULL);
    SSL_CTX_set_session_cache_mode(c, SSL_SESS_CACHE_OFF);
    SSL_CTX_set_options(c, SSL_OP_NO_TICKET);
    SSL_CTX_set_mode(c, SSL_MODE_RELEASE_BUFFERS);
    return c;
}

int main(int argc, char **argv) {
    if (argc > 1 && !strcmp(argv[1], "--tls")) {
        if (argc < 6 || !(ctx = tls_context(argv[2], argv[3], argv[4], argv[5]))) {
            if (argc < 6) fprintf(stderr, "hsclient: --tls CA CERT KEY VERSIONS\n");
            return 1;
        }
        argv += 5, argc -= 5;
    }
    if (argc != 7 && argc != 12) {
        fprintf(stderr, "usage: hsclient [--tls CA CERT KEY VERSIONS] HOST PORT N PROCS PARALLEL SRC_PREFIX "
                        "[RATE SECONDS ECHO_EVERY_MS TIMEOUT_MS DRAIN_MS]\n");
        return 1;
    }
    if (ctx && argc == 12) { fprintf(stderr, "hsclient: no load phase over --tls (handshakes only)\n"); return 1; }
    peer_host = argv[1];
    int n = atoi(argv[3]), procs = atoi(argv[4]), par = atoi(argv[5]);
    double rate = argc == 12 ? atof(argv[7]) : 0, secs = argc == 12 ? atof(argv[8]) : 0;
    double echo_ms = argc == 12 ? atof(argv[9]) : 0;
    double timeout = argc == 12 ? atof(argv[10]) / 1e3 : 0, drain = argc == 12 ? atof(argv[11]) / 1e3 : 0;
    if (n < 1 || procs < 1 || par < 1) { fprintf(stderr, "hsclient: N, PROCS, PARALLEL: numbers >= 1\n"); return 1; }
    if (argc == 12 && (rate <= 0 || secs <= 0 || echo_ms < 0 || timeout <= 0 || drain < 0)) {
        fprintf(stderr, "hsclient: RATE, SECONDS, TIMEOUT_MS > 0; ECHO_EVERY_MS, DRAIN_MS >= 0\n");
        return 1;
    }
    struct rlimit rl;
    getrlimit(RLIMIT_NOFILE, &rl);
    rl.rlim_cur = rl.rlim_max;
    setrlimit(RLIMIT_NOFILE, &rl);
    int fds[2], go[2];
    if (pipe(fds) < 0 || pipe(go) < 0) return 3;
    for (int p = 0; p < procs; p++) {
        int share = n / procs + (p < n % procs);
        if (fork() == 0) {
            close(fds[0]), close(go[1]);
            _exit(run(argv[1], atoi(argv[2]), share, par, argv[6], p, fds[1], go[0], rate / procs, secs, echo_ms, timeout, drain));
        }
    }
    close(fds[1]), close(go[0]);
    FILE *in = fdopen(fds[0], "r");
    int up = 0, failed = 0, u, f;
    double first = 1e18, last = 0, a, b, cu, cs, hs_user = 0, hs_sys = 0;
    char neg[160], tls_neg[160] = "";
    for (int p = 0; p < procs && fscanf(in, "%d %d %lf %lf %lf %lf %159s", &u, &f, &a, &b, &cu, &cs, neg) == 7; p++) {
        if (!tls_neg[0] && strcmp(neg, "-")) strcpy(tls_neg, neg);
        up += u, failed += f, hs_user += cu, hs_sys += cs;
        if (a < first) first = a;
        if (b > last) last = b;
    }
    double secs_hs = last - first;
    if (rate > 0) {
        double t_go = now_s() + 0.5;
        printf("go %.6f\n", t_go);
        fflush(stdout);
        for (int p = 0; p < procs; p++) if (write(go[1], &t_go, sizeof t_go) != sizeof t_go) return 3;
    }
    printf("{\"sessions_up\": %d, \"failed\": %d, \"seconds\": %.3f, \"rate_per_s\": %.1f, \"cpu_user_s\": %.3f, "
           "\"cpu_system_s\": %.3f", up, failed, secs_hs, secs_hs > 0 ? up / secs_hs : 0.0, hs_user, hs_sys);
    if (rate > 0) print_load(in, procs, rate, secs, echo_ms, timeout, drain);
    if (ctx) {
        char *cut = strchr(tls_neg, '/');
        if (cut) *cut++ = 0;
        printf(", \"tls_version\": \"%s\", \"cipher_suite\": \"%s\"", cut ? tls_neg : "", cut ? cut : "");
    }
    printf("}\n");
    while (wait(NULL) > 0) {}
    return failed ? 2 : 0;
}
