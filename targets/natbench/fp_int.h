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
int page_frag_alloc(void);
void page_frag_init(void);
struct sk_buff *build_skb(unsigned idx, uint32_t off, uint32_t len);
struct sk_buff *skb_of_buf(unsigned idx);
uint8_t *skb_push(struct sk_buff *skb, unsigned len);
uint8_t *skb_pull(struct sk_buff *skb, unsigned len);
uint8_t *skb_put(struct sk_buff *skb, unsigned len);
int pskb_may_pull(const struct sk_buff *skb, unsigned len);
void skb_trim(struct sk_buff *skb, unsigned len);
struct sk_buff *skb_alloc_local(void);
void kfree_skb(struct sk_buff *skb);
void kfree_skb_reason(struct sk_buff *skb, unsigned reason);
void consume_skb(struct sk_buff *skb);

/* fp_stats.c */
void dev_sw_netstats_rx_add(unsigned nd, unsigned cpu, unsigned len);
void dev_sw_netstats_tx_add(unsigned nd, unsigned cpu, unsigned len);
void ip_inc_stats(unsigned cpu, unsigned field);
void ip_upd_po_stats(unsigned cpu, unsigned field, unsigned len);
void icmp_out_count(unsigned cpu, unsigned type, int out);
uint64_t ip_mib_read(unsigned field);

/* fp_vlan.c */
void vlan_dev_xmit(struct sk_buff *skb, unsigned nd);
int vlan_do_receive(struct sk_buff *skb);
void netdev_init(void);

/* fp_bridge.c */
int br_handle_frame(struct sk_buff *skb);
void br_dev_xmit(struct sk_buff *skb);
void br_fdb_cleanup(void);
void br_init(void);

/* fp_pppoe.c */
void pppoe_rcv(struct sk_buff *skb);
void ppp_xmit(struct sk_buff *skb, uint16_t proto);
void pppoe_init(void);

/* fp_xmit.c: skb->data at a frame for device nd (ND_*) */
void dev_xmit(struct sk_buff *skb, unsigned nd);
unsigned l3_dev(unsigned ifidx);
void netdev_tx_completed(unsigned pkts, unsigned bytes);
int sch_direct_xmit(struct sk_buff *skb);
void xmit_init(void);

/* fp_sock.c */
int ip_early_demux(struct sk_buff *skb);
void sock_init(void);

/* fp_dma.c */
void dma_map_single(const void *p, size_t len, int dir);
void dma_unmap_single(const void *p, size_t len, int dir);
void dma_flush(const void *p, size_t len);

/* fp_rx.c: the receive side of the driver */
uint32_t nic_read32(unsigned reg);
void nic_write32(unsigned reg, uint32_t v);
void netif_receive_skb(struct sk_buff *skb);

/* fp_eth.c */
void netif_receive_skb_core(struct sk_buff *skb);
void deliver_ptype(struct sk_buff *skb);
/* Pushes an Ethernet header from device nd to dst; 0 or -1. */
int eth_header(struct sk_buff *skb, unsigned nd, const uint8_t *dst,
	       uint16_t proto);

/* fp_dissect.c */
uint32_t skb_get_hash(struct sk_buff *skb);

/* fp_ip.c */
void ip_rcv(struct sk_buff *skb);
void ip_local_out(struct sk_buff *skb);
int ip_options_compile(const uint8_t *iph, unsigned ihl, uint32_t *flags);

/* fp_route.c */
int fib_lookup(struct fib_result *res, uint32_t dst);
unsigned inet_addr_type(uint32_t addr);
int ip_route_input(struct sk_buff *skb, uint32_t dst, uint32_t src);
int ip_route_output(struct sk_buff *skb, uint32_t dst);
int fib_insert(uint32_t prefix, unsigned plen, unsigned type, unsigned oif,
	       uint32_t gw, uint32_t prefsrc);

/* fp_neigh.c */
void neigh_output(struct sk_buff *skb);
void arp_rcv(struct sk_buff *skb);
void neigh_periodic(void);
int neigh_add_permanent(uint32_t ip, unsigned ifidx, const uint8_t *mac);

/* fp_icmp.c */
void icmp_send(struct sk_buff *skb_in, unsigned type, unsigned code,
	       uint32_t info);
void icmp_rcv(struct sk_buff *skb);

/* fp_ct.c */
unsigned nf_conntrack_in(void *priv, struct sk_buff *skb,
			 const struct nf_hook_state *st);
unsigned nf_conntrack_confirm(void *priv, struct sk_buff *skb,
			      const struct nf_hook_state *st);
struct nf_conn *nf_ct_find(const struct nf_tuple *t, unsigned *dir);
int nf_ct_tuple_taken(const struct nf_tuple *t, const struct nf_conn *ignore);
void nf_ct_refresh(struct nf_conn *ct, uint32_t timeout);
void nf_ct_gc_step(void);
int nf_ct_get_tuple(struct nf_tuple *t, const uint8_t *iph, uint32_t len,
		    int inner);
void nf_ct_invert_tuple(struct nf_tuple *inv, const struct nf_tuple *t);
void nf_ct_put_unconfirmed(struct nf_conn *ct);
void nf_ct_init(uint32_t seed);

/* fp_ct_proto.c */
int nf_ct_l4_new(struct nf_conn *ct, const uint8_t *iph, const uint8_t *l4,
		 uint32_t l4len);
int nf_ct_l4_packet(struct nf_conn *ct, struct sk_buff *skb,
		    const uint8_t *iph, const uint8_t *l4, uint32_t l4len,
		    unsigned dir);
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
unsigned nf_ct_helper_hook(void *priv, struct sk_buff *skb,
			   const struct nf_hook_state *st);

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

/* fp_qdisc.c: the pfifo of eth0 */
int qdisc_enqueue(struct sk_buff *skb);
struct sk_buff *qdisc_dequeue(void);
void qdisc_requeue(struct sk_buff *skb);
int qdisc_empty(void);
void qdisc_run(void);
void dev_queue_xmit(struct sk_buff *skb);

/* fp_tx.c */
int bgmac_start_xmit(struct sk_buff *skb);
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
