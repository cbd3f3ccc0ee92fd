/*
 * nfq-delay: hold every packet of one NFQUEUE for a fixed one-way delay, then
 * accept it. Packets leave in the order they arrived (a timed FIFO), so the
 * link it emulates never reorders. Part of Longhaul's kernel WAN harness
 * (test/wan/README.md); built by test/wan/helper-build.ts, never committed.
 *
 *   nfq-delay --queue N --delay-us D [--max-packets M]
 *
 * Prints "ready queue=N delay_us=D" on stdout once the queue is bound (the
 * harness adds the iptables NFQUEUE rule only after that line), and one
 * "stats ..." line on stderr when it exits (SIGTERM or SIGINT).
 *
 * Why not netem: the kernels here have no sch_netem. Why a user-space queue
 * is accurate enough: the packet stays in the kernel (we copy only its
 * metadata), and ppoll() sleeps on a high-resolution timer until the head of
 * the queue is due, so the added delay is D plus scheduling noise (tens of us).
 */
#define _GNU_SOURCE
/* libc network headers first: linux/netfilter.h must not define in_addr before them. */
#include <arpa/inet.h>
#include <errno.h>
#include <libnetfilter_queue/libnetfilter_queue.h>
#include <linux/netfilter.h>
#include <linux/netlink.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

struct held {
    uint32_t id;
    uint64_t due_ns;
};

struct state {
    struct nfq_q_handle *qh;
    uint64_t delay_ns;
    struct held *ring;
    size_t cap, head, count;
    uint64_t packets, released, dropped_full;
};

static volatile sig_atomic_t stop_requested = 0;

static void on_signal(int sig) {
    (void)sig;
    stop_requested = 1;
}

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Called by nfq_handle_packet for each queued packet: remember it, do not decide yet. */
static int on_packet(struct nfq_q_handle *qh, struct nfgenmsg *msg, struct nfq_data *nfa, void *data) {
    (void)msg;
    struct state *st = data;
    struct nfqnl_msg_packet_hdr *ph = nfq_get_msg_packet_hdr(nfa);
    if (ph == NULL) return 0;
    uint32_t id = ntohl(ph->packet_id);
    st->packets++;
    if (st->count == st->cap) {
        /* A router whose delay line is full drops, as a full queue does. */
        st->dropped_full++;
        return nfq_set_verdict(qh, id, NF_DROP, 0, NULL);
    }
    size_t tail = (st->head + st->count) % st->cap;
    st->ring[tail].id = id;
    st->ring[tail].due_ns = now_ns() + st->delay_ns;
    st->count++;
    return 0;
}

/* Accept every packet whose time has come. Returns ns until the next one is due, or -1 if none is held. */
static int64_t release_due(struct state *st) {
    uint64_t t = now_ns();
    int64_t last = -1;
    while (st->count > 0 && st->ring[st->head].due_ns <= t) {
        last = st->ring[st->head].id;
        st->head = (st->head + 1) % st->cap;
        st->count--;
        st->released++;
    }
    /* Packet ids grow monotonically, so one batch verdict accepts everything up to `last` in order. */
    if (last >= 0 && nfq_set_verdict_batch(st->qh, (uint32_t)last, NF_ACCEPT) < 0) {
        fprintf(stderr, "nfq-delay: verdict failed: %s\n", strerror(errno));
    }
    if (st->count == 0) return -1;
    return (int64_t)(st->ring[st->head].due_ns - t);
}

static int parse_args(int argc, char **argv, long *queue, long *delay_us, long *max_packets) {
    for (int i = 1; i + 1 < argc; i += 2) {
        char *end = NULL;
        long v = strtol(argv[i + 1], &end, 10);
        if (*end != '\0' || v < 0) return -1;
        if (strcmp(argv[i], "--queue") == 0) *queue = v;
        else if (strcmp(argv[i], "--delay-us") == 0) *delay_us = v;
        else if (strcmp(argv[i], "--max-packets") == 0) *max_packets = v;
        else return -1;
    }
    if (argc % 2 != 1 || *queue < 0 || *queue > 65535 || *delay_us < 0 || *delay_us > 60000000 || *max_packets < 1) return -1;
    return 0;
}

int main(int argc, char **argv) {
    long queue = -1, delay_us = -1, max_packets = 65536;
    if (parse_args(argc, argv, &queue, &delay_us, &max_packets) != 0) {
        fprintf(stderr, "usage: nfq-delay --queue N --delay-us D [--max-packets M]  (D up to 60 s)\n");
        return 2;
    }
    struct state st = {0};
    st.delay_ns = (uint64_t)delay_us * 1000ull;
    st.cap = (size_t)max_packets;
    st.ring = calloc(st.cap, sizeof(struct held));
    if (st.ring == NULL) return 1;

    struct sigaction sa = {0};
    sa.sa_handler = on_signal;
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);

    struct nfq_handle *h = nfq_open();
    if (h == NULL) {
        fprintf(stderr, "nfq-delay: nfq_open failed: %s (needs root / CAP_NET_ADMIN and nfnetlink_queue)\n", strerror(errno));
        return 1;
    }
    st.qh = nfq_create_queue(h, (uint16_t)queue, on_packet, &st);
    if (st.qh == NULL) {
        fprintf(stderr, "nfq-delay: cannot bind queue %ld: %s\n", queue, strerror(errno));
        nfq_close(h);
        return 1;
    }
    /* Metadata only: the payload stays in the kernel while the packet waits. */
    if (nfq_set_mode(st.qh, NFQNL_COPY_META, 0) < 0 || nfq_set_queue_maxlen(st.qh, (uint32_t)st.cap) < 0) {
        fprintf(stderr, "nfq-delay: cannot configure queue: %s\n", strerror(errno));
        return 1;
    }
    int fd = nfq_fd(h);
    nfnl_rcvbufsiz(nfq_nfnlh(h), 16 * 1024 * 1024);
    int one = 1;
    setsockopt(fd, SOL_NETLINK, NETLINK_NO_ENOBUFS, &one, sizeof one);

    printf("ready queue=%ld delay_us=%ld\n", queue, delay_us);
    fflush(stdout);

    char buf[65536] __attribute__((aligned));
    while (!stop_requested) {
        int64_t wait_ns = release_due(&st);
        struct timespec ts, *tsp = NULL;
        if (wait_ns >= 0) {
            ts.tv_sec = wait_ns / 1000000000ll;
            ts.tv_nsec = wait_ns % 1000000000ll;
            tsp = &ts;
        }
        struct pollfd pfd = {.fd = fd, .events = POLLIN};
        int r = ppoll(&pfd, 1, tsp, NULL);
        if (r < 0) {
            if (errno == EINTR) continue;
            fprintf(stderr, "nfq-delay: poll: %s\n", strerror(errno));
            break;
        }
        if (r > 0 && (pfd.revents & POLLIN)) {
            ssize_t n;
            while ((n = recv(fd, buf, sizeof buf, MSG_DONTWAIT)) > 0) nfq_handle_packet(h, buf, (int)n);
            if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR && errno != ENOBUFS) {
                fprintf(stderr, "nfq-delay: recv: %s\n", strerror(errno));
                break;
            }
        }
    }
    fprintf(stderr, "stats packets=%llu released=%llu dropped_full=%llu held_at_exit=%zu\n",
            (unsigned long long)st.packets, (unsigned long long)st.released,
            (unsigned long long)st.dropped_full, st.count);
    nfq_destroy_queue(st.qh);
    nfq_close(h);
    free(st.ring);
    return 0;
}
