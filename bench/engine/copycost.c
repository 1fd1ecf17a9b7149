/* The kernel's cost of receiving into a buffer at a given offset in a page (bench.py copy).
 *
 *   copycost OFFSET CHUNK MIB
 *
 * A writer process (on the second CPU this process may use) sends 64 KiB writes from a
 * page-aligned buffer over loopback TCP without end; this process (on the first) receives MIB MiB
 * with recv(CHUNK) into a page-aligned buffer + OFFSET, and prints one JSON line: the bytes
 * received and its own user and system CPU seconds over them. The system time per byte is mostly
 * the kernel's copy to user space (_copy_to_iter), whose speed on some CPUs depends on where the
 * destination sits in its page against the source (the socket's data, here at offset 0 of its
 * pages): a destination a few bytes past it is a false store-to-load dependency on every line
 * (docs/engine-figures.md, "The kernel's copy, aligned"). */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

static int nth_cpu(int n) {
    cpu_set_t s;
    if (sched_getaffinity(0, sizeof s, &s)) return -1;
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, &s) && n-- == 0) return c;
    return -1;
}

static void pin(int cpu) {
    if (cpu < 0) return;
    cpu_set_t s;
    CPU_ZERO(&s);
    CPU_SET(cpu, &s);
    sched_setaffinity(0, sizeof s, &s);
}

static double secs(struct timeval t) { return t.tv_sec + t.tv_usec / 1e6; }

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: copycost OFFSET CHUNK MIB\n");
        return 1;
    }
    size_t off = strtoul(argv[1], 0, 10), chunk = strtoul(argv[2], 0, 10);
    size_t total = strtoul(argv[3], 0, 10) << 20;
    int reader_cpu = nth_cpu(0), writer_cpu = nth_cpu(1);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t len = sizeof a;
    int ls = socket(AF_INET, SOCK_STREAM, 0);
    if (ls < 0 || bind(ls, (void *)&a, sizeof a) || getsockname(ls, (void *)&a, &len) || listen(ls, 1)) {
        perror("copycost: listen");
        return 1;
    }
    pid_t writer = fork();
    if (writer == 0) {
        pin(writer_cpu);
        int s = socket(AF_INET, SOCK_STREAM, 0);
        if (connect(s, (void *)&a, sizeof a)) _exit(1);
        static char out[65536] __attribute__((aligned(4096)));
        memset(out, 7, sizeof out);
        while (write(s, out, sizeof out) > 0) {}
        _exit(0);
    }
    pin(reader_cpu);
    int c = accept(ls, 0, 0);
    char *buf = aligned_alloc(4096, (chunk + off + 4095) / 4096 * 4096);
    if (c < 0 || !buf) {
        perror("copycost: accept");
        kill(writer, SIGKILL);
        return 1;
    }
    memset(buf, 0, chunk + off);
    size_t got = 0;
    struct rusage r0, r1;
    getrusage(RUSAGE_SELF, &r0);
    while (got < total) {
        ssize_t n = recv(c, buf + off, total - got < chunk ? total - got : chunk, 0);
        if (n <= 0) break;
        got += (size_t)n;
    }
    getrusage(RUSAGE_SELF, &r1);
    kill(writer, SIGKILL);
    waitpid(writer, 0, 0);
    printf("{\"offset\": %zu, \"chunk\": %zu, \"bytes\": %zu, \"user_s\": %.6f, \"sys_s\": %.6f, \"reader_cpu\": %d, \"writer_cpu\": %d}\n",
           off, chunk, got, secs(r1.ru_utime) - secs(r0.ru_utime), secs(r1.ru_stime) - secs(r0.ru_stime), reader_cpu, writer_cpu);
    return got < total;
}
