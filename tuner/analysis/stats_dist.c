/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stats_dist: the normal and Student t distributions, and normal variates.
 * See include/tuner/stats.h for the methods and their sources.
 */
#include "tuner/stats.h"

#include <float.h>
#include <math.h>

#include "tuner/util.h"

#define SQRT2 1.41421356237309504880
#define SQRT2PI 2.50662827463100050242
#define PI 3.14159265358979323846

double stats_normal_cdf(double x)
{
	/* erfc, not 1 + erf: the lower tail stays relative-accurate. */
	return 0.5 * erfc(-x / SQRT2);
}

/* Acklam's coefficients: central region, then both tails. */
static const double ack_a[] = {
	-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
	1.383577518672690e+02, -3.066479806614716e+01, 2.506628277459239e+00,
};
static const double ack_b[] = {
	-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
	6.680131188771972e+01, -1.328068155288572e+01,
};
static const double ack_c[] = {
	-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
	-2.549732539343734e+00, 4.374664141464968e+00, 2.938163982698783e+00,
};
static const double ack_d[] = {
	7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
	3.754408661907416e+00,
};

static double acklam(double p)
{
	const double plow = 0.02425;
	double q, r;

	if (p < plow || p > 1 - plow) {
		/* Tails: a rational function of sqrt(-2 log(tail)). */
		q = sqrt(-2 * log(p < plow ? p : 1 - p));
		r = (((((ack_c[0] * q + ack_c[1]) * q + ack_c[2]) * q + ack_c[3]) * q +
		      ack_c[4]) * q + ack_c[5]) /
		    ((((ack_d[0] * q + ack_d[1]) * q + ack_d[2]) * q + ack_d[3]) * q + 1);
		return p < plow ? r : -r;
	}
	q = p - 0.5;
	r = q * q;
	return (((((ack_a[0] * r + ack_a[1]) * r + ack_a[2]) * r + ack_a[3]) * r +
		 ack_a[4]) * r + ack_a[5]) * q /
	       (((((ack_b[0] * r + ack_b[1]) * r + ack_b[2]) * r + ack_b[3]) * r +
		 ack_b[4]) * r + 1);
}

double stats_normal_quantile(double p)
{
	double x, e, u;

	if (isnan(p) || p < 0 || p > 1)
		return NAN;
	if (p == 0)
		return -INFINITY;
	if (p == 1)
		return INFINITY;
	x = acklam(p);
	/*
	 * One Halley step (third order) takes the 1e-9 approximation to
	 * full precision. In the upper half the error is measured on the
	 * upper tail, which erfc gives without cancellation.
	 */
	if (p < 0.5)
		e = stats_normal_cdf(x) - p;
	else
		e = (1 - p) - stats_normal_cdf(-x);
	u = e * SQRT2PI * exp(x * x / 2);
	return x - u / (1 + x * u / 2);
}

double stats_normal(struct rng *r)
{
	/* 1 - u is in (0, 1], so the log is finite. */
	double u1 = 1.0 - rng_double(r);
	double u2 = rng_double(r);

	return sqrt(-2 * log(u1)) * cos(2 * PI * u2);
}

static double lgam(double x)
{
	int sign;

	/* lgamma_r: lgamma writes the global signgam, a data race. */
	return lgamma_r(x, &sign);
}

/* lgamma(x) - Stirling's approximation, for x >= 15 (error < 3e-14). */
static double stirling_rest(double x)
{
	double x2 = 1 / (x * x);

	return (1.0 / 12 - x2 * (1.0 / 360 - x2 * (1.0 / 1260 - x2 / 1680))) / x;
}

/*
 * log B(a, b). For the t distribution a = df/2 can be huge while b = 1/2;
 * lgamma(a) - lgamma(a + b) would then lose all but a few digits, so that
 * difference is taken from Stirling's series with log1p.
 */
static double lbeta(double a, double b)
{
	double t;

	if (a < b) {
		t = a;
		a = b;
		b = t;
	}
	if (a < 15)
		return lgam(a) + lgam(b) - lgam(a + b);
	return lgam(b) + stirling_rest(a) - stirling_rest(a + b) + b -
	       b * log(a + b) - (a - 0.5) * log1p(b / a);
}

/* One modified-Lentz step with partial numerator num: updates c and d and
 * returns the factor the convergent is multiplied by. */
static double lentz_step(double *c, double *d, double num)
{
	const double tiny = 1e-300;

	*d = 1 + num * *d;
	if (fabs(*d) < tiny)
		*d = tiny;
	*c = 1 + num / *c;
	if (fabs(*c) < tiny)
		*c = tiny;
	*d = 1 / *d;
	return *d * *c;
}

/*
 * The continued fraction of I_x(a, b) (Abramowitz & Stegun 26.5.8) by the
 * modified Lentz method: converges fast for x < (a + 1) / (a + b + 2).
 */
static double betacf(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1, d = 1 - (a + b) * x / (a + 1), h, del;

	if (fabs(d) < tiny)
		d = tiny;
	d = 1 / d;
	h = d;
	for (int m = 1; m <= 100000; m++) {
		/* Even step. */
		h *= lentz_step(&c, &d, m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)));
		/* Odd step. */
		del = lentz_step(&c, &d, -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)));
		h *= del;
		if (fabs(del - 1) < 1e-15)
			break;
	}
	return h;
}

/*
 * Regularized incomplete beta I_x(a, b), given both x and y = 1 - x so
 * that a caller who knows y more precisely than 1 - x (the t tail) keeps
 * it. Uses I_x(a, b) = 1 - I_y(b, a) where the fraction converges better.
 */
static double ibeta(double a, double b, double x, double y)
{
	double lx, ly, front;

	if (x <= 0)
		return 0;
	if (y <= 0)
		return 1;
	/*
	 * The logs from whichever of x and y is small: with df = 1e9 the
	 * exponent is a * log(x) with a = 5e8 and x = 1 - 1e-9, where log(x)
	 * lost to rounding would cost most digits of the result.
	 */
	lx = x < 0.5 ? log(x) : log1p(-y);
	ly = y < 0.5 ? log(y) : log1p(-x);
	front = exp(a * lx + b * ly - lbeta(a, b));
	if (x < (a + 1) / (a + b + 2))
		return front * betacf(a, b, x) / a;
	return 1 - front * betacf(b, a, y) / b;
}

/*
 * P(T < t) for t <= 0: half of I_x(df/2, 1/2), x = df / (df + t^2),
 * computed from r = t^2 / df so that neither x nor 1 - x cancels.
 */
static double t_lower(double t, double df)
{
	double r = (t / sqrt(df)) * (t / sqrt(df));
	double x, y;

	/*
	 * From df = 1e7 on, the fraction needs so many terms that rounding
	 * costs 1e-9 and more; there the first term of Fisher's expansion
	 * in 1/df ("Expansion of Student's integral in powers of n^-1",
	 * Metron 5, 1925) is better than 1e-8 relative for |t| < 8.
	 */
	if (df >= 1e7)
		return stats_normal_cdf(t) -
		       exp(-t * t / 2) / SQRT2PI * (t * t + 1) * t / (4 * df);
	if (isinf(r)) {
		x = 0;
		y = 1;
	} else {
		x = 1 / (1 + r);
		y = r / (1 + r);
	}
	return 0.5 * ibeta(df / 2, 0.5, x, y);
}

double stats_t_cdf(double t, double df)
{
	if (isnan(t) || isnan(df) || df <= 0)
		return NAN;
	if (isinf(df))
		return stats_normal_cdf(t);
	if (t <= 0)
		return t_lower(t, df);
	return 1 - t_lower(-t, df);
}

static double t_pdf(double t, double df)
{
	return exp(-(df + 1) / 2 * log1p(t * t / df) - 0.5 * log(df) -
		   lbeta(df / 2, 0.5));
}

/* A&S 26.7.5: the t quantile as a series in 1/df around the normal's. */
static double cornish_fisher(double x, double df)
{
	double x2 = x * x;
	double g1 = (x2 + 1) * x / 4;
	double g2 = ((5 * x2 + 16) * x2 + 3) * x / 96;
	double g3 = (((3 * x2 + 19) * x2 + 17) * x2 - 15) * x / 384;
	double g4 = ((((79 * x2 + 776) * x2 + 1482) * x2 - 1920) * x2 - 945) *
		    x / 92160;

	return x + (g1 + (g2 + (g3 + g4 / df) / df) / df) / df;
}

/* The t <= 0 with P(T < t) = p, for 0 < p <= 0.5. */
static double t_quantile_lower(double p, double df)
{
	double lo, hi = 0, t, f, step;

	t = cornish_fisher(stats_normal_quantile(p), df);
	if (!(t < 0) || !isfinite(t))
		t = -1;
	/* A bracket [lo, hi] with cdf(lo) <= p <= cdf(hi). */
	lo = t;
	while (t_lower(lo, df) > p) {
		hi = lo;
		lo *= 2;
		if (isinf(lo))
			return -INFINITY;
	}
	/*
	 * Newton on the CDF; a step that leaves the bracket becomes a
	 * bisection, so it converges even from a poor start in the tails
	 * of small df, where the series start is far off.
	 */
	for (int i = 0; i < 200; i++) {
		f = t_lower(t, df) - p;
		if (f == 0)
			break;
		if (f > 0)
			hi = t;
		else
			lo = t;
		step = f / t_pdf(t, df);
		if (t - step > lo && t - step < hi && isfinite(step)) {
			t -= step;
		} else {
			step = t - (lo + hi) / 2;
			t = (lo + hi) / 2;
		}
		if (fabs(step) <= 4 * DBL_EPSILON * fabs(t) || hi - lo <= DBL_MIN)
			break;
	}
	return t;
}

double stats_t_quantile(double p, double df)
{
	if (isnan(p) || isnan(df) || df <= 0 || p < 0 || p > 1)
		return NAN;
	if (p == 0)
		return -INFINITY;
	if (p == 1)
		return INFINITY;
	if (p == 0.5)
		return 0;
	if (isinf(df))
		return stats_normal_quantile(p);
	/* Closed forms: the Cauchy distribution, and df = 2. */
	if (df == 1)
		return p < 0.5 ? -1 / tan(PI * p) : 1 / tan(PI * (1 - p));
	if (df == 2) {
		double q = p < 0.5 ? p : 1 - p;
		double t = (1 - 2 * q) / sqrt(2 * q * (1 - q));

		return p < 0.5 ? -t : t;
	}
	if (p < 0.5)
		return t_quantile_lower(p, df);
	return -t_quantile_lower(1 - p, df);
}

double stats_f_sf(double f, double d1, double d2)
{
	if (isnan(f) || isnan(d1) || isnan(d2) || d1 <= 0 || d2 <= 0)
		return NAN;
	if (f <= 0)
		return 1;
	if (isinf(f))
		return 0;
	/* x and 1 - x from their own sums, so neither cancels. */
	return ibeta(d2 / 2, d1 / 2, d2 / (d2 + d1 * f), d1 * f / (d2 + d1 * f));
}
