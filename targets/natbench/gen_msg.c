/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Builds application messages from the grammar tables mkapps wrote
 * (apps_tab.c): the generator's half of the agreement whose other half is
 * the generated parsers. Field kinds are documented in apps.h.
 */
#include <string.h>

#include "apps.h"
#include "harness.h"

static const char alnum[] =
	"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

/* A character of class cls from 8 random bits. */
static uint8_t class_char(uint32_t v, unsigned cls)
{
	v &= 0xff;
	switch (cls) {
	case CC_LOWER:
		return (uint8_t)('a' + v * 26 / 256);
	case CC_ALNUM:
		return (uint8_t)alnum[v * 62 / 256];
	case CC_DIGIT:
		return (uint8_t)('0' + v * 10 / 256);
	case CC_HEX:
		return (uint8_t)alnum[v & 15];
	case CC_PRINT:
		return (uint8_t)(0x21 + v * 94 / 256);
	default:
		return (uint8_t)v;
	}
}

/* n characters of class cls: one draw serves four. */
static void put_chars(uint8_t *p, uint32_t n, unsigned cls, struct nb_rng *r)
{
	uint32_t k, v = 0;

	for (k = 0; k < n; k++) {
		if ((k & 3) == 0)
			v = nb_rand(r);
		p[k] = class_char(v, cls);
		v >>= 8;
	}
}

static void put16(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

/* Header names are matched without regard to case: vary it. */
static uint32_t put_name(uint8_t *p, const char *w, struct nb_rng *r)
{
	uint32_t k, n = (uint32_t)strlen(w), caps = nb_rand(r) % 3;

	for (k = 0; k < n; k++) {
		char c = w[k];
		int start = k == 0 || w[k - 1] == '-';

		if (c >= 'a' && c <= 'z' && (caps == 2 || (caps == 1 && start)))
			c = (char)(c - 32);
		p[k] = (uint8_t)c;
	}
	return n;
}

static uint32_t put_tlv_value(uint8_t *p, unsigned kind, uint32_t bound,
			      struct nb_rng *r)
{
	uint32_t n, k, v;

	switch (kind) {
	case TV_U16:
		put16(p, nb_range(r, 0, bound));
		return 2;
	case TV_U32:
		v = nb_rand(r);
		put32(p, v ? v : 1);
		return 4;
	case TV_STR:
		n = nb_range(r, 1, 12);
		for (k = 0; k < n; k++)
			p[k] = (uint8_t)(0x20 + nb_rand(r) % 95);
		return n;
	case TV_FLAGS:
		p[0] = (uint8_t)nb_rand(r);
		return 1;
	default:
		n = nb_range(r, 1, 8);
		for (k = 0; k < n; k++)
			p[k] = (uint8_t)nb_rand(r);
		return n;
	}
}

static int known_type(const struct app_field *f, uint8_t t)
{
	unsigned i;

	for (i = 0; i < f->n; i++)
		if (f->set[i] == t)
			return 1;
	return 0;
}

/* Upper bound of the bytes a field may take (to check room first). */
static uint32_t field_max(const struct app_field *f)
{
	switch (f->kind) {
	case FK_LEN16:
		return 2u + f->hi;
	case FK_LSTR:
		return 1u + f->hi;
	case FK_TLV:
		return 1u + f->hi * 14u;
	case FK_TOKEN:
		return 17;
	case FK_HDRS:
		return 2u + f->hi * 60u;
	case FK_VARINT:
		return 5;
	case FK_ADDR:
		return 6;
	default:
		return 4;
	}
}

static uint32_t put_token(uint8_t *p, const struct app_field *f,
			  struct nb_rng *r)
{
	const char *w = f->words[nb_rand(r) % f->n];
	uint32_t n = (uint32_t)strlen(w);

	memcpy(p, w, n);
	p[n] = ' ';
	return n + 1;
}

static uint32_t put_field(uint8_t *p, uint32_t o, const struct app_field *f,
			  struct nb_rng *r, uint32_t addr, uint16_t port)
{
	uint32_t n, k, v, s;
	uint8_t t;

	switch (f->kind) {
	case FK_MAGIC:
		for (k = 0; k < f->n; k++)
			p[o + k] = (uint8_t)(f->val >> (8 * (f->n - 1 - k)));
		return f->n;
	case FK_ENUM8:
		p[o] = f->set[nb_rand(r) % f->n];
		return 1;
	case FK_LEN16:
		n = nb_range(r, f->lo, f->hi);
		put16(p + o, n);
		put_chars(p + o + 2, n, f->cls, r);
		return 2 + n;
	case FK_ID32:
		put32(p + o, (nb_rand(r) & ~f->aux) | f->val);
		return 4;
	case FK_LSTR:
		n = nb_range(r, f->lo, f->hi);
		p[o] = (uint8_t)n;
		put_chars(p + o + 1, n, f->cls, r);
		return 1 + n;
	case FK_TLV:
		n = nb_range(r, f->lo, f->hi);
		p[o] = (uint8_t)n;
		s = 1;
		for (k = 0; k < n; k++) {
			if (nb_rand(r) % 8 == 0) {
				do
					t = (uint8_t)nb_rand(r);
				while (known_type(f, t));
				p[o + s] = t;
				p[o + s + 1] = (uint8_t)nb_range(r, 0, 6);
				for (v = 0; v < p[o + s + 1]; v++)
					p[o + s + 2 + v] = (uint8_t)nb_rand(r);
			} else {
				unsigned i = nb_rand(r) % f->n;

				p[o + s] = f->set[i];
				p[o + s + 1] = (uint8_t)put_tlv_value(
					p + o + s + 2, f->kinds[i], f->val, r);
			}
			s += 2u + p[o + s + 1];
		}
		return s;
	case FK_TOKEN:
		return put_token(p + o, f, r);
	case FK_HDRS:
		n = nb_range(r, f->lo, f->hi);
		s = 0;
		for (k = 0; k < n; k++) {
			unsigned i = nb_rand(r) % f->n, len;
			int unknown = nb_rand(r) % 8 == 0;

			if (unknown) {
				p[o + s] = 'z';
				p[o + s + 1] = 'z';
				len = nb_range(r, 2, 6);
				put_chars(p + o + s + 2, len, CC_LOWER, r);
				s += 2 + len;
			} else {
				s += put_name(p + o + s, f->words[i], r);
			}
			p[o + s++] = ':';
			p[o + s++] = ' ';
			if (!unknown && f->kinds[i] == HV_NUMBER) {
				len = nb_range(r, 1, 6);
				put_chars(p + o + s, len, CC_DIGIT, r);
			} else {
				len = nb_range(r, 1, 16);
				put_chars(p + o + s, len, CC_ALNUM, r);
			}
			s += len;
			p[o + s++] = '\r';
			p[o + s++] = '\n';
		}
		p[o + s++] = '\r';
		p[o + s++] = '\n';
		return s;
	case FK_VARINT:
		v = nb_range(r, f->lo, f->hi);
		s = 0;
		do {
			uint8_t b = v & 0x7f;

			v >>= 7;
			p[o + s++] = (uint8_t)(b | (v ? 0x80 : 0));
		} while (v);
		return s;
	case FK_BITS8:
		/* Two draws, one statement each: the operands of | are
		 * evaluated in an order the compiler chooses. */
		v = (uint32_t)f->set[nb_rand(r) % f->n] << 3;
		v |= nb_rand(r) & 7;
		p[o] = (uint8_t)(f->val << 6 | v);
		return 1;
	case FK_SUM8:
		v = 0;
		for (k = 0; k < o; k++)
			v = f->aux ? v ^ p[k] : v + p[k];
		p[o] = (uint8_t)v;
		return 1;
	case FK_ADDR:
		put32(p + o, addr);
		put16(p + o + 4, port);
		return 6;
	case FK_U16R:
		put16(p + o, nb_range(r, f->lo, f->hi));
		return 2;
	default:
		return 0;
	}
}

int gen_msg(uint8_t *p, uint32_t room, const struct app_msg *m,
	    struct nb_rng *r, uint32_t addr, uint16_t port)
{
	uint32_t o = 0;
	unsigned i;

	for (i = 0; i < m->nfields; i++) {
		if (o + field_max(&m->f[i]) > room)
			return -1;
		o += put_field(p, o, &m->f[i], r, addr, port);
	}
	return (int)o;
}
