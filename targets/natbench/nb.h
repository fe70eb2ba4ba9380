/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * natbench: types and state of the modelled router, shared by the fast path
 * (fp_*.c) and the harness (main.c, gen.c, wire.c, config.c, verify.c).
 *
 * Types and declarations only. Code that runs per packet lives in fp_*.c and
 * fp_*.h, so that cachegrind attributes every fast-path instruction to a file
 * whose name starts with fp_ (the scorer counts files by that name).
 *
 * Addresses and ports are kept in host order in structures; packet bytes are
 * big-endian and read with the fp_util.h accessors.
 */
#ifndef NB_H
#define NB_H

#include <stdint.h>

/* ---- hardware: memory, DMA rings, cache maintenance, interrupts ---- */

#define NB_LINE 32u          /* Cortex-A9 L1 and PL310 line size */
#define NB_NCPUS 2u          /* the BCM47094's two Cortex-A9 cores */
#define NB_PAGE_SHIFT 12u
#define NB_PAGE_SIZE (1u << NB_PAGE_SHIFT)
#define NB_NPAGES 1024u      /* RAM the kernel's allocators manage: 4 MB */
#define NB_PHYS_OFFSET 0x80000000u  /* bus address of nb_mem[0] */
#define NB_RX_BUF_SIZE 2048u /* one receive buffer: a page fragment */
#define NB_RXHDR 8u          /* device-written receive header: len, flags */
#define NB_HEADROOM 64u      /* frame offset: room to push tags and PPPoE */
#define NB_RX_MAP 1600u      /* bytes mapped (invalidated) per receive buffer */
#define NB_MAX_FRAME 1536u   /* largest frame the device delivers */
#define NB_RX_RING 128u
#define NB_TX_RING 256u
#define NB_BUDGET 64u        /* NAPI weight: frames per poll */

#define DESC_OWN 0x80000000u /* descriptor belongs to the device */
#define DESC_EOF 0x40000000u
#define DESC_LEN 0x0000ffffu

#define RXF_CRC_ERR 0x1u
#define RXF_OVERSIZE 0x2u

/* The RAM the allocators hand out (pages, slabs, page fragments): all
 * packet data lives here, and the device reaches it by bus address. */
extern uint8_t nb_mem[NB_NPAGES * NB_PAGE_SIZE];

static inline uint8_t *nb_bus_to_virt(uint32_t addr)
{
	return nb_mem + (addr - NB_PHYS_OFFSET);
}

struct dma_desc {
	uint32_t ctrl;
	uint32_t addr;       /* bus address of the buffer (a frame's start) */
};

enum nic_reg {
	REG_RX_STATUS,       /* device: index of the next rx descriptor it fills */
	REG_TX_STATUS,       /* device: index of the next tx descriptor it sends */
	REG_INT_STATUS,      /* device: NIC_INT_* events (write 1s to clear) */
	REG_RX_PTR,          /* driver: last rx descriptor handed back */
	REG_TX_PTR,          /* driver: tx doorbell */
	REG_INT_MASK,        /* driver: NIC_INT_* events that raise the IRQ */
	REG_NREGS = 16
};

#define NIC_INT_RX 0x1u
#define NIC_INT_TX 0x2u

struct nic {
	struct dma_desc rx[NB_RX_RING];
	struct dma_desc tx[NB_TX_RING];
	volatile uint32_t regs[REG_NREGS];
	uint32_t rx_errors, rx_nobuf, tx_busy;
};

/* CP15 and L2C-210 maintenance registers: the by-line operations of
 * v7_dma_*_range and l2c210_*_range write here. */
struct cache_ctl {
	volatile uintptr_t dcimvac, dccmvac, dccimvac;
	volatile uintptr_t l2_inv_pa, l2_clean_pa, l2_clean_inv_pa;
	volatile uint32_t l2_sync;
	uint32_t lines;
};

extern struct nic nb_nic;
extern struct cache_ctl nb_cache;

/* The interrupt controller (an ARM GIC): interrupt ids 0-15 are software
 * generated (IPIs), 16-31 private to each CPU (its local timer), 32 up
 * shared peripherals (the Ethernet core). The device side (the harness)
 * sets pending bits; the CPU side is fp_gic.c. */
#define NB_NIRQS 160u
#define IRQ_IPI_CALL_FUNC 3u  /* SGI: smp_call_function (RPS kicks) */
#define IRQ_LOCAL_TIMER 29u   /* PPI: the A9's private timer, the tick */
#define IRQ_BGMAC 147u        /* SPI: the Ethernet core */
#define GIC_SPURIOUS 1023u

struct gic_regs {
	volatile uint32_t enabled[NB_NIRQS / 32];
	/* Pending and active state as each CPU interface sees it: SGIs and
	 * PPIs are banked per CPU, SPIs go to their target's. */
	volatile uint32_t pending[NB_NCPUS][NB_NIRQS / 32];
	volatile uint32_t active[NB_NCPUS][NB_NIRQS / 32];
	volatile uint8_t target[NB_NIRQS];   /* SPI: CPU mask */
	volatile uint8_t prio[NB_NIRQS];
	volatile uint32_t pmr[NB_NCPUS];      /* priority mask */
	volatile uint32_t running[NB_NCPUS];  /* priority being handled */
	volatile uint32_t sgi_src[NB_NCPUS];  /* CPU that sent the last SGI */
};

extern struct gic_regs nb_gic;
/* The A9's global timer: a free-running counter (the harness advances it
 * as time passes on the wire); random_get_entropy reads it. */
extern volatile uint32_t nb_cycle_counter;
/* Each CPU's private timer: its event flag, set when it expires. */
extern volatile uint32_t nb_twd_intstat[NB_NCPUS];

/* ---- interfaces ---- */

enum nb_ifidx {
	IF_LAN,              /* eth0.1: 802.1Q VID 1 */
	IF_WAN,              /* eth0.2: 802.1Q VID 2, IPoE */
	IF_PPP,              /* pppoe-wan: PPPoE session over eth0.2 */
	IF_QINQ,             /* eth0.2.100: VID 2 outer, VID 100 inner */
	NB_NIFS
};
#define IF_NONE 0xffu
#define IF_LOCAL 0xfeu

struct nb_iface {
	uint8_t mac[6];
	uint8_t peer[6];     /* PPPoE access concentrator */
	uint32_t addr, mask;
	uint16_t mtu;
	uint16_t vid, inner_vid;
	uint16_t sid;        /* PPPoE session id */
	uint8_t masq;        /* masquerade traffic leaving here */
	uint8_t wan;
	uint64_t rx_packets, rx_bytes, tx_packets, tx_bytes;
	uint64_t rx_dropped, tx_dropped;
	uint32_t lcp_echo, lcp_magic;
};

extern struct nb_iface nb_ifs[NB_NIFS];

/* ---- L2 devices beneath the L3 interfaces ---- */

enum nb_devidx {
	ND_ETH0,             /* the switch's CPU port: the bgmac device */
	ND_ETH0_1,           /* VLAN 1, a port of br-lan */
	ND_ETH0_2,           /* VLAN 2: the WAN */
	ND_ETH0_2_100,       /* VLAN 100 inside VLAN 2 */
	ND_BR_LAN,           /* the LAN bridge (IF_LAN) */
	ND_PPP,              /* pppoe-wan (IF_PPP) */
	NB_NDEVS
};
enum { NDT_ETHER, NDT_VLAN, NDT_BRIDGE, NDT_PPP };
#define ND_NONE 0xffu

struct pcpu_sw_netstats {
	uint64_t rx_packets, rx_bytes, tx_packets, tx_bytes;
	uint32_t syncp;      /* u64_stats sequence */
};

/* Dynamic queue limits (byte queue limits of the transmit ring). */
struct dql {
	uint32_t num_queued, adj_limit, last_obj_cnt;
	uint32_t limit, num_completed, prev_ovlimit, prev_num_queued,
		prev_last_obj_cnt, lowest_slack, slack_start_time;
	uint32_t max_limit, min_limit, slack_hold_time;
};

struct net_device {
	const char *name;
	uint8_t type, lower, l3, up;
	uint8_t rx_handler;  /* a bridge port: frames go to the bridge */
	uint16_t vid, vlan_proto, mtu;
	uint8_t mac[6];
	uint8_t egress_pcp[8];   /* skb priority to 802.1p */
	uint8_t ingress_prio[8]; /* 802.1p to skb priority */
	uint32_t features;
	struct pcpu_sw_netstats stats[2];
	uint64_t rx_dropped, tx_dropped, rx_nohandler;
	/* The transmit queue: QUEUE_STATE_*, the CPU holding its lock
	 * (-1: none), when the driver last took a frame. */
	uint8_t txq_state;
	int8_t xmit_lock_owner;
	uint8_t has_qdisc;   /* eth0's fq_codel; the others are noqueue */
	uint32_t trans_start;
	struct dql dql;
};

#define QUEUE_STATE_DRV_XOFF 0x1u    /* the driver stopped the queue */
#define QUEUE_STATE_STACK_XOFF 0x2u  /* byte queue limits did */

#define NETIF_F_HW_CSUM 0x1u
#define NETIF_F_SG 0x2u
#define NETIF_F_HW_VLAN_TX 0x4u
#define NETIF_F_GRO 0x8u

extern struct net_device nb_devs[NB_NDEVS];

/* ---- packets ---- */

enum { PKT_HOST, PKT_BROADCAST, PKT_MULTICAST, PKT_OTHERHOST };
enum { CHECKSUM_NONE, CHECKSUM_UNNECESSARY, CHECKSUM_COMPLETE,
	CHECKSUM_PARTIAL };

struct sk_buff {
	struct sk_buff *next;
	uint8_t *head;
	uint8_t *data;       /* current start (link layer before decap) */
	uint32_t len;        /* the data end: data + len (linear skbs only) */
	uint32_t end;        /* offset of the shared info from head */
	uint32_t truesize;
	int32_t users;
	uint16_t mac;        /* offsets from head */
	uint16_t network;
	uint16_t transport;
	uint16_t protocol;   /* ethertype after decapsulation */
	uint16_t vlan;       /* outermost VID seen */
	uint8_t dev;         /* input interface */
	uint8_t odev;        /* output interface */
	uint8_t pkt_type;
	uint8_t ctinfo;
	uint8_t prio;
	uint8_t cpu;         /* the CPU receive packet steering chose */
	uint8_t l4proto;
	uint8_t local;       /* generated by the router itself */
	uint8_t ldev;        /* L2 device (ND_*) handling it now */
	uint8_t ip_summed;   /* CHECKSUM_* */
	uint8_t csum_valid;
	uint8_t cloned;      /* the data is shared with a clone */
	uint8_t head_frag;   /* head is a page fragment, not kmalloc'ed */
	uint8_t l4_hash;     /* hash holds the flow's ports too */
	uint8_t sw_hash;     /* hash computed here (not by the device) */
	uint16_t vlan_tci;   /* a tag held outside the frame (vlan_present) */
	uint16_t vlan_proto;
	uint8_t vlan_present;
	uint8_t br_vlan_filtered;  /* the bridge filtered it by VLAN */
	uint16_t app_addr;   /* payload offset of an embedded endpoint, 0 none */
	uint32_t hash;
	uint32_t mark;
	uint32_t nexthop;
	uint32_t csum;
	struct nf_conn *ct;
	struct rtable *dst;  /* the route */
	uint8_t dst_ref;     /* dst is held (an uncached route), not noref */
	/* qdisc_skb_cb: the queue's control block */
	struct {
		uint32_t pkt_len;       /* length as the qdisc counts it */
		uint32_t enqueue_time;  /* CoDel's clock when queued */
	} qcb;
	/* IPCB: the IP layer's control block, cleared as a packet enters */
	struct {
		uint32_t opt;    /* its options, compiled (fp_ip.c OPT_*) */
		uint16_t flags;  /* IPSKB_* */
		uint16_t frag_max_size;
	} ipcb;
};

/* ---- routing ---- */

enum rt_type { RTN_UNICAST, RTN_LOCAL, RTN_UNREACHABLE, RTN_BLACKHOLE,
	RTN_PROHIBIT };

struct fib_alias {
	struct fib_alias *fa_next;  /* the leaf's next route, shorter */
	uint32_t key;        /* prefix */
	uint8_t plen, slen;  /* prefix length, 32 - plen */
	uint8_t type, oif, scope;
	uint32_t gw;
	uint32_t prefsrc;
	uint64_t hits;
	/* The routes made from it, cached (the nexthop's nhc_rth_input
	 * and output route). */
	struct rtable *rth_input, *rth_output;
};

struct key_vector;

/* The main table, the local routes merged into it as the kernel does
 * while no policy rule needs them apart (fp_fib_trie.c). */
struct fib_table {
	struct key_vector *root;
	uint32_t nalias;
};

struct fib_result {
	uint8_t type, oif, plen;
	uint32_t gw;
	uint32_t prefsrc;
	struct fib_alias *fa;
};

extern struct fib_table nb_fib;

/* ---- neighbours ---- */

enum { NUD_NONE, NUD_INCOMPLETE, NUD_REACHABLE, NUD_STALE, NUD_FAILED,
	NUD_PERMANENT };

#define NEIGH_BUCKETS 256u
#define NEIGH_MAX 512u

struct neighbour {
	uint32_t ip;
	uint8_t ifidx, state, probes, hh_len;
	uint8_t mac[6];
	uint32_t updated, used;
	uint32_t next;       /* index + 1 */
	struct sk_buff *queue;
	uint8_t hh[16];      /* cached Ethernet header, right-aligned */
};

struct neigh_table {
	uint32_t hash[NEIGH_BUCKETS];
	struct neighbour n[NEIGH_MAX];
	uint32_t count;
	uint32_t rnd;
	uint64_t lookups, misses, solicits;
};

extern struct neigh_table nb_arp;

/* ---- applications (conntrack helpers, generated by mkapps) ---- */

struct app_res {
	uint32_t key;
	uint16_t cls;
	uint16_t addr_off;   /* offset of an embedded endpoint in the message */
	uint32_t len;        /* bytes of message parsed */
};

/* Per-connection state of an application's session tracker. */
struct app_track {
	uint8_t state, flags;
	uint16_t msgs[2];
	uint32_t bytes[2];
	uint32_t last;
	uint32_t v[3];
};

typedef int (*app_parsefn)(const uint8_t *p, uint32_t n, struct app_res *r);
/* Follows a session message by message; returns a QoS class or 0. */
typedef unsigned (*app_trackfn)(struct app_track *t, const struct app_res *r,
				unsigned dir, uint32_t len, uint32_t now);

struct app_ops {
	app_parsefn parse[2];  /* [0] client to server, [1] server to client */
	app_trackfn track;
	uint8_t proto;
	uint16_t port;
	uint8_t dscp;
};

/* ---- conntrack ---- */

enum { IP_CT_ESTABLISHED, IP_CT_RELATED, IP_CT_NEW, IP_CT_IS_REPLY = 3,
	IP_CT_ESTABLISHED_REPLY = 3, IP_CT_RELATED_REPLY = 4,
	IP_CT_INVALID = 6,     /* ours: tracking failed (ct state INVALID) */
	IP_CT_UNTRACKED = 7 };
enum { CT_DIR_ORIGINAL, CT_DIR_REPLY };

#define IPS_EXPECTED 0x1u
#define IPS_SEEN_REPLY 0x2u
#define IPS_ASSURED 0x4u
#define IPS_CONFIRMED 0x8u
#define IPS_SRC_NAT 0x10u
#define IPS_DST_NAT 0x20u
#define IPS_SRC_NAT_DONE 0x80u
#define IPS_DST_NAT_DONE 0x100u
#define IPS_DYING 0x200u
#define CT_F_HELPER_CHECKED 0x1u  /* helper looked up (after NAT) */

struct nf_tuple {
	uint32_t src, dst;
	uint16_t sport, dport;  /* ICMP: id, type << 8 | code */
	uint8_t proto;
	uint8_t dir;
};

enum { TCP_CONNTRACK_NONE, TCP_CONNTRACK_SYN_SENT, TCP_CONNTRACK_SYN_RECV,
	TCP_CONNTRACK_ESTABLISHED, TCP_CONNTRACK_FIN_WAIT,
	TCP_CONNTRACK_CLOSE_WAIT, TCP_CONNTRACK_LAST_ACK,
	TCP_CONNTRACK_TIME_WAIT, TCP_CONNTRACK_CLOSE, TCP_CONNTRACK_MAX };

struct tcp_seen {
	uint32_t td_end, td_maxend, td_maxwin, td_maxack;
	uint8_t td_scale, flags;
};

struct nf_conn {
	struct nf_tuple tuple[2];
	uint32_t hnext[2];   /* chain link per direction: (index << 1 | dir) + 1 */
	uint32_t timeout;    /* expires at this jiffy */
	int32_t use;         /* references: the hash's, each packet's */
	uint32_t status;
	uint32_t mark;
	uint8_t state;       /* TCP state */
	uint8_t last_dir, last_flags, retrans, last_index;
	uint32_t last_seq, last_ack, last_end;  /* retransmission check */
	uint16_t last_win;
	uint8_t flags;       /* CT_F_* */
	struct tcp_seen seen[2];
	/* Extensions (accounting, helper, NAT): a kmalloc'ed area,
	 * grown as they are added (fp_int.h: nf_ct_ext_find). */
	struct nf_ct_ext *ext;
	uint32_t free_next;
};

#define CT_HASH_SIZE 4096u
#define CT_MAX 6144u

struct ct_table {
	uint32_t hash[CT_HASH_SIZE];   /* (index << 1 | dir) + 1 */
	struct nf_conn conn[CT_MAX];
	uint32_t free_head;            /* index + 1 */
	uint32_t count, gc_bucket;
	uint32_t seed;
	uint64_t searched, found, new, invalid, insert_failed, early_drop,
		expired, dropped, defrag_seen;
};

extern struct ct_table nb_ct;
extern uint32_t nb_jiffies;

/* ---- netfilter ---- */

enum { NF_DROP, NF_ACCEPT, NF_STOLEN, NF_REPEAT };
enum { NF_INET_PRE_ROUTING, NF_INET_LOCAL_IN, NF_INET_FORWARD,
	NF_INET_LOCAL_OUT, NF_INET_POST_ROUTING, NF_INET_NUMHOOKS };

struct nf_hook_state {
	uint8_t hook;
	uint8_t in, out;
};

typedef unsigned int (*nf_hookfn)(void *priv, struct sk_buff *skb,
				  const struct nf_hook_state *state);

struct nf_hook_entry {
	nf_hookfn hook;
	void *priv;
	int prio;
};

#define NF_MAX_HOOK_ENTRIES 8
struct nf_hook_entries {
	uint32_t num;
	struct nf_hook_entry e[NF_MAX_HOOK_ENTRIES];
};

extern struct nf_hook_entries nb_hooks[NF_INET_NUMHOOKS];

/* iptables-style rules: data interpreted by ipt_do_table(), matches and
 * targets are functions reached through pointers (fp_xt_*.c). */

struct xt_match_ctx {
	const struct sk_buff *skb;
	const uint8_t *iph;
	const uint8_t *l4;      /* NULL for non-first fragments */
	uint32_t l4len;
	uint8_t in, out, hook;
	uint8_t hotdrop;
};

typedef int (*xt_matchfn)(const struct xt_match_ctx *c, const void *info);

struct xt_target_ctx {
	struct sk_buff *skb;
	uint8_t in, out, hook;
};

typedef int (*xt_targetfn)(struct xt_target_ctx *c, const void *info);

/* Special verdicts of standard targets. */
#define XT_CONTINUE 0x7fff
#define XT_RETURN (-NF_REPEAT - 1)
#define XT_JUMP(chain) (1000 + (chain))

struct xt_entry_match {
	xt_matchfn fn;
	const void *info;
	uint8_t invert;
};

#define XT_MAX_MATCHES 4

struct ipt_entry {
	/* the ipt_ip part: checked inline by ipt_do_table */
	uint32_t src, smsk, dst, dmsk;
	uint8_t proto;          /* 0 = any */
	uint8_t iif, oif;       /* IF_NONE = any */
	uint8_t invflags;
	uint8_t nmatch;
	struct xt_entry_match m[XT_MAX_MATCHES];
	xt_targetfn target;     /* NULL: standard verdict */
	const void *tinfo;
	int verdict;            /* standard: NF_ACCEPT, NF_DROP, XT_RETURN, XT_JUMP */
	uint64_t pcnt, bcnt;
};

#define IPT_INV_SRC 0x1u
#define IPT_INV_DST 0x2u
#define IPT_INV_PROTO 0x4u
#define IPT_INV_IIF 0x8u
#define IPT_INV_OIF 0x10u

struct ipt_chain {
	uint32_t first, count;  /* entries[first .. first+count) */
	int policy;             /* for built-in chains; user chains return */
};

#define IPT_MAX_ENTRIES 320u
#define IPT_MAX_CHAINS 24u

struct ipt_table {
	const char *name;
	struct ipt_entry entries[IPT_MAX_ENTRIES];
	struct ipt_chain chains[IPT_MAX_CHAINS];
	int hook_chain[NF_INET_NUMHOOKS];   /* built-in chain per hook, -1 */
	uint32_t nentries, nchains;
};

extern struct ipt_table nb_filter, nb_mangle, nb_nat;

/* ---- qdisc ---- */

struct Qdisc;

struct Qdisc_ops {
	const char *id;
	int (*enqueue)(struct sk_buff *skb, struct Qdisc *sch,
		       struct sk_buff **to_free);
	struct sk_buff *(*dequeue)(struct Qdisc *sch);
	int (*init)(struct Qdisc *sch);
};

#define TCQ_F_CAN_BYPASS 0x4u  /* work-conserving: an idle empty queue may be skipped */

/* eth0's root queue (sch_generic's part; the discipline's own data is
 * priv). */
struct Qdisc {
	const struct Qdisc_ops *ops;
	void *priv;
	uint32_t flags;            /* TCQ_F_* */
	uint32_t limit;            /* packets */
	uint32_t qlen;
	struct sk_buff *gso_skb;   /* taken back from the driver */
	uint8_t running;           /* a CPU runs the queue (qdisc_run_begin) */
	struct { uint64_t bytes, packets; } bstats;
	struct { uint64_t backlog, drops, requeues, overlimits; } qstats;
	uint64_t bypass, contended;
};

extern struct Qdisc nb_qdisc;

/* ---- statistics the harness prints ---- */

struct nb_stats {
	uint64_t rx, rx_bytes, tx, tx_bytes, fwd, fwd_bytes;
	uint64_t drop_l2, drop_ip, drop_csum, drop_route, drop_filter,
		drop_ct, drop_neigh, drop_qdisc, drop_ttl, drop_mtu, drop_other;
	uint64_t local_in, icmp_sent, arp_rx, arp_tx, lcp, punt_v6, punt_other;
	uint64_t app_ok, app_bad, alg_rewrites;
	uint64_t backlog[2];
	uint64_t proto_seen[16];
};

extern struct nb_stats nb_stats;

/* ---- entry points of the fast path, called by the harness ---- */

/* The CPU takes an interrupt (the exception vector, __irq_svc): it handles
 * what the interrupt controller has pending for it, then the softirqs the
 * handlers raised (NAPI polls, timers). */
void fp_irq_entry(unsigned cpu);
/* Control plane at boot: memory, allocators, interrupts, timers, softirqs
 * (nb_config calls it first). */
void fp_kernel_init(void);
/* Driver open: posts empty buffers on the receive ring, enables the
 * device's interrupts. */
void fp_rx_open(void);

#endif
