/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Per-protocol connection tracking: TCP (header, flag and checksum
 * checks, options, the state machine and sequence window tracking with
 * the highest acknowledgement and unacknowledged data per direction,
 * retransmissions, timeouts chosen by what is outstanding), UDP (length
 * and checksum checks, unreplied and stream timeouts), ICMP (queries and
 * errors related to a connection) and a generic tracker for everything
 * else (GRE, ESP, ...). Checksums are verified where packets arrive
 * (PRE_ROUTING), as nf_conntrack_checksum asks.
 */
#include "fp_int.h"
#include "fp_util.h"

/* Timeouts in jiffies of the model (one jiffy per poll). */
static const uint32_t tcp_timeouts[TCP_CONNTRACK_MAX] = {
	[TCP_CONNTRACK_NONE] = 0,
	[TCP_CONNTRACK_SYN_SENT] = 120,
	[TCP_CONNTRACK_SYN_RECV] = 60,
	[TCP_CONNTRACK_ESTABLISHED] = 3000,
	[TCP_CONNTRACK_FIN_WAIT] = 120,
	[TCP_CONNTRACK_CLOSE_WAIT] = 60,
	[TCP_CONNTRACK_LAST_ACK] = 30,
	[TCP_CONNTRACK_TIME_WAIT] = 120,
	[TCP_CONNTRACK_CLOSE] = 10,
};
#define TCP_UNACKED_TIMEOUT 300u
#define TCP_RETRANS_TIMEOUT 300u
#define TCP_MAX_RETRANS 3u
#define UDP_TIMEOUT 30u
#define UDP_STREAM_TIMEOUT 180u
#define ICMP_TIMEOUT 30u
#define GENERIC_TIMEOUT 600u

#define TF_FIN_SEEN 0x1u
#define TF_WINDOW_SCALE 0x2u
#define TF_SACK_PERM 0x4u
#define TF_MAXACK_SET 0x8u
#define TF_CLOSE_INIT 0x10u    /* this side began the close */
#define TF_DATA_UNACK 0x20u    /* sent data the other has not acked */

static uint64_t invalid_short, invalid_csum, invalid_flags, invalid_window,
	invalid_state;

enum { TCP_SYN_SET, TCP_SYNACK_SET, TCP_FIN_SET, TCP_ACK_SET, TCP_RST_SET,
	TCP_NONE_SET };

static inline int before(uint32_t a, uint32_t b)
{
	return (int32_t)(a - b) < 0;
}

static inline int after(uint32_t a, uint32_t b)
{
	return before(b, a);
}

/* Flag combinations a sane stack never sends. */
static int tcp_flags_valid(unsigned f)
{
	f &= ~(TCPF_ECE | TCPF_CWR | TCPF_PSH);
	switch (f) {
	case TCPF_SYN:
	case TCPF_SYN | TCPF_URG:
	case TCPF_SYN | TCPF_ACK:
	case TCPF_RST:
	case TCPF_RST | TCPF_ACK:
	case TCPF_FIN | TCPF_ACK:
	case TCPF_FIN | TCPF_ACK | TCPF_URG:
	case TCPF_ACK:
	case TCPF_ACK | TCPF_URG:
		return 1;
	default:
		return 0;
	}
}

static unsigned tcp_pkt_index(unsigned f)
{
	if (f & TCPF_RST)
		return TCP_RST_SET;
	if (f & TCPF_SYN)
		return f & TCPF_ACK ? TCP_SYNACK_SET : TCP_SYN_SET;
	if (f & TCPF_FIN)
		return TCP_FIN_SET;
	if (f & TCPF_ACK)
		return TCP_ACK_SET;
	return TCP_NONE_SET;
}

/* Window scale and SACK permission from a SYN's options. */
static void tcp_options(const uint8_t *th, unsigned doff, struct tcp_seen *s)
{
	const uint8_t *p = th + 20;
	unsigned len = doff - 20, i = 0;

	s->td_scale = 0;
	s->flags &= (uint8_t)~(TF_WINDOW_SCALE | TF_SACK_PERM);
	while (i < len) {
		unsigned kind = p[i], olen;

		if (kind == 0)
			break;
		if (kind == 1) {
			i++;
			continue;
		}
		if (i + 1 >= len)
			break;
		olen = p[i + 1];
		if (olen < 2 || i + olen > len)
			break;
		switch (kind) {
		case 3:  /* window scale */
			if (olen == 3) {
				s->td_scale = p[i + 2] > 14 ? 14 : p[i + 2];
				s->flags |= TF_WINDOW_SCALE;
			}
			break;
		case 4:  /* SACK permitted */
			if (olen == 2)
				s->flags |= TF_SACK_PERM;
			break;
		default:
			break;
		}
		i += olen;
	}
}

/* The highest right edge of the SACK blocks in the options, or ack. The
 * common case, timestamps alone in the aligned layout, is recognised
 * without walking. */
static uint32_t tcp_sack(const uint8_t *th, unsigned doff, uint32_t ack)
{
	const uint8_t *p = th + 20;
	unsigned len = doff - 20, i = 0;
	uint32_t sack = ack;

	if (len == 12 && p[0] == 1 && p[1] == 1 && p[2] == 8 && p[3] == 10)
		return ack;
	while (i < len) {
		unsigned kind = p[i], olen, k;

		if (kind == 0)
			break;
		if (kind == 1) {
			i++;
			continue;
		}
		if (i + 1 >= len)
			break;
		olen = p[i + 1];
		if (olen < 2 || i + olen > len)
			break;
		if (kind == 5 && olen >= 10 && (olen - 2) % 8 == 0) {
			for (k = i + 2; k + 8 <= i + olen; k += 8) {
				uint32_t edge = rd32(p + k + 4);

				if ((int32_t)(edge - sack) > 0)
					sack = edge;
			}
		}
		i += olen;
	}
	return sack;
}

/* The largest acknowledgement window a sender's peer may be behind. */
static uint32_t max_ack_window(const struct tcp_seen *snd)
{
	return snd->td_maxwin > 66000 ? snd->td_maxwin : 66000;
}

/* The sequence checks of the window tracker; 0 if in window. */
static int tcp_in_window(struct nf_conn *ct, unsigned dir, const uint8_t *th,
			 uint32_t l4len)
{
	struct tcp_seen *snd = &ct->seen[dir], *rcv = &ct->seen[!dir];
	unsigned doff = (th[12] >> 4) * 4u, f = th[13];
	uint32_t seq = rd32(th + 4), ack = rd32(th + 8);
	uint32_t win = rd16(th + 14), end, sack;
	int in;

	end = seq + (l4len - doff);
	if (f & TCPF_SYN)
		end++;
	if (f & TCPF_FIN)
		end++;
	if (snd->td_maxwin == 0 || f & TCPF_SYN) {
		/* This side's first segment (a SYN, or the SYN-ACK), or a
		 * SYN again: (re)start its window. */
		tcp_options(th, doff, snd);
		snd->td_end = end;
		snd->td_maxwin = win ? win : 1;
		snd->td_maxend = end + snd->td_maxwin;
		if (!(f & TCPF_ACK))
			return 0;  /* a SYN: nothing to check yet */
		/* Both ends must agree on scaling, else none is used. */
		if (!(snd->flags & rcv->flags & TF_WINDOW_SCALE))
			snd->td_scale = rcv->td_scale = 0;
	} else {
		/* Windows in SYNs are never scaled. */
		win <<= snd->td_scale;
	}
	if (!(f & TCPF_ACK)) {
		/* No acknowledgement: take the peer's end as acked. */
		ack = sack = rcv->td_end;
	} else if ((f & (TCPF_ACK | TCPF_RST)) == (TCPF_ACK | TCPF_RST) &&
		   ack == 0) {
		/* Broken stacks: a reset with the ACK flag and no ack. */
		ack = sack = rcv->td_end;
	} else if (snd->flags & TF_SACK_PERM && doff > 20) {
		sack = tcp_sack(th, doff, ack);
	} else {
		sack = ack;
	}
	if (f & TCPF_RST && seq == 0 && ct->state == TCP_CONNTRACK_SYN_SENT)
		seq = end = snd->td_end;  /* a reset answering our SYN */
	if (seq == end && (!(f & TCPF_RST) ||
			   (seq == 0 && ct->state == TCP_CONNTRACK_SYN_SENT)))
		/* No data: only the acknowledgement can be checked (it may
		 * as well be an old segment sent again). */
		seq = end = snd->td_end;
	/* Not older than a window, not beyond what the peer allowed, and
	 * acknowledging only what the peer sent, recently. */
	in = !before(end, snd->td_end - rcv->td_maxwin) &&
	     before(seq, snd->td_maxend + 1) &&
	     !after(sack, rcv->td_end) &&
	     !before(sack, rcv->td_end - max_ack_window(snd));
	if (!in && !(f & TCPF_RST)) {
		invalid_window++;
		return -1;
	}
	/* The highest acknowledgement this side ever sent. */
	if (f & TCPF_ACK) {
		if (!(snd->flags & TF_MAXACK_SET)) {
			snd->td_maxack = ack;
			snd->flags |= TF_MAXACK_SET;
		} else if (after(ack, snd->td_maxack)) {
			snd->td_maxack = ack;
		}
	}
	/* Update the sender's side. */
	if (snd->td_maxwin < win)
		snd->td_maxwin = win;
	if (after(end, snd->td_end)) {
		snd->td_end = end;
		snd->flags |= TF_DATA_UNACK;
	}
	/* Everything the peer sent is acknowledged. */
	if (f & TCPF_ACK && ack == rcv->td_end)
		rcv->flags &= (uint8_t)~TF_DATA_UNACK;
	/* Update the receiver's side: what it may now send. */
	if (rcv->td_maxwin != 0 && after(end, snd->td_maxend))
		rcv->td_maxwin += end - snd->td_maxend;
	if (f & TCPF_ACK && after(sack + win, rcv->td_maxend - 1)) {
		rcv->td_maxend = sack + win;
		if (win == 0)
			rcv->td_maxend++;
	}
	/* The same segment again, seen from the same side: a retransmission
	 * (three in a row shorten the established timeout). */
	if (ct->last_dir == dir && ct->last_seq == seq && ct->last_ack == ack &&
	    ct->last_end == end && ct->last_win == (uint16_t)win) {
		ct->retrans++;
	} else {
		ct->last_dir = (uint8_t)dir;
		ct->last_seq = seq;
		ct->last_ack = ack;
		ct->last_end = end;
		ct->last_win = (uint16_t)win;
		ct->retrans = 0;
	}
	return 0;
}

static unsigned tcp_next_state(struct nf_conn *ct, unsigned dir,
			       unsigned idx, int *invalid)
{
	unsigned old = ct->state;
	unsigned other_fin = ct->seen[!dir].flags & TF_FIN_SEEN;

	*invalid = 0;
	switch (idx) {
	case TCP_SYN_SET:
		if (dir == CT_DIR_ORIGINAL &&
		    (old == TCP_CONNTRACK_NONE || old == TCP_CONNTRACK_SYN_SENT ||
		     old == TCP_CONNTRACK_TIME_WAIT || old == TCP_CONNTRACK_CLOSE))
			return TCP_CONNTRACK_SYN_SENT;
		if (old == TCP_CONNTRACK_NONE)
			*invalid = 1;
		return old;  /* retransmission or reopen attempt: ignored */
	case TCP_SYNACK_SET:
		if (dir == CT_DIR_REPLY && (old == TCP_CONNTRACK_SYN_SENT ||
					    old == TCP_CONNTRACK_SYN_RECV))
			return TCP_CONNTRACK_SYN_RECV;
		if (old < TCP_CONNTRACK_SYN_RECV || old == TCP_CONNTRACK_CLOSE)
			*invalid = 1;
		return old;
	case TCP_FIN_SET:
		switch (old) {
		case TCP_CONNTRACK_SYN_RECV:
		case TCP_CONNTRACK_ESTABLISHED:
			return TCP_CONNTRACK_FIN_WAIT;
		case TCP_CONNTRACK_FIN_WAIT:
		case TCP_CONNTRACK_CLOSE_WAIT:
			/* A FIN from the side that had not sent one yet. */
			return other_fin && !(ct->seen[dir].flags & TF_FIN_SEEN)
				       ? TCP_CONNTRACK_LAST_ACK : old;
		case TCP_CONNTRACK_LAST_ACK:
		case TCP_CONNTRACK_TIME_WAIT:
		case TCP_CONNTRACK_CLOSE:
			return old;
		default:
			*invalid = 1;
			return old;
		}
	case TCP_ACK_SET:
		switch (old) {
		case TCP_CONNTRACK_SYN_RECV:
			return dir == CT_DIR_ORIGINAL ? TCP_CONNTRACK_ESTABLISHED
						      : old;
		case TCP_CONNTRACK_ESTABLISHED:
		case TCP_CONNTRACK_CLOSE_WAIT:
		case TCP_CONNTRACK_TIME_WAIT:
		case TCP_CONNTRACK_CLOSE:
			return old;
		case TCP_CONNTRACK_FIN_WAIT:
			/* The other side acknowledges the FIN. */
			return other_fin ? old : TCP_CONNTRACK_CLOSE_WAIT;
		case TCP_CONNTRACK_LAST_ACK:
			return other_fin ? TCP_CONNTRACK_TIME_WAIT : old;
		default:
			*invalid = 1;
			return old;
		}
	case TCP_RST_SET:
		if (old == TCP_CONNTRACK_NONE)
			*invalid = 1;
		return TCP_CONNTRACK_CLOSE;
	default:
		*invalid = 1;
		return old;
	}
}

static int tcp_header_ok(const uint8_t *th, uint32_t l4len)
{
	unsigned doff;

	if (l4len < 20)
		return 0;
	doff = (th[12] >> 4) * 4u;
	if (doff < 20 || doff > l4len)
		return 0;
	return tcp_flags_valid(th[13]);
}

int nf_ct_l4_new(struct nf_conn *ct, const uint8_t *iph, const uint8_t *l4,
		 uint32_t l4len)
{
	unsigned type;

	switch (ct->tuple[0].proto) {
	case IPPROTO_TCP:
		/* No mid-stream pickup: a connection starts with a SYN. */
		if (!tcp_header_ok(l4, l4len) ||
		    tcp_pkt_index(l4[13]) != TCP_SYN_SET)
			return -1;
		ct->seen[0].td_end = ct->seen[0].td_maxend = 0;
		ct->seen[0].td_maxwin = ct->seen[0].td_maxack = 0;
		ct->seen[0].td_scale = ct->seen[0].flags = 0;
		ct->seen[1] = ct->seen[0];
		return 0;
	case IPPROTO_UDP:
		return l4len >= 8 ? 0 : -1;
	case IPPROTO_ICMP:
		type = l4[0];
		return type == ICMP_ECHO || type == 13 || type == 15 ||
		       type == 17 ? 0 : -1;
	default:
		return 0;
	}
}

/* tcp_error: malformed segments and bad checksums never reach the
 * state machine. dataoff: the TCP header's offset from skb->data. */
static int tcp_error(struct sk_buff *skb, const uint8_t *th, uint32_t l4len,
		     unsigned dataoff, unsigned hook)
{
	unsigned doff;

	if (unlikely(l4len < 20)) {
		invalid_short++;
		return -1;
	}
	doff = (th[12] >> 4) * 4u;
	if (unlikely(doff < 20 || doff > l4len)) {
		invalid_short++;
		return -1;
	}
	/* The checksum, where the packet arrived (once). */
	if (hook == NF_INET_PRE_ROUTING &&
	    skb->ip_summed != CHECKSUM_UNNECESSARY &&
	    nf_checksum(skb, hook, dataoff, IPPROTO_TCP)) {
		invalid_csum++;
		return -1;
	}
	if (unlikely(!tcp_flags_valid(th[13]))) {
		invalid_flags++;
		return -1;
	}
	return 0;
}

static int tcp_packet(struct nf_conn *ct, struct sk_buff *skb,
		      const uint8_t *th, uint32_t l4len, unsigned dataoff,
		      unsigned dir, unsigned hook)
{
	unsigned idx, next, old, f;
	int invalid;
	uint32_t timeout;

	if (tcp_error(skb, th, l4len, dataoff, hook) < 0)
		return -1;
	f = th[13];
	idx = tcp_pkt_index(f);
	old = ct->state;
	next = tcp_next_state(ct, dir, idx, &invalid);
	if (invalid) {
		invalid_state++;
		return -1;
	}
	if (idx == TCP_RST_SET && ct->seen[!dir].flags & TF_MAXACK_SET &&
	    ct->last_index != TCP_SYN_SET &&
	    before(rd32(th + 4), ct->seen[!dir].td_maxack)) {
		/* A reset behind what the peer already acknowledged: a
		 * blind guess, not the peer's. */
		invalid_state++;
		return -1;
	}
	if (tcp_in_window(ct, dir, th, l4len) < 0)
		return -1;
	/* In window from here on. */
	if (idx == TCP_FIN_SET)
		ct->seen[dir].flags |= TF_FIN_SEEN;
	if (old != next && next == TCP_CONNTRACK_FIN_WAIT)
		ct->seen[dir].flags |= TF_CLOSE_INIT;
	ct->last_index = (uint8_t)idx;
	ct->state = (uint8_t)next;
	ct->last_flags = (uint8_t)f;
	/* The timeout: the state's, shorter while retransmissions go on
	 * or data is outstanding, the close one after a reset. */
	timeout = tcp_timeouts[next];
	if (ct->retrans >= TCP_MAX_RETRANS && timeout > TCP_RETRANS_TIMEOUT)
		timeout = TCP_RETRANS_TIMEOUT;
	else if (idx == TCP_RST_SET)
		timeout = tcp_timeouts[TCP_CONNTRACK_CLOSE];
	else if ((ct->seen[0].flags | ct->seen[1].flags) & TF_DATA_UNACK &&
		 timeout > TCP_UNACKED_TIMEOUT)
		timeout = TCP_UNACKED_TIMEOUT;
	if (!(ct->status & IPS_SEEN_REPLY)) {
		/* A SYN retransmitted does not renew the timeout (a port
		 * reused again and again would keep the entry alive). */
		if (idx == TCP_SYN_SET && old == TCP_CONNTRACK_SYN_SENT)
			return 0;
	} else if (!(ct->status & IPS_ASSURED) &&
		   (old == TCP_CONNTRACK_SYN_RECV ||
		    old == TCP_CONNTRACK_ESTABLISHED) &&
		   next == TCP_CONNTRACK_ESTABLISHED) {
		/* Both sides talked and the handshake completed. */
		ct->status |= IPS_ASSURED;
	}
	nf_ct_refresh(ct, timeout);
	return 0;
}

/* udp_error: length checks, then the checksum (if the sender made one)
 * where the packet arrived. */
static int udp_error(struct sk_buff *skb, const uint8_t *uh, uint32_t l4len,
		     unsigned dataoff, unsigned hook)
{
	uint32_t ulen;

	if (l4len < 8) {
		invalid_short++;
		return -1;
	}
	ulen = rd16(uh + 4);
	if (ulen < 8 || ulen > l4len) {
		invalid_short++;
		return -1;
	}
	if (!rd16(uh + 6))
		return 0;  /* sent without a checksum */
	if (hook == NF_INET_PRE_ROUTING &&
	    skb->ip_summed != CHECKSUM_UNNECESSARY &&
	    nf_checksum(skb, hook, dataoff, IPPROTO_UDP)) {
		invalid_csum++;
		return -1;
	}
	return 0;
}

static int udp_packet(struct nf_conn *ct, struct sk_buff *skb,
		      const uint8_t *uh, uint32_t l4len, unsigned dataoff,
		      unsigned hook)
{
	if (udp_error(skb, uh, l4len, dataoff, hook) < 0)
		return -1;
	if (ct->status & IPS_SEEN_REPLY) {
		nf_ct_refresh(ct, UDP_STREAM_TIMEOUT);
		ct->status |= IPS_ASSURED;
	} else {
		nf_ct_refresh(ct, UDP_TIMEOUT);
	}
	return 0;
}

int nf_ct_l4_packet(struct nf_conn *ct, struct sk_buff *skb,
		    const uint8_t *iph, const uint8_t *l4, uint32_t l4len,
		    unsigned dir, unsigned hook)
{
	unsigned dataoff = (unsigned)(l4 - skb->data);

	switch (ct->tuple[0].proto) {
	case IPPROTO_TCP:
		return tcp_packet(ct, skb, l4, l4len, dataoff, dir, hook);
	case IPPROTO_UDP:
		return udp_packet(ct, skb, l4, l4len, dataoff, hook);
	case IPPROTO_ICMP:
		if (l4len < 8)
			return -1;
		nf_ct_refresh(ct, ICMP_TIMEOUT);
		return 0;
	default:
		nf_ct_refresh(ct, GENERIC_TIMEOUT);
		return 0;
	}
}

/* An ICMP error: find the connection of the packet it quotes. 0 (the skb
 * is RELATED to it, or untracked if none), -1 if malformed. */
int nf_ct_icmp_error(struct sk_buff *skb, const uint8_t *iph,
		     const uint8_t *l4, uint32_t l4len)
{
	const uint8_t *inner = l4 + 8;
	struct nf_tuple t, inv;
	struct nf_conn *ct;
	unsigned dir;

	if (l4len < 8 + 20 + 8)
		return -1;
	if (csum_fold32(csum_partial(l4, l4len, 0)) != 0xffff)
		return -1;
	if ((inner[0] >> 4) != 4 || (inner[0] & 15u) < 5 ||
	    (inner[0] & 15u) * 4u + 8 > l4len - 8)
		return -1;
	if (nf_ct_get_tuple(&t, inner, l4len - 8, 1) < 0)
		return -1;
	nf_ct_invert_tuple(&inv, &t);
	ct = nf_ct_find(&inv, &dir);
	if (!ct) {
		skb->ctinfo = IP_CT_UNTRACKED;
		return 0;
	}
	skb->ct = ct;
	skb->ctinfo = dir == CT_DIR_REPLY ? IP_CT_RELATED_REPLY
					  : IP_CT_RELATED;
	return 0;
}
