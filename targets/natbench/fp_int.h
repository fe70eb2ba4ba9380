/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Functions the fast-path files call across translation units, and the
 * matches and targets the rule set (config.c) refers to. Declarations only:
 * the harness may include this file.
 */
#ifndef FP_INT_H
#define FP_INT_H

#include <stddef.h>
#include <stdint.h>

#include "nb.h"
#include "nb_xt.h"

/* Ethernet and encapsulation constants. */
#define ETH_HLEN 14u
#define VLAN_HLEN 4u
#define PPPOE_SES_HLEN 8u
#define ETH_P_IP 0x0800u
#define ETH_P_ARP 0x0806u
#define ETH_P_8021Q 0x8100u
#define ETH_P_8021AD 0x88a8u
#define ETH_P_PPP_DISC 0x8863u
#define ETH_P_PPP_SES 0x8864u
#define ETH_P_IPV6 0x86ddu
#define ETH_P_LLDP 0x88ccu
#define ETH_P_MPLS_UC 0x8847u
#define ETH_P_MPLS_MC 0x8848u
#define ETH_P_FCOE 0x8906u
#define ETH_P_TIPC 0x88cau
#define ETH_P_BATMAN 0x4305u
#define ETH_P_1588 0x88f7u
#define ETH_P_EAPOL 0x888eu
#define ETH_P_LOOP 0x9000u
#define PPP_IP 0x0021u
#define PPP_IPV6 0x0057u
#define PPP_LCP 0xc021u

#define IPPROTO_ICMP 1u
#define IPPROTO_IGMP 2u
#define IPPROTO_IPIP 4u
#define IPPROTO_TCP 6u
#define IPPROTO_UDP 17u
#define IPPROTO_IPV6 41u
#define IPPROTO_GRE 47u
#define IPPROTO_ESP 50u
#define IPPROTO_AH 51u
#define IPPROTO_SCTP 132u
#define IPPROTO_UDPLITE 136u
#define IPPROTO_DCCP 33u
#define IPPROTO_L2TP 115u

#define IP_DF 0x4000u
#define IP_MF 0x2000u
#define IP_OFFSET 0x1fffu

#define TCPF_FIN 0x01u
#define TCPF_SYN 0x02u
#define TCPF_RST 0x04u
#define TCPF_PSH 0x08u
#define TCPF_ACK 0x10u
#define TCPF_URG 0x20u
#define TCPF_ECE 0x40u
#define TCPF_CWR 0x80u

#define ICMP_ECHOREPLY 0u
#define ICMP_DEST_UNREACH 3u
#define ICMP_REDIRECT 5u
#define ICMP_ECHO 8u
#define ICMP_TIME_EXCEEDED 11u
#define ICMP_PARAMETERPROB 12u
#define ICMP_NET_UNREACH 0u
#define ICMP_HOST_UNREACH 1u
#define ICMP_PORT_UNREACH 3u
#define ICMP_FRAG_NEEDED 4u
#define ICMP_PKT_FILTERED 13u

enum { DMA_BIDIRECTIONAL, DMA_TO_DEVICE, DMA_FROM_DEVICE };

/* Drop reasons (a few of the kernel's), counted by kfree_skb_reason. */
enum { SKB_DROP_NOT_SPECIFIED, SKB_DROP_NO_SOCKET, SKB_DROP_OTHERHOST,
	SKB_DROP_IP_CSUM, SKB_DROP_IP_INHDR, SKB_DROP_IP_NOROUTE,
	SKB_DROP_NETFILTER, SKB_DROP_NEIGH, SKB_DROP_QDISC, SKB_DROP_TTL,
	SKB_DROP_MTU, SKB_DROP_VLAN, SKB_DROP_BRIDGE, SKB_DROP_PPP,
	SKB_DROP_MAX };

/* IP MIB fields; an *_PKTS field is followed by its octets. */
enum { IPSTATS_MIB_IN_PKTS, IPSTATS_MIB_IN_OCTETS, IPSTATS_MIB_OUT_PKTS,
	IPSTATS_MIB_OUT_OCTETS, IPSTATS_MIB_FORW_PKTS, IPSTATS_MIB_FORW_OCTETS,
	IPSTATS_MIB_INHDRERRORS, IPSTATS_MIB_INADDRERRORS,
	IPSTATS_MIB_INNOROUTES, IPSTATS_MIB_INDELIVERS, IPSTATS_MIB_INDISCARDS,
	IPSTATS_MIB_OUTDISCARDS, IPSTATS_MIB_FRAGFAILS, IPSTATS_MIB_CSUMERRORS,
	IPSTATS_MIB_MAX };

/* fp_skb.c */
void *netdev_alloc_frag(unsigned fragsz);
struct sk_buff *build_skb(void *data, unsigned frag_size);
struct sk_buff *alloc_skb(unsigned size);
/* size bytes of payload at skb->data, room for link headers in front */
struct sk_buff *skb_alloc_local(unsigned size);
struct sk_buff *skb_clone(struct sk_buff *skb);
int pskb_expand_head(struct sk_buff *skb, unsigned nhead, unsigned ntail);
int skb_cow_head(struct sk_buff *skb, unsigned headroom);
int skb_ensure_writable(struct sk_buff *skb, unsigned write_len);
uint8_t *skb_pull_rcsum(struct sk_buff *skb, unsigned len);
int skb_vlan_untag(struct sk_buff *skb);
uint8_t *skb_push(struct sk_buff *skb, unsigned len);
uint8_t *skb_pull(struct sk_buff *skb, unsigned len);
uint8_t *skb_put(struct sk_buff *skb, unsigned len);
int pskb_may_pull(const struct sk_buff *skb, unsigned len);

/* len bytes at offset from skb->data: in the linear data, or NULL (a
 * fragmented sk_buff would be copied into buffer; these are linear). */
static inline const uint8_t *skb_header_pointer(const struct sk_buff *skb,
						unsigned offset, unsigned len,
						void *buffer)
{
	(void)buffer;
	if (offset + len > skb->len)
		return NULL;
	return skb->data + offset;
}
void skb_trim(struct sk_buff *skb, unsigned len);
int pskb_trim_rcsum(struct sk_buff *skb, unsigned len);
void kfree_skb(struct sk_buff *skb);
void kfree_skb_reason(struct sk_buff *skb, unsigned reason);
void consume_skb(struct sk_buff *skb);
void skb_init(void);

/* fp_stats.c */
void dev_sw_netstats_rx_add(unsigned nd, unsigned cpu, unsigned len);
void dev_sw_netstats_tx_add(unsigned nd, unsigned cpu, unsigned len);
void ip_inc_stats(unsigned cpu, unsigned field);
void ip_upd_po_stats(unsigned cpu, unsigned field, unsigned len);
void icmp_out_count(unsigned cpu, unsigned type, int out);
uint64_t ip_mib_read(unsigned field);

/* fp_vlan.c */
int vlan_dev_hard_start_xmit(struct sk_buff *skb, unsigned nd);
int vlan_do_receive(struct sk_buff *skb);
void netdev_init(void);

/* fp_bridge.c */
int br_handle_frame(struct sk_buff *skb);
int br_dev_xmit(struct sk_buff *skb, unsigned nd);
void br_init(void);

/* fp_pppoe.c */
void pppoe_rcv(struct sk_buff *skb);
void ppp_xmit(struct sk_buff *skb, uint16_t proto);
int ppp_start_xmit(struct sk_buff *skb, unsigned nd);
void pppoe_init(void);

/* fp_xmit.c: skb->data at a frame for device skb->ldev / nd (ND_*) */
#define NETDEV_TX_OK 0
#define NETDEV_TX_BUSY 0x10
#define NET_XMIT_SUCCESS 0
#define NET_XMIT_DROP 1
#define NET_XMIT_CN 2
void dev_queue_xmit(struct sk_buff *skb);
void dev_xmit(struct sk_buff *skb, unsigned nd);
unsigned l3_dev(unsigned ifidx);
void netdev_tx_sent_queue(unsigned bytes);
void netdev_tx_completed(unsigned pkts, unsigned bytes);
struct sk_buff *validate_xmit_skb_list(struct sk_buff *skb, unsigned nd);
int dev_hard_start_xmit(struct sk_buff *skb, unsigned nd,
			struct sk_buff **rest);
void xmit_init(void);

/* fp_sock.c */
int ip_early_demux(struct sk_buff *skb);
void sock_init(void);

/* fp_dma.c: bus addresses in and out, as the DMA API's dma_addr_t */
uint32_t dma_map_single(const void *p, size_t len, int dir);
void dma_unmap_single(uint32_t addr, size_t len, int dir);
void dma_sync_single_for_cpu(uint32_t addr, size_t len, int dir);
void dma_flush(const void *p, size_t len);
void dma_cache_init(void);

/* fp_bcma.c: a register of the Ethernet core */
uint32_t bcma_read32(unsigned offset);
void bcma_write32(unsigned offset, uint32_t v);
void bcma_init(void);

/* fp_rx.c: the receive side of the driver */
uint32_t nic_read32(unsigned reg);
void nic_write32(unsigned reg, uint32_t v);

/* fp_eth.c */
void netif_receive_skb_core(struct sk_buff *skb);
void __netif_receive_skb_core(struct sk_buff *skb);
void ptype_init(void);
void deliver_ptype(struct sk_buff *skb);
/* Pushes an Ethernet header from device nd to dst; 0 or -1. */
int eth_header(struct sk_buff *skb, unsigned nd, const uint8_t *dst,
	       uint16_t proto);

/* fp_siphash.c */
struct siphash_key {
	uint64_t key[2];
};
uint64_t siphash(const void *data, size_t len, const struct siphash_key *key);

/* fp_csum.c */
uint32_t skb_checksum(const struct sk_buff *skb, uint32_t offset,
		      uint32_t len, uint32_t csum);
uint16_t __skb_checksum_complete(struct sk_buff *skb);
uint32_t csum_tcpudp_nofold(uint32_t saddr, uint32_t daddr, uint32_t len,
			    unsigned proto, uint32_t sum);
void inet_proto_csum_replace4(uint8_t *sum, struct sk_buff *skb,
			      uint32_t from, uint32_t to, int pseudohdr);
void inet_proto_csum_replace2(uint8_t *sum, struct sk_buff *skb,
			      uint16_t from, uint16_t to, int pseudohdr);

/* fp_nf_utils.c: 0 if the TCP/UDP (or other L4) checksum of the packet
 * at skb->data, L4 at dataoff, is right; verified once (CHECKSUM_*). */
uint16_t nf_checksum(struct sk_buff *skb, unsigned hook, unsigned dataoff,
		     unsigned protocol);

/* fp_dissect.c */
void __skb_get_hash(struct sk_buff *skb);

/* The packet's flow hash, computed once. */
static inline uint32_t skb_get_hash(struct sk_buff *skb)
{
	if (!skb->l4_hash && !skb->sw_hash)
		__skb_get_hash(skb);
	return skb->hash;
}
void flow_dissector_init(void);

/* fp_ip.c */
void ip_rcv(struct sk_buff *skb);
void ip_forward(struct sk_buff *skb);
void ip_local_deliver(struct sk_buff *skb);
void ip_error(struct sk_buff *skb);
void ip_output(struct sk_buff *skb);
void ip_local_out(struct sk_buff *skb);
int ip_options_compile(const uint8_t *iph, unsigned ihl, uint32_t *flags);

/* fp_route.c: routes (struct dst_entry and rtable in one) */
struct rtable {
	void (*input)(struct sk_buff *skb);   /* dst_input */
	void (*output)(struct sk_buff *skb);  /* dst_output */
	uint8_t dev;             /* IF_* it leaves by */
	uint8_t rt_type;
	uint8_t rt_uses_gateway;
	uint8_t rt_is_input;
	uint8_t cached;          /* kept by its route (else freed with refcnt) */
	int8_t error;            /* ip_error: why there is no route */
	uint16_t mtu;
	uint32_t rt_gw4;
	uint32_t rt_genid;
	int32_t refcnt;
	uint32_t lastuse;
	uint64_t use;
};

int fib_lookup(struct fib_result *res, uint32_t dst);
int fib_table_lookup(struct fib_table *tb, uint32_t key,
		     struct fib_result *res);
void fib_trie_init(void);
void rt_cache_flush(void);
unsigned inet_addr_type(uint32_t addr);
/* 0 with skb->dst set (skb->odev, skb->nexthop too), or -1: martian */
int ip_route_input_noref(struct sk_buff *skb, uint32_t daddr, uint32_t saddr);
int ip_route_output(struct sk_buff *skb, uint32_t dst);
void dst_release(struct rtable *rt);
void route_init(void);

static inline void skb_dst_drop(struct sk_buff *skb)
{
	if (skb->dst && skb->dst_ref)
		dst_release(skb->dst);
	skb->dst = NULL;
	skb->dst_ref = 0;
}
int fib_insert(uint32_t prefix, unsigned plen, unsigned type, unsigned oif,
	       uint32_t gw, uint32_t prefsrc);

/* fp_neigh.c */
void neigh_output(struct sk_buff *skb);
void arp_rcv(struct sk_buff *skb);
void neigh_init(uint32_t rnd);
int neigh_add_permanent(uint32_t ip, unsigned ifidx, const uint8_t *mac);

/* fp_icmp.c */
void icmp_send(struct sk_buff *skb_in, unsigned type, unsigned code,
	       uint32_t info);
void icmp_rcv(struct sk_buff *skb);

/* fp_ct.c: connection extensions, in one area after a table of offsets
 * (0: not there) */
enum { NF_CT_EXT_HELPER, NF_CT_EXT_NAT, NF_CT_EXT_ACCT, NF_CT_EXT_NUM };

struct nf_ct_ext {
	uint8_t offset[NF_CT_EXT_NUM];
	uint8_t len;             /* bytes in use, this header included */
	uint32_t align[1];       /* the extensions follow, 8-byte aligned */
};

struct nf_conn_acct {
	struct {
		uint64_t packets, bytes;
	} counter[2];
};

struct nf_conn_help {
	uint8_t app;             /* application id + 1 (a helper), 0 none */
	uint8_t cls;             /* QoS class its messages asked for */
	uint32_t app_key, app_msgs, app_bad;
	struct app_track at;
};

struct nf_conn_nat {
	uint8_t masq_index;      /* uplink of a masquerade binding */
};

static inline void *nf_ct_ext_find(const struct nf_conn *ct, unsigned id)
{
	if (!ct->ext || !ct->ext->offset[id])
		return NULL;
	return (uint8_t *)ct->ext + ct->ext->offset[id];
}

void *nf_ct_ext_add(struct nf_conn *ct, unsigned id);

unsigned nf_conntrack_in(void *priv, struct sk_buff *skb,
			 const struct nf_hook_state *st);
unsigned nf_conntrack_confirm(void *priv, struct sk_buff *skb,
			      const struct nf_hook_state *st);
unsigned nf_confirm(void *priv, struct sk_buff *skb,
		    const struct nf_hook_state *st);
unsigned ipv4_conntrack_defrag(void *priv, struct sk_buff *skb,
			       const struct nf_hook_state *st);
struct nf_conn *nf_ct_find(const struct nf_tuple *t, unsigned *dir);
int nf_ct_tuple_taken(const struct nf_tuple *t, const struct nf_conn *ignore);
void nf_ct_refresh(struct nf_conn *ct, uint32_t timeout);
int nf_ct_get_tuple(struct nf_tuple *t, const uint8_t *iph, uint32_t len,
		    int inner);
void nf_ct_invert_tuple(struct nf_tuple *inv, const struct nf_tuple *t);
void nf_ct_put(struct nf_conn *ct);
void nf_ct_kill(struct nf_conn *ct);

static inline void nf_conntrack_get(struct nf_conn *ct)
{
	ct->use++;
}
void nf_ct_init(uint32_t seed);

/* fp_ct_proto.c */
int nf_ct_l4_new(struct nf_conn *ct, const uint8_t *iph, const uint8_t *l4,
		 uint32_t l4len);
int nf_ct_l4_packet(struct nf_conn *ct, struct sk_buff *skb,
		    const uint8_t *iph, const uint8_t *l4, uint32_t l4len,
		    unsigned dir, unsigned hook);
int nf_ct_icmp_error(struct sk_buff *skb, const uint8_t *iph,
		     const uint8_t *l4, uint32_t l4len);

/* fp_nat.c */
unsigned nf_nat_ipv4_pre(void *priv, struct sk_buff *skb,
			 const struct nf_hook_state *st);
unsigned nf_nat_ipv4_post(void *priv, struct sk_buff *skb,
			  const struct nf_hook_state *st);
unsigned nf_nat_ipv4_local(void *priv, struct sk_buff *skb,
			   const struct nf_hook_state *st);
unsigned nf_nat_setup_info(struct nf_conn *ct,
			   const struct nf_nat_range *range, int src);
void nf_nat_alg_rewrite(struct sk_buff *skb, struct nf_conn *ct,
			uint32_t payload_off);

/* fp_helper.c */
unsigned nf_ct_helper(struct sk_buff *skb, struct nf_conn *ct);

/* fp_nf.c */
unsigned nf_hook(unsigned hook, struct sk_buff *skb, unsigned in,
		 unsigned out);
unsigned ipt_do_table(struct ipt_table *t, struct sk_buff *skb,
		      const struct nf_hook_state *st);
unsigned iptable_filter_hook(void *priv, struct sk_buff *skb,
			     const struct nf_hook_state *st);
unsigned iptable_mangle_hook(void *priv, struct sk_buff *skb,
			     const struct nf_hook_state *st);

/* fp_xt_match.c */
int xt_tcp_mt(const struct xt_match_ctx *c, const void *info);
int xt_udp_mt(const struct xt_match_ctx *c, const void *info);
int xt_icmp_mt(const struct xt_match_ctx *c, const void *info);
int xt_multiport_mt(const struct xt_match_ctx *c, const void *info);
int xt_iprange_mt(const struct xt_match_ctx *c, const void *info);
int xt_conntrack_mt(const struct xt_match_ctx *c, const void *info);
int xt_mark_mt(const struct xt_match_ctx *c, const void *info);
int xt_connmark_mt(const struct xt_match_ctx *c, const void *info);
int xt_length_mt(const struct xt_match_ctx *c, const void *info);
int xt_dscp_mt(const struct xt_match_ctx *c, const void *info);
int xt_tos_mt(const struct xt_match_ctx *c, const void *info);
int xt_ttl_mt(const struct xt_match_ctx *c, const void *info);
int xt_limit_mt(const struct xt_match_ctx *c, const void *info);
int xt_connbytes_mt(const struct xt_match_ctx *c, const void *info);
int xt_string_mt(const struct xt_match_ctx *c, const void *info);
int xt_u32_mt(const struct xt_match_ctx *c, const void *info);
int xt_addrtype_mt(const struct xt_match_ctx *c, const void *info);
int xt_pkttype_mt(const struct xt_match_ctx *c, const void *info);
int xt_helper_mt(const struct xt_match_ctx *c, const void *info);
int xt_tcpmss_mt(const struct xt_match_ctx *c, const void *info);
int xt_ecn_mt(const struct xt_match_ctx *c, const void *info);

/* fp_xt_target.c */
int xt_mark_tg(struct xt_target_ctx *c, const void *info);
int xt_connmark_tg(struct xt_target_ctx *c, const void *info);
int xt_dscp_tg(struct xt_target_ctx *c, const void *info);
int xt_tos_tg(struct xt_target_ctx *c, const void *info);
int xt_classify_tg(struct xt_target_ctx *c, const void *info);
int xt_tcpmss_tg(struct xt_target_ctx *c, const void *info);
int xt_log_tg(struct xt_target_ctx *c, const void *info);
int xt_reject_tg(struct xt_target_ctx *c, const void *info);
int xt_masquerade_tg(struct xt_target_ctx *c, const void *info);
int xt_dnat_tg(struct xt_target_ctx *c, const void *info);
int xt_snat_tg(struct xt_target_ctx *c, const void *info);
int xt_ttl_tg(struct xt_target_ctx *c, const void *info);

/* fp_qdisc.c: eth0's root queue; fp_sch_fq_codel.c: its discipline */
void qdisc_run(void);
void __dev_xmit_skb(struct sk_buff *skb, unsigned nd);
void dev_activate(unsigned nd);
extern const struct Qdisc_ops fq_codel_qdisc_ops;

/* fp_time.c */
uint64_t ktime_get_ns(void);

/* fp_tx.c */
int bgmac_start_xmit(struct sk_buff *skb, unsigned nd);
void bgmac_tx_reclaim(void);

/* fp_app*.c (generated) */
extern const struct app_ops fp_apps[];
extern const unsigned fp_napps;
unsigned fp_app_lookup(unsigned proto, unsigned port);

/* Log ring written by the LOG target, read by nobody (as on a router
 * whose syslog is off). */
#define NB_LOG_SIZE 4096u
extern char nb_log[NB_LOG_SIZE];
extern uint32_t nb_log_pos;

/* fp_plant.c: only with -DNB_PLANT_PAD=N (tuner layout's planted effect).
 * The hook takes a line of its own that was blank before, so that the
 * other builds keep their line tables, byte for byte. */
#ifdef NB_PLANT_PAD
void nb_plant_run(const struct sk_buff *skb);
uint32_t nb_plant_mix(uint32_t h, uint32_t v);
extern uint32_t nb_plant_sum;
#define NB_PLANT_RUN(skb) nb_plant_run(skb)
#else
#define NB_PLANT_RUN(skb) ((void)0)
#endif

#endif
