/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tuner profile: where the modelled cycles go, function by function. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd.h"
#include "formats/elfsym.h"
#include "formats/uarch_blocks.h"
#include "tuner/outfmt.h"
#include "tuner/uarch_score.h"
#include "tuner/util.h"

const char profile_usage[] =
	"usage: tuner profile (--study STUDY.yaml | --preset NAME) [--set KEY=VALUE]...\n"
	"                     [--elf FILE] [--packets N] [--top N] [--csv] BLOCKS|DIR\n\n"
	"Where the MODELLED cycles go, function by function, as `perf report` shows a\n"
	"router's: the uarch plugin's per-block counters (its blocks=on file; the\n"
	"kernel model keeps it as model.blocks.RUN in the build directory) folded\n"
	"into the functions of an ELF file's symbol table and weighed with a modelled\n"
	"core's penalties (the formula of `tuner uarch`). A MODEL, not a measurement.\n\n"
	"BLOCKS is such a file; DIR a build directory: its model.blocks.* of the\n"
	"lowest run on the local testbed, and its vmlinux. For model.blocks.RUN\n"
	"(or .TESTBED.RUN) the packets are the last packets=N of measure-local.log\n"
	"(or measure-TESTBED.log) beside it.\n\n"
	"  --study S     the penalties and machine of S's measure.uarch\n"
	"  --preset P    a preset's (cortex-a9, bcm47094, 1004k, mt7621, cachegrind)\n"
	"  --set K=V     change one key after that (repeatable)\n"
	"  --elf FILE    the program or kernel whose symbols name the code\n"
	"                (default with DIR: DIR/vmlinux)\n"
	"  --packets N   per packet figures (default: the measure log's)\n"
	"  --top N       the N functions with the most cycles (default 15; 0: all)\n"
	"  --csv         CSV, one row per function, every function\n"
	"  -h, --help    this text\n\n"
	"Each row: the share of all modelled cycles of the counted code, cycles,\n"
	"instructions, L1 I, L1 D and L2 misses, mispredicts, device accesses and\n"
	"cache maintenance operations (per packet, or in all without --packets),\n"
	"and in --csv also the fetch groups split at a line end and executions,\n"
	"and the symbol. A block is its first byte's function's; code in no symbol\n"
	"is [unknown].\n"
	"Exit status: 0 printed, 1 a file could not be read, 2 usage.\n";

struct row {
	const struct ua_func_cost *f;
	struct ua_cost cost;
};

static int cmp_row(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	if (x->cost.total != y->cost.total)
		return x->cost.total < y->cost.total ? 1 : -1;
	return strcmp(x->f->name, y->f->name);
}

static int is_file(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* A symbol name for a terminal: bytes below 0x20 and 0x7f as '?'. */
static void put_name(const char *s)
{
	for (; *s; s++)
		putchar((unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s);
	putchar('\n');
}

/* The lowest-numbered model.blocks.RUN of dir, or NULL; caller frees. */
static char *find_blocks(const char *dir)
{
	for (int run = 0; run < 1000; run++) {
		char *p = xasprintf("%s/model.blocks.%d", dir, run);

		if (is_file(p))
			return p;
		free(p);
	}
	return NULL;
}

/* The packets=N of the run whose blocks file is path (model.blocks.SUFFIX:
 * the last packets line of the measure log beside it); 0 if none. */
static double run_packets(const char *path)
{
	const char *base = strrchr(path, '/');
	char *dir, *line;
	double v = 0;

	base = base ? base + 1 : path;
	if (strncmp(base, "model.blocks.", 13))
		return 0;
	dir = path_dirname(path);
	line = cmd_kernel_packets_line(dir, base + 13);
	if (line)
		v = strtod(line + 8, NULL);
	free(line);
	free(dir);
	return v > 0 ? v : 0;
}

static void print_rows(const struct row *r, size_t n, size_t top, double total, double per,
		       int csv)
{
	if (csv)
		printf("function,address,share,cycles,insns,l1i_misses,l1d_misses,l2_misses,"
		       "mispredicts,device,maint,fetch_splits,executions\n");
	else
		printf("%8s %11s %10s %8s %8s %8s %8s %8s %8s  %s\n", "share", "cycles", "insns",
		       "L1I", "L1D", "L2", "mispred", "device", "maint", "function");
	for (size_t i = 0; i < n && (csv || !top || i < top); i++) {
		const struct ua_counters *c = &r[i].f->cnt;
		double mp = (double)(c->mp_direction + c->mp_btb + c->mp_target + c->mp_return);
		double l1d = (double)(c->l1d_read_miss + c->l1d_write_miss);
		double l2 = (double)(c->l2i_miss + c->l2d_miss);
		double io = (double)(c->io_read + c->io_write), mt = (double)(c->maint_l1 + c->maint_l2);
		double share = total > 0 ? r[i].cost.total / total * 100 : 0;

		if (csv) {
			struct strbuf sb = STRBUF_INIT;

			outfmt_csv_quoted(&sb, r[i].f->name);
			printf("%s,0x%llx,%.4f,%.3f,%.3f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%llu\n",
			       strbuf_str(&sb), (unsigned long long)r[i].f->addr, share,
			       r[i].cost.total, (double)c->insns / per, (double)c->l1i_miss / per,
			       l1d / per, l2 / per, mp / per, io / per, mt / per,
			       (double)c->fetch_split / per, (unsigned long long)r[i].f->execs);
			strbuf_release(&sb);
			continue;
		}
		printf("%7.2f%% %11.1f %10.1f %8.2f %8.2f %8.2f %8.2f %8.2f %8.2f  ", share,
		       r[i].cost.total, (double)c->insns / per, (double)c->l1i_miss / per, l1d / per,
		       l2 / per, mp / per, io / per, mt / per);
		put_name(r[i].f->name);
	}
}

int cmd_profile(int argc, char **argv)
{
	static const struct option longopts[] = {
		CMD_UARCH_LONGOPTS,
		{ "elf", required_argument, NULL, 'e' },
		{ "packets", required_argument, NULL, 'n' },
		{ "top", required_argument, NULL, 't' },
		{ "csv", no_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct uarch_choice ch = { NULL, NULL, NULL, 0, 0 };
	const char *elf = NULL;
	size_t nsets, nblocks = 0, nsyms = 0, nf = 0;
	uint64_t top = 15;
	double packets = 0;
	struct ua_config cfg;
	struct ua_block *blocks = NULL;
	struct elf_func *syms = NULL;
	struct ua_func_cost *funcs = NULL;
	struct row *rows = NULL;
	char *blocks_path = NULL, *elf_path = NULL, *text = NULL;
	size_t len;
	int csv = 0, c, ret = EXIT_USAGE;

	if (cmd_wants_help(argc, argv, profile_usage))
		return EXIT_OK;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		if (cmd_uarch_option(&ch, c, optarg))
			continue;
		switch (c) {
		case 'e':
			elf = optarg;
			break;
		case 'n':
			if (parse_double(&packets, optarg) < 0 || !(packets > 0)) {
				fprintf(stderr, "tuner: profile: --packets '%s' is not a number above 0\n",
					optarg);
				goto out;
			}
			break;
		case 't':
			if (parse_u64(&top, optarg) < 0) {
				fprintf(stderr, "tuner: profile: --top '%s' is not a count\n", optarg);
				goto out;
			}
			break;
		case 'c':
			csv = 1;
			break;
		case ':':
			fprintf(stderr, "tuner: profile: %s needs a value\n", argv[optind - 1]);
			goto out;
		default:
			fprintf(stderr, "tuner: profile: unknown option '%s' (see 'tuner profile "
					"--help')\n", argv[optind - 1]);
			goto out;
		}
	}
	nsets = ch.nsets;
	if (cmd_uarch_config(&cfg, &ch, "profile") < 0)
		goto out;
	if (optind != argc - 1) {
		fprintf(stderr, "tuner: profile: give one blocks file or build directory (see "
				"'tuner profile --help')\n");
		goto out;
	}
	ret = EXIT_FAIL;
	if (is_file(argv[optind])) {
		blocks_path = xstrdup(argv[optind]);
	} else if (!(blocks_path = find_blocks(argv[optind]))) {
		fprintf(stderr, "tuner: profile: no model.blocks.* in '%s' (the plugin writes it "
				"with blocks=on)\n", argv[optind]);
		goto out;
	} else {
		if (!elf)
			elf_path = xasprintf("%s/vmlinux", argv[optind]);
	}
	if (!packets)
		packets = run_packets(blocks_path);
	if (!elf && !elf_path) {
		fprintf(stderr, "tuner: profile: --elf names the program whose symbols name the "
				"code\n");
		ret = EXIT_USAGE;
		goto out;
	}
	if (!elf_path)
		elf_path = xstrdup(elf);
	if (read_file(&text, &len, blocks_path) < 0 ||
	    ua_blocks_parse(&blocks, &nblocks, text, len, blocks_path) < 0 ||
	    elfsym_functions(&syms, &nsyms, elf_path) < 0) {
		fprintf(stderr, "tuner: profile: %s\n", tn_errmsg());
		goto out;
	}
	nf = ua_blocks_by_function(&funcs, blocks, nblocks, syms, nsyms);
	rows = xcalloc(nf ? nf : 1, sizeof(*rows));
	{
		double total = 0, per = packets > 0 ? packets : 1;

		for (size_t i = 0; i < nf; i++) {
			rows[i].f = &funcs[i];
			ua_cost_of(&rows[i].cost, &cfg, &funcs[i].cnt, per);
			total += rows[i].cost.total;
		}
		qsort(rows, nf, sizeof(*rows), cmp_row);
		if (!csv)
			printf("MODELLED (%s%s): %zu functions, %zu blocks; %.1f modelled cycles %s "
			       "in the counted code\n",
			       cfg.preset, nsets ? " changed" : "", nf, nblocks, total,
			       packets > 0 ? "per packet" : "in all (no --packets)");
		print_rows(rows, nf, (size_t)top, total, per, csv);
	}
	ret = EXIT_OK;
out:
	free(rows);
	free(funcs);
	free(blocks);
	if (syms)
		elfsym_free(syms, nsyms);
	free(text);
	free(blocks_path);
	free(elf_path);
	free(ch.sets);
	return ret;
}
