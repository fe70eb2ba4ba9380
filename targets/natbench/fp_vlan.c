/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * 802.1Q devices: the table of L2 devices beneath the L3 interfaces, tag
 * removal on receive (the device found by real device and VID, priority
 * from the ingress map) and tag insertion on transmit (the MAC addresses
 * moved forward by four bytes, PCP from the egress map), stacked for QinQ.
 */
#include "fp_int.h"
#include "fp_util.h"

struct net_device nb_devs[NB_NDEVS];

static void dev_setup(unsigned nd, const char *name, unsigned type,
		      unsigned lower, unsigned l3, unsigned vid)
{
	struct net_device *d = &nb_devs[nd];
	unsigned i;

	d->name = name;
	d->type = (uint8_t)type;
	d->lower = (uint8_t)lower;
	d->l3 = (uint8_t)l3;
	d->up = 1;
	d->vid = (uint16_t)vid;
	d->vlan_proto = ETH_P_8021Q;
	d->mtu = l3 < NB_NIFS ? nb_ifs[l3].mtu : 1500;
	mac_copy(d->mac, nb_ifs[IF_LAN].mac);
	for (i = 0; i < 8; i++) {
		d->egress_pcp[i] = 0;
		d->ingress_prio[i] = (uint8_t)i;
	}
	d->features = NETIF_F_SG;
}

/* Control plane: the devices of the router (runs once at start). */
void netdev_init(void)
{
	dev_setup(ND_ETH0, "eth0", NDT_ETHER, ND_NONE, IF_NONE, 0);
	nb_devs[ND_ETH0].mtu = 1504;
	dev_setup(ND_ETH0_1, "eth0.1", NDT_VLAN, ND_ETH0, IF_NONE, 1);
	dev_setup(ND_ETH0_2, "eth0.2", NDT_VLAN, ND_ETH0, IF_WAN, 2);
	dev_setup(ND_ETH0_2_100, "eth0.2.100", NDT_VLAN, ND_ETH0_2, IF_QINQ,
		  100);
	dev_setup(ND_BR_LAN, "br-lan", NDT_BRIDGE, ND_NONE, IF_LAN, 0);
	dev_setup(ND_PPP, "pppoe-wan", NDT_PPP, ND_ETH0_2, IF_PPP, 0);
	/* The WAN marks its traffic classes in the tag's priority bits. */
	nb_devs[ND_ETH0_2].egress_pcp[5] = 5;
	nb_devs[ND_ETH0_2].egress_pcp[6] = 6;
	nb_devs[ND_ETH0_2_100].egress_pcp[4] = 4;
	nb_devs[ND_ETH0_2_100].egress_pcp[6] = 5;
}

static unsigned vlan_find_dev(unsigned real, uint16_t proto, uint16_t vid)
{
	unsigned i;

	for (i = 0; i < NB_NDEVS; i++) {
		const struct net_device *d = &nb_devs[i];

		if (d->type != NDT_VLAN || d->lower != real || d->vid != vid)
			continue;
		if (d->vlan_proto == proto ||
		    (proto == ETH_P_8021AD && d->lower == ND_ETH0))
			return i;
	}
	return ND_NONE;
}

/* A frame whose tag skb_vlan_untag took out (skb->vlan_tci), on device
 * skb->ldev: it now arrives on the VLAN device of that VID. 0, or -1 if
 * no VLAN device takes it. */
int vlan_do_receive(struct sk_buff *skb)
{
	uint16_t tci = skb->vlan_tci;
	unsigned vdev = vlan_find_dev(skb->ldev, skb->vlan_proto, tci & 0x0fff);
	struct net_device *d;

	if (vdev == ND_NONE) {
		nb_devs[skb->ldev].rx_nohandler++;
		return -1;
	}
	d = &nb_devs[vdev];
	if (!d->up) {
		d->rx_dropped++;
		return -1;
	}
	/* The VLAN device may have its own address. */
	if (unlikely(skb->pkt_type == PKT_OTHERHOST) &&
	    mac_equal(skb->head + skb->mac, d->mac))
		skb->pkt_type = PKT_HOST;
	skb->prio = d->ingress_prio[tci >> 13];
	if (!skb->vlan)
		skb->vlan = tci & 0x0fff;
	skb->vlan_present = 0;
	skb->ldev = (uint8_t)vdev;
	dev_sw_netstats_rx_add(vdev, skb->cpu, skb->len);
	return 0;
}

/* skb->data at the Ethernet header of a frame for VLAN device nd: the
 * tag (VID, priority from the egress map) is held outside the frame for
 * the device below, which puts it in (validate_xmit_skb), and the frame
 * goes down to it. */
int vlan_dev_hard_start_xmit(struct sk_buff *skb, unsigned nd)
{
	struct net_device *d = &nb_devs[nd];
	unsigned len = skb->len;

	skb->vlan_tci = (uint16_t)(d->vid | d->egress_pcp[skb->prio & 7] << 13);
	skb->vlan_proto = d->vlan_proto;
	skb->vlan_present = 1;
	dev_sw_netstats_tx_add(nd, skb->cpu, len);
	dev_xmit(skb, d->lower);
	return NETDEV_TX_OK;
}
