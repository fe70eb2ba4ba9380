/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mkapps: writes the parsers (C specialised to each grammar), the registry
 * and the grammar tables. What a parser accepts and what the generator's
 * interpreter (gen_msg.c) builds from the tables must agree field by field:
 * the kinds are documented in apps.h.
 */
#include <string.h>

#include "mkapps.h"

static const char *const dir_name[2] = { "c2s", "s2c" };

static void emit_action(int act, uint32_t c, const char *ind)
{
	switch (act) {
	case 0:
		emit("%skey = key * 31u + 0x%xu;\n", ind, c);
		break;
	case 1:
		emit("%skey ^= 0x%xu;\n", ind, c);
		break;
	case 2:
		emit("%skey = rol32(key, %u) + 0x%xu;\n", ind, c % 31 + 1, c >> 3);
		break;
	case 3:
		emit("%scls = %u;\n", ind, c % 6 + 1);
		break;
	default:
		emit("%scls = %u;\n%skey += 0x%xu;\n", ind, c % 6 + 1, ind, c >> 8);
		break;
	}
}

static void emit_hash(int flavour, const char *h, const char *c,
		      const char *ind)
{
	switch (flavour) {
	case 0:
		emit("%s%s = %s * 33u + %s;\n", ind, h, h, c);
		break;
	case 1:
		emit("%s%s = (%s ^ %s) * 16777619u;\n", ind, h, h, c);
		break;
	case 2:
		emit("%s%s = rol32(%s, 5) ^ %s;\n", ind, h, h, c);
		break;
	default:
		emit("%s%s += %s * (i + 1u);\n", ind, h, c);
		break;
	}
}

/* "if (!(class test)) goto bad;" for a character c. */
static void emit_class(int cls, const char *ind)
{
	switch (cls) {
	case CC_LOWER:
		emit("%sif (c - 'a' >= 26u)\n%s\tgoto bad;\n", ind, ind);
		break;
	case CC_ALNUM:
		emit("%sif (c - '0' >= 10u && (c | 0x20u) - 'a' >= 26u)\n"
		     "%s\tgoto bad;\n", ind, ind);
		break;
	case CC_DIGIT:
		emit("%sif (c - '0' >= 10u)\n%s\tgoto bad;\n", ind, ind);
		break;
	case CC_HEX:
		emit("%sif (c - '0' >= 10u && c - 'a' >= 6u)\n%s\tgoto bad;\n",
		     ind, ind);
		break;
	case CC_PRINT:
		emit("%sif (c - 0x21u >= 0x5eu)\n%s\tgoto bad;\n", ind, ind);
		break;
	default:
		break;
	}
}

static void emit_lo_hi(const char *v, int lo, int hi, const char *extra)
{
	emit("\t\tif (");
	if (lo > 0)
		emit("%s < %du || ", v, lo);
	emit("%s > %du%s)\n\t\t\tgoto bad;\n", v, hi, extra);
}

static void emit_bytes_loop(const struct field *f, const char *sum)
{
	emit("\t\tfor (i = 0; i < v; i++) {\n"
	     "\t\t\tuint32_t c = p[o + i];\n\n");
	emit_class(f->cls, "\t\t\t");
	emit_hash(f->hash, "h", "c", "\t\t\t");
	emit("\t\t}\n\t\tkey %s h;\n\t\to += v;\n", sum);
}

static void emit_magic(const struct field *f)
{
	static const char *const expr[5] = {
		"", "p[o]", "rd16(p + o)",
		"((uint32_t)rd16(p + o) << 8 | p[o + 2])", "rd32(p + o)",
	};

	emit("\tif (n - o < %du || %s != 0x%xu)\n\t\tgoto bad;\n"
	     "\to += %d;\n", f->n, expr[f->n], f->val, f->n);
}

static void emit_enum(const struct field *f)
{
	int i;

	emit("\tif (o >= n)\n\t\tgoto bad;\n\tswitch (p[o++]) {\n");
	for (i = 0; i < f->n; i++) {
		emit("\tcase 0x%02x:\n", f->set[i]);
		emit_action(f->act[i], f->actc[i], "\t\t");
		emit("\t\tbreak;\n");
	}
	emit("\tdefault:\n\t\tgoto bad;\n\t}\n");
}

static void emit_tlv(const struct field *f)
{
	int i;

	emit("\t{\n\t\tuint32_t cnt, t, l, i, v, h;\n\n"
	     "\t\tif (o >= n)\n\t\t\tgoto bad;\n\t\tcnt = p[o++];\n");
	emit_lo_hi("cnt", f->lo, f->hi, "");
	emit("\t\twhile (cnt--) {\n"
	     "\t\t\tif (n - o < 2)\n\t\t\t\tgoto bad;\n"
	     "\t\t\tt = p[o];\n\t\t\tl = p[o + 1];\n\t\t\to += 2;\n"
	     "\t\t\tif (n - o < l)\n\t\t\t\tgoto bad;\n"
	     "\t\t\tswitch (t) {\n");
	for (i = 0; i < f->n; i++) {
		emit("\t\t\tcase %u:\n", f->set[i]);
		switch (f->kinds[i]) {
		case TV_U16:
			emit("\t\t\t\tif (l != 2)\n\t\t\t\t\tgoto bad;\n"
			     "\t\t\t\tv = rd16(p + o);\n"
			     "\t\t\t\tif (v > %uu)\n\t\t\t\t\tgoto bad;\n"
			     "\t\t\t\tkey += v * %uu;\n", f->val,
			     f->actc[i] | 1u);
			break;
		case TV_U32:
			emit("\t\t\t\tif (l != 4)\n\t\t\t\t\tgoto bad;\n"
			     "\t\t\t\tv = rd32(p + o);\n"
			     "\t\t\t\tif (!v)\n\t\t\t\t\tgoto bad;\n"
			     "\t\t\t\tkey ^= rol32(v, %u);\n",
			     f->actc[i] % 31 + 1);
			break;
		case TV_STR:
			emit("\t\t\t\tif (!l)\n\t\t\t\t\tgoto bad;\n"
			     "\t\t\t\th = 0;\n"
			     "\t\t\t\tfor (i = 0; i < l; i++) {\n"
			     "\t\t\t\t\tuint32_t c = p[o + i];\n\n"
			     "\t\t\t\t\tif (c - 0x20u > 0x5eu)\n"
			     "\t\t\t\t\t\tgoto bad;\n");
			emit_hash(f->hash, "h", "c", "\t\t\t\t\t");
			emit("\t\t\t\t}\n\t\t\t\tkey += h;\n");
			break;
		case TV_FLAGS:
			emit("\t\t\t\tif (l != 1)\n\t\t\t\t\tgoto bad;\n"
			     "\t\t\t\tv = p[o];\n"
			     "\t\t\t\tv = (v & 0x55u) + (v >> 1 & 0x55u);\n"
			     "\t\t\t\tv = (v & 0x33u) + (v >> 2 & 0x33u);\n"
			     "\t\t\t\tv = (v & 0x0fu) + (v >> 4);\n"
			     "\t\t\t\tif (v > 6)\n\t\t\t\t\tcls = %u;\n"
			     "\t\t\t\tkey += v << %u;\n", f->actc[i] % 6 + 1,
			     f->actc[i] % 24);
			break;
		default:
			emit("\t\t\t\tif (!l || l > 8)\n\t\t\t\t\tgoto bad;\n"
			     "\t\t\t\th = 0x%xu;\n"
			     "\t\t\t\tfor (i = 0; i < l; i++)\n"
			     "\t\t\t\t\th += p[o + i] * (i + 1u);\n"
			     "\t\t\t\tkey ^= h;\n", f->actc[i]);
			break;
		}
		emit("\t\t\t\tbreak;\n");
	}
	emit("\t\t\tdefault:\n\t\t\t\tbreak;\n\t\t\t}\n"
	     "\t\t\to += l;\n\t\t}\n"
	     "\t\t(void)v;\n\t\t(void)h;\n\t\t(void)i;\n\t}\n");
}

/* Compares len bytes at p[s] with word w; icase for header names. */
static void emit_word_cmp(const char *w, int icase)
{
	int k, len = (int)strlen(w);

	for (k = 0; k < len; k++) {
		if (k)
			emit(" &&\n\t\t\t    ");
		if (icase && w[k] >= 'a' && w[k] <= 'z')
			emit("(p[s + %d] | 0x20u) == '%c'", k, w[k]);
		else
			emit("p[s + %d] == '%c'", k, w[k]);
	}
}

static void emit_token(const struct field *f)
{
	int len, i, any;

	emit("\t{\n\t\tuint32_t s = o, tl;\n\n"
	     "\t\twhile (o < n && o - s < 16 && p[o] != ' ')\n\t\t\to++;\n"
	     "\t\tif (o >= n || p[o] != ' ')\n\t\t\tgoto bad;\n"
	     "\t\ttl = o - s;\n\t\to++;\n\t\tswitch (tl) {\n");
	for (len = 1; len <= 16; len++) {
		any = 0;
		for (i = 0; i < f->n; i++) {
			if ((int)strlen(f->words[i]) != len)
				continue;
			if (!any)
				emit("\t\tcase %d:\n", len);
			any = 1;
			emit("\t\t\tif (");
			emit_word_cmp(f->words[i], 0);
			emit(") {\n");
			emit_action(f->act[i], f->actc[i], "\t\t\t\t");
			emit("\t\t\t\tbreak;\n\t\t\t}\n");
		}
		if (any)
			emit("\t\t\tgoto bad;\n");
	}
	emit("\t\tdefault:\n\t\t\tgoto bad;\n\t\t}\n\t}\n");
}

static void emit_hdrs(const struct field *f)
{
	int len, i, any;

	emit("\t{\n\t\tuint32_t lines = 0, s, nl, vs, vl, i, v;\n"
	     "\t\tint hid;\n\n\t\tfor (;;) {\n"
	     "\t\t\tif (n - o < 2)\n\t\t\t\tgoto bad;\n"
	     "\t\t\tif (p[o] == '\\r' && p[o + 1] == '\\n') {\n"
	     "\t\t\t\to += 2;\n\t\t\t\tbreak;\n\t\t\t}\n"
	     "\t\t\tif (++lines > %du)\n\t\t\t\tgoto bad;\n"
	     "\t\t\ts = o;\n"
	     "\t\t\twhile (o < n && o - s < 32 && p[o] != ':')\n"
	     "\t\t\t\to++;\n"
	     "\t\t\tif (n - o < 2 || p[o] != ':')\n\t\t\t\tgoto bad;\n"
	     "\t\t\tnl = o - s;\n\t\t\to++;\n"
	     "\t\t\tif (p[o] == ' ')\n\t\t\t\to++;\n"
	     "\t\t\thid = -1;\n\t\t\tswitch (nl) {\n", f->hi);
	for (len = 1; len <= 32; len++) {
		any = 0;
		for (i = 0; i < f->n; i++) {
			if ((int)strlen(f->words[i]) != len)
				continue;
			if (!any)
				emit("\t\t\tcase %d:\n", len);
			any = 1;
			emit("\t\t\t\tif (");
			emit_word_cmp(f->words[i], 1);
			emit(")\n\t\t\t\t\thid = %d;\n", i);
		}
		if (any)
			emit("\t\t\t\tbreak;\n");
	}
	emit("\t\t\tdefault:\n\t\t\t\tbreak;\n\t\t\t}\n"
	     "\t\t\tvs = o;\n"
	     "\t\t\twhile (o < n && o - vs < 64 && p[o] != '\\r')\n"
	     "\t\t\t\to++;\n"
	     "\t\t\tif (n - o < 2 || p[o] != '\\r' || p[o + 1] != '\\n')\n"
	     "\t\t\t\tgoto bad;\n"
	     "\t\t\tvl = o - vs;\n\t\t\to += 2;\n\t\t\tswitch (hid) {\n");
	for (i = 0; i < f->n; i++) {
		emit("\t\t\tcase %d:\n", i);
		if (f->kinds[i] == HV_NUMBER) {
			emit("\t\t\t\tif (!vl)\n\t\t\t\t\tgoto bad;\n"
			     "\t\t\t\tv = 0;\n"
			     "\t\t\t\tfor (i = 0; i < vl; i++) {\n"
			     "\t\t\t\t\tuint32_t c = p[vs + i] - '0';\n\n"
			     "\t\t\t\t\tif (c > 9)\n\t\t\t\t\t\tgoto bad;\n"
			     "\t\t\t\t\tv = v * 10 + c;\n\t\t\t\t}\n"
			     "\t\t\t\tkey += v ^ 0x%xu;\n", f->actc[i]);
		} else {
			emit("\t\t\t\tv = 0x%xu;\n"
			     "\t\t\t\tfor (i = 0; i < vl; i++) {\n"
			     "\t\t\t\t\tuint32_t c = p[vs + i];\n\n",
			     f->actc[i]);
			emit_hash(f->hash, "v", "c", "\t\t\t\t\t");
			emit("\t\t\t\t}\n\t\t\t\tkey ^= v;\n");
		}
		emit("\t\t\t\tbreak;\n");
	}
	emit("\t\t\tdefault:\n\t\t\t\tbreak;\n\t\t\t}\n\t\t}\n");
	if (f->lo > 0)
		emit("\t\tif (lines < %du)\n\t\t\tgoto bad;\n", f->lo);
	emit("\t}\n");
}

static void emit_field(const struct field *f)
{
	int i;

	switch (f->kind) {
	case FK_MAGIC:
		emit_magic(f);
		break;
	case FK_ENUM8:
		emit_enum(f);
		break;
	case FK_LEN16:
		emit("\t{\n\t\tuint32_t v, i, h = 0x%xu;\n\n"
		     "\t\tif (n - o < 2)\n\t\t\tgoto bad;\n"
		     "\t\tv = rd16(p + o);\n\t\to += 2;\n", f->actc[0] | 1u);
		emit_lo_hi("v", f->lo, f->hi, " || n - o < v");
		emit_bytes_loop(f, "^=");
		emit("\t}\n");
		break;
	case FK_ID32:
		emit("\t{\n\t\tuint32_t v;\n\n"
		     "\t\tif (n - o < 4)\n\t\t\tgoto bad;\n"
		     "\t\tv = rd32(p + o);\n\t\to += 4;\n"
		     "\t\tif ((v & 0x%xu) != 0x%xu)\n\t\t\tgoto bad;\n"
		     "\t\tkey = key * %uu + (v >> %u);\n\t}\n",
		     f->aux, f->val, f->aux | 1u, f->val % 13);
		break;
	case FK_LSTR:
		emit("\t{\n\t\tuint32_t v, i, h = 0;\n\n"
		     "\t\tif (o >= n)\n\t\t\tgoto bad;\n\t\tv = p[o++];\n");
		emit_lo_hi("v", f->lo, f->hi, " || n - o < v");
		emit_bytes_loop(f, "+=");
		emit("\t}\n");
		break;
	case FK_TLV:
		emit_tlv(f);
		break;
	case FK_TOKEN:
		emit_token(f);
		break;
	case FK_HDRS:
		emit_hdrs(f);
		break;
	case FK_VARINT:
		emit("\t{\n\t\tuint32_t v = 0, sh = 0, c;\n\n\t\tfor (;;) {\n"
		     "\t\t\tif (o >= n || sh > 28)\n\t\t\t\tgoto bad;\n"
		     "\t\t\tc = p[o++];\n\t\t\tv |= (c & 0x7fu) << sh;\n"
		     "\t\t\tif (!(c & 0x80u))\n\t\t\t\tbreak;\n"
		     "\t\t\tsh += 7;\n\t\t}\n");
		emit_lo_hi("v", f->lo, f->hi, "");
		emit("\t\tkey = key * 37u + v;\n\t}\n");
		break;
	case FK_BITS8:
		emit("\t{\n\t\tuint32_t c;\n\n\t\tif (o >= n)\n\t\t\tgoto bad;\n"
		     "\t\tc = p[o++];\n\t\tif (c >> 6 != %uu)\n\t\t\tgoto bad;\n"
		     "\t\tswitch (c >> 3 & 7u) {\n", f->val);
		for (i = 0; i < f->n; i++) {
			emit("\t\tcase %u:\n", f->set[i]);
			emit_action(f->act[i], f->actc[i], "\t\t\t");
			emit("\t\t\tbreak;\n");
		}
		emit("\t\tdefault:\n\t\t\tgoto bad;\n\t\t}\n"
		     "\t\tkey += c & 7u;\n\t}\n");
		break;
	case FK_SUM8:
		emit("\t{\n\t\tuint32_t i, s = 0;\n\n\t\tif (o >= n)\n\t\t\tgoto bad;\n"
		     "\t\tfor (i = 0; i < o; i++)\n\t\t\ts %s= p[i];\n"
		     "\t\tif (p[o] != (s & 0xffu))\n\t\t\tgoto bad;\n"
		     "\t\to++;\n\t}\n", f->aux ? "^" : "+");
		break;
	case FK_ADDR:
		emit("\tif (n - o < 6 || rd32(p + o) == 0)\n\t\tgoto bad;\n"
		     "\tr->addr_off = (uint16_t)(o + 1);\n\to += 6;\n");
		break;
	case FK_U16R:
		emit("\t{\n\t\tuint32_t v;\n\n\t\tif (n - o < 2)\n\t\t\tgoto bad;\n"
		     "\t\tv = rd16(p + o);\n\t\to += 2;\n");
		emit_lo_hi("v", f->lo, f->hi, "");
		emit("\t\tkey += v * %uu;\n\t}\n", f->actc[0] | 1u);
		break;
	default:
		break;
	}
}

void emit_parser(int a, int dir)
{
	const struct msg *m = &apps[a].m[dir];
	int i;

	emit("int fp_app%d_%s(const uint8_t *p, uint32_t n, struct app_res *r)\n"
	     "{\n\tuint32_t o = 0, key = 0x%xu;\n\tunsigned cls = 0;\n\n",
	     a, dir_name[dir], (uint32_t)(a * 2654435761u) ^ (uint32_t)dir);
	for (i = 0; i < m->nfields; i++)
		emit_field(&m->f[i]);
	emit("\tr->key = key;\n\tr->cls = (uint16_t)cls;\n\tr->len = o;\n"
	     "\treturn 0;\nbad:\n\tr->len = o;\n\treturn -1;\n}\n\n");
}

static void emit_trule(const struct trule *r)
{
	unsigned c = r->c, j = c % 3;

	switch (r->kind) {
	case 0:  /* a message whose key bits say so moves the session on */
		emit("\t\tif (dir == %d && (r->key >> %d & %du) == %du) {\n"
		     "\t\t\tt->state = %d;\n\t\t\tt->v[%u] += r->len;\n"
		     "\t\t\tbreak;\n\t\t}\n",
		     r->dir, r->shift, r->mask, r->val, r->next, j);
		break;
	case 1:  /* idle for a while */
		emit("\t\tif (now - t->last > %uu) {\n\t\t\tt->state = %d;\n"
		     "\t\t\tt->flags |= 0x%xu;\n\t\t\tbreak;\n\t\t}\n",
		     c % 200 + 10, r->next, 1u << (c % 7));
		break;
	case 2:  /* enough bytes one way: a bulk transfer */
		emit("\t\tif (t->bytes[%d] > %uu && !(t->flags & 0x80u)) {\n"
		     "\t\t\tcls = %u;\n\t\t\tt->flags |= 0x80u;\n\t\t}\n",
		     r->dir, c % 60000 + 1000, c % 6 + 1);
		break;
	case 3:  /* lopsided: mostly answers */
		emit("\t\tif (t->bytes[1] > t->bytes[0] * %uu && t->msgs[1] > %u) {\n"
		     "\t\t\tcls = %u;\n\t\t\tt->state = %d;\n\t\t\tbreak;\n\t\t}\n",
		     c % 8 + 2, c % 6, (c >> 8) % 6 + 1, r->next);
		break;
	case 4:  /* smoothed message size */
		emit("\t\tt->v[%u] = (t->v[%u] * 7 + len) >> 3;\n"
		     "\t\tif (t->v[%u] > %uu)\n\t\t\tcls = %u;\n",
		     j, j, j, c % 1200 + 64, (c >> 4) % 6 + 1);
		break;
	default:  /* the parser's own verdict */
		emit("\t\tif (r->cls == %uu) {\n\t\t\tt->state = %d;\n"
		     "\t\t\tt->msgs[dir] += %u;\n\t\t\tbreak;\n\t\t}\n",
		     c % 7, r->next, c % 3);
		break;
	}
}

void emit_tracker(int a)
{
	const struct app *p = &apps[a];
	int s, k;

	emit("unsigned fp_app%d_track(struct app_track *t, const struct app_res *r,\n"
	     "\t\t\tunsigned dir, uint32_t len, uint32_t now)\n{\n"
	     "\tunsigned cls = 0;\n\n\tt->msgs[dir]++;\n"
	     "\tt->bytes[dir] += len;\n\tswitch (t->state) {\n", a);
	for (s = 0; s < p->nstates; s++) {
		emit("\tcase %d:\n", s);
		for (k = 0; k < p->ts[s].nrules; k++)
			emit_trule(&p->ts[s].r[k]);
		emit("\t\tbreak;\n");
	}
	emit("\tdefault:\n\t\tt->state = 0;\n\t\tbreak;\n\t}\n"
	     "\tt->last = now;\n\treturn cls;\n}\n\n");
}

void emit_prototypes(int a)
{
	emit("int fp_app%d_c2s(const uint8_t *p, uint32_t n, struct app_res *r);\n"
	     "int fp_app%d_s2c(const uint8_t *p, uint32_t n, struct app_res *r);\n"
	     "unsigned fp_app%d_track(struct app_track *t, const struct app_res *r,\n"
	     "\t\t\tunsigned dir, uint32_t len, uint32_t now);\n", a, a, a);
}

void emit_registry(void)
{
	int i, proto;

	emit("/* Generated by mkapps: the helper registry and port lookup. */\n"
	     "#include \"fp_int.h\"\n#include \"fp_mem.h\"\n\n");
	for (i = 0; i < napps; i++)
		emit_prototypes(i);
	emit("\nconst struct app_ops fp_apps[] = {\n");
	for (i = 0; i < napps; i++)
		emit("\t{ { fp_app%d_c2s, fp_app%d_s2c }, fp_app%d_track, %d, %d, %d },\n",
		     i, i, i, apps[i].proto, apps[i].port, apps[i].dscp);
	emit("};\n\nconst unsigned fp_napps = %d;\n\n"
	     "/* Helper id + 1 of a server port, 0 for none. */\n"
	     "unsigned fp_app_lookup(unsigned proto, unsigned port)\n{\n", napps);
	for (proto = 6; proto <= 17; proto += 11) {
		emit("\tif (proto == %d) {\n\t\tswitch (port) {\n", proto);
		for (i = 0; i < napps; i++)
			if (apps[i].proto == proto)
				emit("\t\tcase %d:\n\t\t\treturn %d;\n",
				     apps[i].port, i + 1);
		emit("\t\tdefault:\n\t\t\treturn 0;\n\t\t}\n\t}\n");
	}
	emit("\treturn 0;\n}\n");
}

static void emit_field_data(int a, int d, int k, const struct field *f)
{
	int i;

	if (f->kind == FK_ENUM8 || f->kind == FK_TLV || f->kind == FK_BITS8) {
		emit("static const uint8_t s%d_%d_%d[] = {", a, d, k);
		for (i = 0; i < f->n; i++)
			emit(" %u,", f->set[i]);
		emit(" };\n");
	}
	if (f->kind == FK_TLV || f->kind == FK_HDRS) {
		emit("static const uint8_t k%d_%d_%d[] = {", a, d, k);
		for (i = 0; i < f->n; i++)
			emit(" %u,", f->kinds[i]);
		emit(" };\n");
	}
	if (f->kind == FK_TOKEN || f->kind == FK_HDRS) {
		emit("static const char *const w%d_%d_%d[] = {", a, d, k);
		for (i = 0; i < f->n; i++)
			emit(" \"%s\",", f->words[i]);
		emit(" };\n");
	}
}

void emit_tables(void)
{
	int a, d, k;

	emit("/* Generated by mkapps: the grammars, for the generator. */\n"
	     "#include <stddef.h>\n\n#include \"apps.h\"\n\n");
	for (a = 0; a < napps; a++) {
		for (d = 0; d < 2; d++) {
			const struct msg *m = &apps[a].m[d];

			for (k = 0; k < m->nfields; k++)
				emit_field_data(a, d, k, &m->f[k]);
			emit("static const struct app_field f%d_%d[] = {\n", a, d);
			for (k = 0; k < m->nfields; k++) {
				const struct field *f = &m->f[k];
				int set = f->kind == FK_ENUM8 ||
					  f->kind == FK_TLV ||
					  f->kind == FK_BITS8;
				int kinds = f->kind == FK_TLV ||
					    f->kind == FK_HDRS;
				int words = f->kind == FK_TOKEN ||
					    f->kind == FK_HDRS;

				emit("\t{ %d, %d, %d, %d, %d, 0x%xu, 0x%xu, ",
				     f->kind, f->n, f->cls, f->lo, f->hi,
				     f->val, f->aux);
				if (set)
					emit("s%d_%d_%d, ", a, d, k);
				else
					emit("NULL, ");
				if (kinds)
					emit("k%d_%d_%d, ", a, d, k);
				else
					emit("NULL, ");
				if (words)
					emit("w%d_%d_%d },\n", a, d, k);
				else
					emit("NULL },\n");
			}
			emit("};\n");
		}
	}
	emit("\nconst struct app_desc app_descs[] = {\n");
	for (a = 0; a < napps; a++) {
		const struct app *p = &apps[a];

		emit("\t{ %d, %d, %d, %d, %uu, { %d, %d }, { %d, %d }, "
		     "{ %d, %d },\n\t  { { %d, f%d_0 }, { %d, f%d_1 } } },\n",
		     p->proto, p->kind, p->dscp, p->port, p->weight,
		     p->rounds[0], p->rounds[1], p->resp[0], p->resp[1],
		     p->fill[0], p->fill[1], p->m[0].nfields, a,
		     p->m[1].nfields, a);
	}
	emit("};\n\nconst unsigned app_ndescs = %d;\n", napps);
}
