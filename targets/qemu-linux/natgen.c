// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * natgen: the deterministic traffic of the kernel router model (model.sh).
 * A static ARM program in the router's initramfs that sends NAT traffic
 * through the router it runs on, from inside the emulated machine, so no
 * host timing enters: with QEMU's -icount every count is the same on every
 * boot of one kernel.
 *
 *   natgen LAN WAN SND SINK ROUNDS WARMUP GAP_US [sendonly]
 *
 * LAN and WAN are the router's interfaces (192.168.1.1 and 10.0.0.2, with
 * nftables masquerade on WAN); SND shares LAN's QEMU hub, SINK shares
 * WAN's. natgen writes whole Ethernet frames on SND and SINK through
 * AF_PACKET sockets (qdisc bypassed: the sender's kernel path is kept
 * short; it is counted too, see model.sh):
 *
 * - 4 TCP flows 192.168.1.2:40000+i -> 10.0.0.1:5201+i, each opened with a
 *   real handshake (SYN from LAN, SYN-ACK from WAN to the masqueraded
 *   address, ACK), then per round two 1460-byte segments LAN -> WAN and
 *   one ACK back (a 60-byte frame, padded as Ethernet pads it), as a bulk
 *   TCP transfer with delayed ACKs looks to a router; conntrack tracks
 *   every sequence number and window.
 * - 2 UDP flows 192.168.1.2:50000+j -> 10.0.0.1:5301+j, one 1472-byte
 *   datagram each per round.
 *
 * 14 forwarded frames per round, then GAP_US microseconds of sleep
 * (virtual time under -icount). The router's static neighbour entries
 * point at MAC addresses no NIC has, so QEMU drops what it forwards at
 * the hubs' other ports and the guest never receives its own traffic.
 *
 * The counted window: WARMUP rounds (caches, conntrack and NAT entries
 * warm), a drain, then the A32 hint `dbg #1` (MIPS: `sll $0,$0,17`;
 * the uarch plugin's marks=on resets its counters there), ROUNDS rounds,
 * a drain, `dbg #2` (`sll $0,$0,18`: the plugin writes its report). Then it prints, from the interfaces'
 * counters read outside the window:
 *
 *   TUNER-GEN-DONE packets=N bytes=B sent=S
 *
 * N and B: the frames (and their bytes) LAN and WAN transmitted in the
 * window, i.e. forwarded; S: the frames natgen sent meanwhile. N != S means
 * the router dropped or delayed some (the scorer refuses that run).
 *
 * sendonly: the same frames, addressed to MACs no NIC has, so the router
 * never receives them: what the sender alone costs. Then N and B are the
 * frames and bytes sent, and natgen fails if LAN or WAN received any.
 * Exit status 0, or 1 with "natgen: REASON" on stderr.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <netinet/in.h>
#include <linux/if_packet.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define NTCP 4
#define NUDP 2
#define MSS 1460
#define UDP_PAYLOAD 1472

static const uint8_t mac_lan[6] = { 0x52, 0x54, 0x00, 0x12, 0x01, 0x01 };
static const uint8_t mac_wan[6] = { 0x52, 0x54, 0x00, 0x12, 0x02, 0x01 };
static const uint8_t mac_snd[6] = { 0x52, 0x54, 0x00, 0x12, 0x01, 0x02 };
static const uint8_t mac_sink[6] = { 0x52, 0x54, 0x00, 0x12, 0x02, 0x02 };

#define IP_CLIENT 0xc0a80102u /* 192.168.1.2 */
#define IP_SERVER 0x0a000001u /* 10.0.0.1 */
#define IP_ROUTER_WAN 0x0a000002u /* 10.0.0.2 */

struct side {
	int fd;
	struct sockaddr_ll to;
};

struct tcpflow {
	uint16_t cport, sport;
	uint32_t cseq, sseq; /* next sequence number of client, server */
};

static struct side snd, sink;
static struct tcpflow tcp[NTCP];
static uint16_t ipid;
static unsigned long sent;
static unsigned long long sent_bytes;
static int sendonly;
static const uint8_t mac_nobody_lan[6] = { 0x52, 0x54, 0x00, 0x12, 0x01, 0x77 };
static const uint8_t mac_nobody_wan[6] = { 0x52, 0x54, 0x00, 0x12, 0x02, 0x77 };

static void die(const char *what)
{
	fprintf(stderr, "natgen: %s: %s\n", what, strerror(errno));
	exit(1);
}

/* The two marks; QEMU runs them as no-ops (see the uarch plugin): the A32
 * hints dbg #1 and #2, on MIPS sll $0,$0,17 and 18. */
#if defined(__arm__)
#define MARK(a32, mips) __asm__ volatile(".inst " #a32 ::: "memory")
#elif defined(__mips__)
#define MARK(a32, mips) __asm__ volatile(".word " #mips ::: "memory")
#else
#error "natgen: marks for A32 and MIPS only"
#endif
static void mark_reset(void)
{
	MARK(0xe320f0f1, 0x00000440);
}

static void mark_dump(void)
{
	MARK(0xe320f0f2, 0x00000480);
}

static void sleep_us(long us)
{
	struct timespec t = { us / 1000000, (us % 1000000) * 1000 };

	while (nanosleep(&t, &t) < 0 && errno == EINTR)
		;
}

static void open_side(struct side *s, const char *ifname)
{
	int one = 1;

	s->fd = socket(AF_PACKET, SOCK_RAW, 0); /* protocol 0: receives nothing */
	if (s->fd < 0)
		die("socket(AF_PACKET)");
	memset(&s->to, 0, sizeof(s->to));
	s->to.sll_family = AF_PACKET;
	s->to.sll_ifindex = (int)if_nametoindex(ifname);
	s->to.sll_halen = 6;
	if (!s->to.sll_ifindex)
		die(ifname);
	if (setsockopt(s->fd, SOL_PACKET, PACKET_QDISC_BYPASS, &one, sizeof(one)) < 0)
		die("PACKET_QDISC_BYPASS");
}

static uint32_t sum16(uint32_t sum, const uint8_t *p, size_t n)
{
	for (size_t i = 0; i + 1 < n; i += 2)
		sum += (uint32_t)p[i] << 8 | p[i + 1];
	if (n & 1)
		sum += (uint32_t)p[n - 1] << 8;
	return sum;
}

static uint16_t fold(uint32_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p, (uint16_t)(v >> 16));
	put16(p + 2, (uint16_t)v);
}

/*
 * Writes an Ethernet + IPv4 + L4 frame into f (at least 1514 bytes) and
 * sends it on side s. l4 holds the L4 header with its checksum field 0
 * (l4len bytes), followed by paylen bytes of payload, which are filled
 * here. Frames shorter than 60 bytes are padded, as Ethernet does.
 */
static void send_frame(struct side *s, const uint8_t *dst, const uint8_t *src, uint8_t proto,
		       uint32_t sip, uint32_t dip, uint8_t *f, size_t l4len, size_t paylen,
		       size_t csum_off)
{
	uint8_t *ip = f + 14, *l4 = ip + 20;
	size_t iplen = 20 + l4len + paylen, len = 14 + iplen;
	uint32_t ps;

	memcpy(f, dst, 6);
	memcpy(f + 6, src, 6);
	put16(f + 12, 0x0800);
	ip[0] = 0x45;
	ip[1] = 0;
	put16(ip + 2, (uint16_t)iplen);
	put16(ip + 4, ipid++);
	put16(ip + 6, 0x4000); /* DF */
	ip[8] = 64;
	ip[9] = proto;
	put16(ip + 10, 0);
	put32(ip + 12, sip);
	put32(ip + 16, dip);
	put16(ip + 10, fold(sum16(0, ip, 20)));
	for (size_t i = 0; i < paylen; i++)
		l4[l4len + i] = (uint8_t)(i * 7 + 1);
	/* The pseudo-header, then the L4 header and payload. */
	ps = sum16(0, ip + 12, 8) + proto + (uint32_t)(l4len + paylen);
	put16(l4 + csum_off, fold(sum16(ps, l4, l4len + paylen)));
	if (proto == IPPROTO_UDP && l4[csum_off] == 0 && l4[csum_off + 1] == 0)
		put16(l4 + csum_off, 0xffff);
	if (len < 60) {
		memset(f + len, 0, 60 - len);
		len = 60;
	}
	if (sendonly) {
		dst = dst == mac_lan ? mac_nobody_lan : mac_nobody_wan;
		memcpy(f, dst, 6);
	}
	memcpy(s->to.sll_addr, dst, 6);
	for (;;) {
		if (sendto(s->fd, f, len, 0, (struct sockaddr *)&s->to, sizeof(s->to)) ==
		    (ssize_t)len)
			break;
		if (errno != ENOBUFS && errno != EAGAIN && errno != EINTR)
			die("sendto");
		sleep_us(50); /* the NIC's ring is full: let QEMU's tx timer run */
	}
	sent++;
	sent_bytes += len;
}

enum { FIN = 1, SYN = 2, PSH = 8, ACK = 16 };

/* A TCP segment of flow t, from the client (LAN) or the server (WAN). */
static void tcp_send(struct tcpflow *t, int from_client, uint8_t flags, size_t paylen)
{
	static uint8_t f[1514];
	uint8_t *h = f + 34;
	uint32_t seq = from_client ? t->cseq : t->sseq, ack = from_client ? t->sseq : t->cseq;

	put16(h, from_client ? t->cport : t->sport);
	put16(h + 2, from_client ? t->sport : t->cport);
	put32(h + 4, seq);
	put32(h + 8, (flags & ACK) ? ack : 0);
	h[12] = 5 << 4;
	h[13] = flags;
	put16(h + 14, 65535);
	put16(h + 16, 0);
	put16(h + 18, 0);
	if (from_client)
		send_frame(&snd, mac_lan, mac_snd, IPPROTO_TCP, IP_CLIENT, IP_SERVER, f, 20,
			   paylen, 16);
	else /* to the masqueraded address: the router maps it back */
		send_frame(&sink, mac_wan, mac_sink, IPPROTO_TCP, IP_SERVER, IP_ROUTER_WAN, f,
			   20, paylen, 16);
	if (from_client)
		t->cseq += (uint32_t)paylen + !!(flags & (SYN | FIN));
	else
		t->sseq += (uint32_t)paylen + !!(flags & (SYN | FIN));
}

static void udp_send(int j)
{
	static uint8_t f[1514];
	uint8_t *h = f + 34;

	put16(h, (uint16_t)(50000 + j));
	put16(h + 2, (uint16_t)(5301 + j));
	put16(h + 4, 8 + UDP_PAYLOAD);
	put16(h + 6, 0);
	send_frame(&snd, mac_lan, mac_snd, IPPROTO_UDP, IP_CLIENT, IP_SERVER, f, 8, UDP_PAYLOAD, 6);
}

static void round_once(long gap_us)
{
	for (int i = 0; i < NTCP; i++) {
		tcp_send(&tcp[i], 1, ACK, MSS);
		tcp_send(&tcp[i], 1, ACK | PSH, MSS);
		tcp_send(&tcp[i], 0, ACK, 0);
	}
	for (int j = 0; j < NUDP; j++)
		udp_send(j);
	sleep_us(gap_us);
}

static unsigned long long stat_of(const char *ifname, const char *what)
{
	char path[128];
	unsigned long long v = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/class/net/%s/statistics/%s", ifname, what);
	f = fopen(path, "r");
	if (!f || fscanf(f, "%llu", &v) != 1)
		die(path);
	fclose(f);
	return v;
}

static long arg(const char *s, const char *what, long lo, long hi)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || end == s || v < lo || v > hi) {
		fprintf(stderr, "natgen: %s '%s' is not a number in %ld..%ld\n", what, s, lo, hi);
		exit(1);
	}
	return v;
}

int main(int argc, char **argv)
{
	const char *lan, *wan;
	long rounds, warmup, gap;
	unsigned long long p0, b0, p1, b1, r0, r1, sb0;
	unsigned long s0;

	if (argc != 8 && !(argc == 9 && !strcmp(argv[8], "sendonly"))) {
		fprintf(stderr, "usage: natgen LAN WAN SND SINK ROUNDS WARMUP GAP_US [sendonly]\n");
		return 1;
	}
	sendonly = argc == 9;
	lan = argv[1];
	wan = argv[2];
	open_side(&snd, argv[3]);
	open_side(&sink, argv[4]);
	rounds = arg(argv[5], "ROUNDS", 1, 10000000);
	warmup = arg(argv[6], "WARMUP", 0, 10000000);
	gap = arg(argv[7], "GAP_US", 0, 1000000);

	for (int i = 0; i < NTCP; i++) {
		tcp[i].cport = (uint16_t)(40000 + i);
		tcp[i].sport = (uint16_t)(5201 + i);
		tcp[i].cseq = 0x10000000u * (uint32_t)(i + 1);
		tcp[i].sseq = 0x20000000u + 0x1000000u * (uint32_t)i;
		/* Each step crosses the router before the next is sent. */
		tcp_send(&tcp[i], 1, SYN, 0);
		sleep_us(2000);
		tcp_send(&tcp[i], 0, SYN | ACK, 0);
		sleep_us(2000);
		tcp_send(&tcp[i], 1, ACK, 0);
		sleep_us(2000);
	}
	for (long r = 0; r < warmup; r++)
		round_once(gap);
	sleep_us(20000);

	p0 = stat_of(lan, "tx_packets") + stat_of(wan, "tx_packets");
	b0 = stat_of(lan, "tx_bytes") + stat_of(wan, "tx_bytes");
	r0 = stat_of(lan, "rx_packets") + stat_of(wan, "rx_packets");
	s0 = sent;
	sb0 = sent_bytes;
	mark_reset();
	for (long r = 0; r < rounds; r++)
		round_once(gap);
	sleep_us(20000);
	mark_dump();
	p1 = stat_of(lan, "tx_packets") + stat_of(wan, "tx_packets");
	b1 = stat_of(lan, "tx_bytes") + stat_of(wan, "tx_bytes");
	r1 = stat_of(lan, "rx_packets") + stat_of(wan, "rx_packets");
	if (sendonly) {
		if (r1 != r0) {
			fprintf(stderr, "natgen: sendonly: the router received %llu frames\n", r1 - r0);
			return 1;
		}
		printf("TUNER-GEN-DONE packets=%lu bytes=%llu sent=%lu sendonly\n", sent - s0,
		       sent_bytes - sb0, sent - s0);
		fflush(stdout);
		return 0;
	}
	printf("TUNER-GEN-DONE packets=%llu bytes=%llu sent=%lu\n", p1 - p0, b1 - b0, sent - s0);
	fflush(stdout);
	return 0;
}
