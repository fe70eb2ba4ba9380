/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Time: the tick (each CPU's private timer interrupts once a jiffy; one
 * CPU advances jiffies and the clock), timekeeping (the free-running
 * counter's cycles accumulated into nanoseconds and seconds), and the
 * timer wheel: timers hashed by expiry into buckets of three levels of
 * growing granularity (1, 8 and 64 jiffies; a timer never fires early,
 * a far one may fire a little late), a bitmap of the buckets in use, the
 * earliest expiry kept so that a tick raises the timer softirq only when
 * something is due. The router's periodic work (conntrack garbage
 * collection, neighbour and bridge ageing, the transmit watchdog) runs
 * from such timers.
 */
#include "fp_int.h"
#include "fp_irq.h"
#include "fp_mm.h"
#include "fp_util.h"

#define LVL_CLK_SHIFT 3u
#define LVL_BITS 6u
#define LVL_SIZE (1u << LVL_BITS)
#define LVL_MASK (LVL_SIZE - 1)
#define LVL_DEPTH 3u
#define LVL_SHIFT(n) ((n) * LVL_CLK_SHIFT)
#define LVL_GRAN(n) (1u << LVL_SHIFT(n))
#define LVL_OFFS(n) ((n) * LVL_SIZE)
/* The first delta a level takes. */
#define LVL_START(n) ((LVL_SIZE - 1) << (((n) - 1) * LVL_CLK_SHIFT))
#define WHEEL_SIZE (LVL_SIZE * LVL_DEPTH)
#define WHEEL_TIMEOUT_MAX (LVL_START(LVL_DEPTH) - 1)
#define TIMER_CPUMASK 0xffu
#define TIMER_IDX_SHIFT 16u  /* flags: the bucket a pending timer is in */

/* The clocksource: the global timer counter, 2^24 cycles a jiffy here
 * read as (mult / 2^shift) nanoseconds each. */
#define CS_MULT 2929u
#define CS_SHIFT 12u
#define NSEC_PER_SEC 1000000000ull

uint32_t nb_jiffies;
volatile uint32_t nb_cycle_counter;
volatile uint32_t nb_twd_intstat[NB_NCPUS];

struct timer_base {
	uint32_t clk;            /* the jiffy the wheel has run up to */
	uint32_t next_expiry;
	int timers_pending;
	uint32_t pending_map[WHEEL_SIZE / 32];
	struct timer_list *vectors[WHEEL_SIZE];
	struct timer_list *running_timer;
};

static struct timer_base timer_bases[NB_NCPUS];

/* The clocksource: the A9's global timer, read through its driver. */
struct clocksource {
	uint32_t (*read)(void);
	uint32_t mask;
	uint32_t mult, shift;
	const char *name;
};

static struct {
	uint32_t seq;            /* seqcount: odd while being updated */
	uint32_t cycle_last;     /* counter at the last accumulation */
	uint32_t cycle_interval; /* cycles per accumulation step */
	uint64_t xtime_nsec;     /* nanoseconds << CS_SHIFT */
	uint64_t xtime_sec;
	uint64_t base_mono;      /* monotonic ns at xtime_sec's start */
	uint64_t raw_nsec;
	int64_t ntp_error;
	uint32_t tick_do_timer_cpu;
	uint64_t cpustat_irq[NB_NCPUS], cpustat_softirq[NB_NCPUS];
	uint64_t overruns;
} tk;

/* ---- the wheel ---- */

static unsigned calc_index(uint32_t expires, unsigned lvl,
			   uint32_t *bucket_expiry)
{
	/* Rounded up to the level's granularity: never early. */
	if (lvl)
		expires = (expires + LVL_GRAN(lvl) - 1) >> LVL_SHIFT(lvl);
	*bucket_expiry = expires << LVL_SHIFT(lvl);
	return LVL_OFFS(lvl) + (expires & LVL_MASK);
}

static unsigned calc_wheel_index(uint32_t expires, uint32_t clk,
				 uint32_t *bucket_expiry)
{
	uint32_t delta = expires - clk;

	if ((int32_t)delta < 0) {
		/* Already due: the current bucket. */
		*bucket_expiry = clk;
		return clk & LVL_MASK;
	}
	if (delta < LVL_START(1))
		return calc_index(expires, 0, bucket_expiry);
	if (delta < LVL_START(2))
		return calc_index(expires, 1, bucket_expiry);
	if (delta > WHEEL_TIMEOUT_MAX)
		expires = clk + WHEEL_TIMEOUT_MAX;
	return calc_index(expires, 2, bucket_expiry);
}

static void enqueue_timer(struct timer_base *base, struct timer_list *t,
			  unsigned idx, uint32_t bucket_expiry)
{
	struct timer_list **head = &base->vectors[idx];

	t->next = *head;
	if (*head)
		(*head)->pprev = &t->next;
	t->pprev = head;
	*head = t;
	t->flags = (t->flags & ((1u << TIMER_IDX_SHIFT) - 1)) | TIMER_PENDING |
		   idx << TIMER_IDX_SHIFT;
	base->pending_map[idx / 32] |= 1u << idx % 32;
	if (!base->timers_pending ||
	    (int32_t)(bucket_expiry - base->next_expiry) < 0) {
		base->next_expiry = bucket_expiry;
		base->timers_pending = 1;
	}
}

static void detach_timer(struct timer_base *base, struct timer_list *t)
{
	*t->pprev = t->next;
	if (t->next)
		t->next->pprev = t->pprev;
	t->next = NULL;
	t->pprev = NULL;
	t->flags &= ~TIMER_PENDING;
	(void)base;
}

static void clear_bucket_if_empty(struct timer_base *base, unsigned idx)
{
	if (!base->vectors[idx])
		base->pending_map[idx / 32] &= ~(1u << idx % 32);
}

int del_timer(struct timer_list *t)
{
	struct timer_base *base = &timer_bases[t->flags & TIMER_CPUMASK];
	unsigned idx;

	if (!(t->flags & TIMER_PENDING))
		return 0;
	idx = t->flags >> TIMER_IDX_SHIFT;
	detach_timer(base, t);
	clear_bucket_if_empty(base, idx);
	return 1;
}

int mod_timer(struct timer_list *t, uint32_t expires)
{
	struct timer_base *base;
	uint32_t bucket_expiry;
	unsigned idx;
	int was_pending = del_timer(t);

	/* Armed on the CPU that arms it. */
	t->flags = (t->flags & ~TIMER_CPUMASK) | smp_processor_id();
	base = &timer_bases[smp_processor_id()];
	/* forward_timer_base: an idle wheel's clock catches up first, as
	 * nothing can be due before its next expiry. */
	if ((int32_t)(base->next_expiry - nb_jiffies) > 0)
		base->clk = nb_jiffies;
	else if ((int32_t)(base->next_expiry - base->clk) > 0)
		base->clk = base->next_expiry;
	t->expires = expires;
	idx = calc_wheel_index(expires, base->clk, &bucket_expiry);
	enqueue_timer(base, t, idx, bucket_expiry);
	return was_pending;
}

void timer_setup(struct timer_list *t, void (*fn)(struct timer_list *t))
{
	t->next = NULL;
	t->pprev = NULL;
	t->function = fn;
	t->flags = 0;
}

/* The buckets due at base->clk, level by level: a level's bucket is due
 * only when the clock passes its granularity. Returns how many lists. */
static unsigned collect_expired_timers(struct timer_base *base,
				       struct timer_list **heads)
{
	uint32_t clk = base->clk;
	unsigned i, levels = 0;

	for (i = 0; i < LVL_DEPTH; i++) {
		unsigned idx = (clk & LVL_MASK) + i * LVL_SIZE;

		if (base->pending_map[idx / 32] & 1u << idx % 32) {
			base->pending_map[idx / 32] &= ~(1u << idx % 32);
			heads[levels] = base->vectors[idx];
			if (heads[levels])
				heads[levels]->pprev = &heads[levels];
			base->vectors[idx] = NULL;
			levels++;
		}
		if (clk & ((1u << LVL_CLK_SHIFT) - 1))
			break;
		clk >>= LVL_CLK_SHIFT;
	}
	return levels;
}

static void expire_timers(struct timer_base *base, struct timer_list **head)
{
	while (*head) {
		struct timer_list *t = *head;

		base->running_timer = t;
		detach_timer(base, t);
		t->function(t);
	}
	base->running_timer = NULL;
}

/* The next bucket in use at or after position pos of a level, as an
 * offset from pos, or LVL_SIZE (find_next_bit over the level's two
 * bitmap words, wrapping). */
static unsigned next_pending_bucket(const struct timer_base *base,
				    unsigned lvl, unsigned pos)
{
	const uint32_t *map = &base->pending_map[LVL_OFFS(lvl) / 32];
	uint64_t bits = (uint64_t)map[1] << 32 | map[0];

	/* Rotate so that pos is bit 0. */
	if (pos)
		bits = bits >> pos | bits << (LVL_SIZE - pos);
	return bits ? (unsigned)__builtin_ctzll(bits) : LVL_SIZE;
}

/* The earliest bucket in use, level by level from the clock. */
static void next_timer_interrupt(struct timer_base *base)
{
	uint32_t clk = base->clk, next = 0;
	unsigned lvl;
	int found = 0;

	for (lvl = 0; lvl < LVL_DEPTH; lvl++, clk >>= LVL_CLK_SHIFT) {
		unsigned k = next_pending_bucket(base, lvl, clk & LVL_MASK);
		uint32_t exp;

		if (k == LVL_SIZE)
			continue;
		exp = (clk + k) << LVL_SHIFT(lvl);
		if (!found || (int32_t)(exp - next) < 0)
			next = exp;
		found = 1;
	}
	base->timers_pending = found;
	base->next_expiry = found ? next : base->clk + WHEEL_TIMEOUT_MAX;
}

static void run_timer_softirq(void)
{
	struct timer_base *base = &timer_bases[smp_processor_id()];
	struct timer_list *heads[LVL_DEPTH];

	while (time_after_eq(nb_jiffies, base->clk)) {
		unsigned levels = collect_expired_timers(base, heads);

		base->clk++;
		while (levels--)
			expire_timers(base, &heads[levels]);
	}
	next_timer_interrupt(base);
}

/* ---- the tick ---- */

static uint32_t gt_clocksource_read(void)
{
	return nb_cycle_counter;
}

static struct clocksource gt_clocksource = {
	.read = gt_clocksource_read,
	.mask = 0xffffffffu,
	.mult = CS_MULT,
	.shift = CS_SHIFT,
	.name = "arm_global_timer",
};

static uint32_t tk_clock_read(void)
{
	return gt_clocksource.read();
}

/* The monotonic clock in nanoseconds (ktime_get): what was accumulated
 * at the last tick plus the counter's cycles since, read again if a tick
 * updated it meanwhile. */
uint64_t ktime_get_ns(void)
{
	const struct clocksource *cs = &gt_clocksource;
	uint64_t base, nsec;
	uint32_t seq, delta;

	do {
		seq = tk.seq;
		base = tk.base_mono;
		delta = (tk_clock_read() - tk.cycle_last) & cs->mask;
		nsec = (tk.xtime_nsec + (uint64_t)delta * cs->mult) >> cs->shift;
	} while (unlikely(seq & 1 || seq != tk.seq));
	return base + nsec;
}

/* Whole intervals of the counter since the last time into the clock;
 * a second's worth of nanoseconds carried into seconds. */
static void timekeeping_advance(void)
{
	uint32_t offset = tk_clock_read() - tk.cycle_last;
	unsigned shift = 0;

	if (offset < tk.cycle_interval)
		return;
	tk.seq++;
	/* Big steps first after a long gap (logarithmic accumulation). */
	while (shift < 8 && (uint64_t)tk.cycle_interval << (shift + 1) <= offset)
		shift++;
	while (offset >= tk.cycle_interval) {
		uint32_t interval = tk.cycle_interval << shift;

		if (offset < interval) {
			shift--;
			continue;
		}
		offset -= interval;
		tk.cycle_last += interval;
		tk.xtime_nsec += (uint64_t)interval * CS_MULT;
		tk.raw_nsec += (uint64_t)interval * CS_MULT >> CS_SHIFT;
		while (tk.xtime_nsec >= NSEC_PER_SEC << CS_SHIFT) {
			tk.xtime_nsec -= NSEC_PER_SEC << CS_SHIFT;
			tk.xtime_sec++;
			tk.base_mono += NSEC_PER_SEC;
			/* second_overflow: the NTP error left to slew. */
			tk.ntp_error -= tk.ntp_error >> 4;
		}
	}
	tk.ntp_error += (int64_t)offset;
	tk.seq++;
}

static void update_process_times(unsigned cpu)
{
	struct timer_base *base = &timer_bases[cpu];

	/* account_process_tick: the tick lands in interrupt context. */
	if (in_interrupt())
		tk.cpustat_irq[cpu]++;
	else
		tk.cpustat_softirq[cpu]++;
	/* run_local_timers */
	if (base->timers_pending && time_after_eq(nb_jiffies, base->next_expiry))
		raise_softirq_irqoff(TIMER_SOFTIRQ);
}

static void tick_periodic(unsigned cpu)
{
	if (tk.tick_do_timer_cpu == cpu) {
		nb_jiffies++;
		timekeeping_advance();
	}
	update_process_times(cpu);
}

/* The A9's private timer (twd): ack its event, run the tick. */
static int twd_handler(unsigned irq, void *dev_id)
{
	unsigned cpu = smp_processor_id();

	if (!nb_twd_intstat[cpu])
		return IRQ_NONE;
	nb_twd_intstat[cpu] = 0;
	tick_periodic(cpu);
	return IRQ_HANDLED;
}

/* Control plane at boot. */
void time_init(void)
{
	unsigned cpu;

	tk.cycle_interval = 1u << 14;
	for (cpu = 0; cpu < NB_NCPUS; cpu++)
		next_timer_interrupt(&timer_bases[cpu]);
	open_softirq(TIMER_SOFTIRQ, run_timer_softirq);
	request_percpu_irq(IRQ_LOCAL_TIMER, twd_handler, "twd", NULL);
}
