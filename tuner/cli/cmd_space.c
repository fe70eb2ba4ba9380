/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tuner space: a compiler's optimisation switches as a study's space. */
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "cmd_numbers.h"
#include "tuner/gccspace.h"
#include "tuner/guard.h"
#include "tuner/runner.h"
#include "tuner/space.h"
#include "tuner/study.h"
#include "tuner/util.h"

const char space_usage[] =
	"usage: tuner space --gcc CC [LEVEL] [--params] [--unsafe] [--exclude GLOB]...\n"
	"                   [--only GLOB]... [--format yaml|json] [--study FILE]\n\n"
	"Asks a GCC (a cross compiler as well) for its own list of optimisation\n"
	"switches at LEVEL ('CC -Q --help=optimizers LEVEL') and prints them as a\n"
	"study's space: the level, then one dimension per switch whose first value,\n"
	"\"\", keeps LEVEL's own setting and whose others change it (-fno-X where\n"
	"LEVEL has -fX on, -fX where it is off, each other choice of an enumerated\n"
	"option, -falign-X=16, 32 and 64). Left out, and named in the output's\n"
	"header with the reason: switches that can change what a correct program\n"
	"does or how it meets other code (floating point, aliasing and overflow\n"
	"rules, ABI, exceptions, hardening, profiles), options that are not for C\n"
	"or take a value with no sensible list, and values GCC ignores at LEVEL.\n"
	"docs/space.md has the lists and the reasons.\n\n"
	"  --gcc CC        the compiler: a name on PATH or a path; words after the\n"
	"                  first, split at spaces with no quoting, go before the\n"
	"                  options ('ccache gcc', 'arm-linux-gnueabihf-gcc -mthumb')\n"
	"  LEVEL           -O0, -O1, -O2 (default), -O3, -Os, -Oz; -Ofast with --unsafe\n"
	"  --params        also a dimension per --param ('CC -Q --help=params LEVEL'):\n"
	"                  for a default v, floor(v/2) and 2v within the param's range\n"
	"  --unsafe        keep the switches that can change what the program does\n"
	"  --exclude GLOB  leave out the options GLOB matches (fnmatch; repeatable):\n"
	"                  'tree-*' is matched against the name without -f, -fno-, -m\n"
	"                  or --param=, '-f*' (a leading '-') against the option\n"
	"  --only GLOB     keep only the options some GLOB matches (repeatable)\n"
	"  --format F      yaml (default: a commented `space:` block to paste into a\n"
	"                  study) or json\n"
	"  --study FILE    print the study FILE with its space replaced (yaml)\n"
	"  -h, --help      this text\n\n"
	"stderr gets one line: the dimensions and the number of configurations.\n"
	"Exit status: 0 done, 1 the compiler could not be run, failed or printed no\n"
	"listing, 2 usage.\n";

/* How long CC may take to list its options. */
#define CC_TIMEOUT 60

struct globs {
	const char **v;
	size_t n, alloc;
};

struct opts {
	const char *cc, *level, *study;
	int params, unsafe, json;
	struct globs exclude, only;
	char **words; /* cc split, NULL-terminated */
	size_t nwords;
};

static void add_glob(struct globs *g, const char *s)
{
	ALLOC_GROW(g->v, g->n + 1, g->alloc);
	g->v[g->n++] = s;
}

/* CC at spaces and tabs into o->words. */
static void split_cc(struct opts *o)
{
	const char *p = o->cc;
	size_t alloc = 0;

	for (;;) {
		size_t len;

		p += strspn(p, " \t");
		if (!*p)
			break;
		len = strcspn(p, " \t");
		ALLOC_GROW(o->words, o->nwords + 2, alloc);
		o->words[o->nwords++] = xstrndup(p, len);
		p += len;
	}
	ALLOC_GROW(o->words, o->nwords + 1, alloc);
	o->words[o->nwords] = NULL;
}

static void opts_release(struct opts *o)
{
	for (size_t i = 0; i < o->nwords; i++)
		free(o->words[i]);
	free(o->words);
	free(o->exclude.v);
	free(o->only.v);
}

static int usage_error(const char *msg, const char *arg)
{
	fprintf(stderr, "tuner: space: ");
	fprintf(stderr, msg, arg);
	fprintf(stderr, " (see 'tuner space --help')\n");
	return EXIT_USAGE;
}

/* Takes LEVEL (a word "-O...", which getopt would read as options) out of
 * argv into o->level. */
static int take_level(struct opts *o, int *argc, char **argv)
{
	static const char *const with_value[] = { "--gcc", "--exclude", "--only", "--format",
						  "--study" };
	int k = 1;

	for (int i = 1; i < *argc; i++) {
		if (!strcmp(argv[i], "--")) {
			while (i < *argc)
				argv[k++] = argv[i++];
			break;
		}
		if (!strncmp(argv[i], "-O", 2)) {
			if (o->level)
				return usage_error("one level, not '%s' and another", argv[i]);
			o->level = argv[i];
			continue;
		}
		argv[k++] = argv[i];
		for (size_t w = 0; w < ARRAY_SIZE(with_value); w++)
			if (!strcmp(argv[i], with_value[w]) && i + 1 < *argc) {
				argv[k++] = argv[++i];
				break;
			}
	}
	*argc = k;
	return 0;
}

static int parse_options(struct opts *o, int argc, char **argv)
{
	enum { OPT_GCC = 3000, OPT_PARAMS, OPT_UNSAFE, OPT_EXCLUDE, OPT_ONLY, OPT_FORMAT,
	       OPT_STUDY };
	static const struct option longopts[] = {
		{ "gcc", required_argument, NULL, OPT_GCC },
		{ "params", no_argument, NULL, OPT_PARAMS },
		{ "unsafe", no_argument, NULL, OPT_UNSAFE },
		{ "exclude", required_argument, NULL, OPT_EXCLUDE },
		{ "only", required_argument, NULL, OPT_ONLY },
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ "study", required_argument, NULL, OPT_STUDY },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, ret = take_level(o, &argc, argv);

	if (ret)
		return ret;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_GCC:
			o->cc = optarg;
			break;
		case OPT_PARAMS:
			o->params = 1;
			break;
		case OPT_UNSAFE:
			o->unsafe = 1;
			break;
		case OPT_EXCLUDE:
			add_glob(&o->exclude, optarg);
			break;
		case OPT_ONLY:
			add_glob(&o->only, optarg);
			break;
		case OPT_FORMAT:
			if (strcmp(optarg, "yaml") && strcmp(optarg, "json"))
				return usage_error("--format is yaml or json, not '%s'", optarg);
			o->json = !strcmp(optarg, "json");
			break;
		case OPT_STUDY:
			o->study = optarg;
			break;
		case ':':
			return usage_error("%s needs a value", argv[optind - 1]);
		default:
			return usage_error("unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		return usage_error("unexpected '%s': the level is -O0 .. -O3, -Os, -Oz or -Ofast",
				   argv[optind]);
	if (!o->cc)
		return usage_error("which compiler? --gcc CC is required%s", "");
	split_cc(o);
	if (!o->nwords)
		return usage_error("--gcc needs a compiler, not '%s'", o->cc);
	if (!o->level)
		o->level = "-O2";
	if (gccspace_level_check(o->level, o->unsafe) < 0)
		return usage_error("%s", tn_errmsg());
	if (o->study && o->json)
		return usage_error("--study prints a study (YAML), not %s", "--format json");
	return 0;
}

/* ---- Running the compiler ---- */

/* word, quoted for a shell when it needs it; into sb. */
static void add_word(struct strbuf *sb, const char *word)
{
	if (*word && !word[strcspn(word, " \t'\"\\$`*?[]#;&|<>(){}!~")]) {
		strbuf_addstr(sb, word);
		return;
	}
	strbuf_addch(sb, '\'');
	for (const char *p = word; *p; p++)
		strbuf_addstr(sb, *p == '\'' ? "'\\''" : (char[]){ *p, 0 });
	strbuf_addch(sb, '\'');
}

/* The last line of text that is not blank, at most 200 bytes; malloced,
 * or NULL. */
static char *last_line(const char *text)
{
	const char *end = text + strlen(text), *start;

	while (end > text && (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' '))
		end--;
	if (end == text)
		return NULL;
	start = end;
	while (start > text && start[-1] != '\n')
		start--;
	return xstrndup(start, (size_t)(end - start) < 200 ? (size_t)(end - start) : 200);
}

/*
 * Runs CC's words and then args (NULL-terminated) in the C locale, so the
 * listing is GCC's English, in a process group of its own with a timeout;
 * its stdout into *out (malloced). 0, or -1 with a message: it could not
 * start, timed out, was interrupted, or failed (with its last line).
 */
static int run_cc(char **out, const struct opts *o, const char *const *args)
{
	const char *env[] = { "LC_ALL=C", NULL };
	const char *tmp = getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	struct runner_opts ro = RUNNER_OPTS_INIT;
	struct runner r = RUNNER_INIT;
	struct strbuf cmd = STRBUF_INIT;
	const char **argv = xcalloc(o->nwords + 8, sizeof(*argv));
	char *log = xasprintf("%s/tuner-space-XXXXXX", tmp), *text = NULL, *line = NULL;
	size_t n = 0, len;
	int fd, ret = -1;

	*out = NULL;
	for (size_t i = 0; i < o->nwords; i++)
		argv[n++] = o->words[i];
	for (size_t i = 0; args[i]; i++)
		argv[n++] = args[i];
	for (size_t i = 0; i < n; i++) {
		if (i)
			strbuf_addch(&cmd, ' ');
		add_word(&cmd, argv[i]);
	}
	fd = mkstemp(log);
	if (fd < 0) {
		tn_error_errno("cannot create '%s'", log);
		free(log);
		log = NULL;
		goto out;
	}
	close(fd);
	ro.argv = argv;
	ro.env = env;
	ro.capture = 1;
	ro.capture_max = (size_t)16 << 20;
	ro.timeout = CC_TIMEOUT;
	ro.log_path = log;
	if (runner_run(&r, &ro) < 0)
		goto out;
	if (r.result.cancelled) {
		tn_error("'%s' interrupted", strbuf_str(&cmd));
		goto out;
	}
	if (r.result.timed_out) {
		tn_error("'%s' gave no answer within %d s", strbuf_str(&cmd), CC_TIMEOUT);
		goto out;
	}
	if (r.result.status) {
		if (read_file(&text, &len, log) == 0)
			line = last_line(text);
		tn_error("'%s' failed (exit %d)%s%s", strbuf_str(&cmd), r.result.status,
			 line ? ": " : "", line ? line : "");
		goto out;
	}
	if (r.result.out_truncated) {
		tn_error("'%s' printed more than %zu bytes: not a listing", strbuf_str(&cmd),
			 ro.capture_max);
		goto out;
	}
	*out = xstrdup(r.result.out ? r.result.out : "");
	ret = 0;
out:
	runner_release(&r);
	if (log)
		unlink(log);
	free(log);
	free(text);
	free(line);
	free(argv);
	strbuf_release(&cmd);
	return ret;
}

/* ---- Printing ---- */

/* How many dimensions have each number of values: "2^140 x 3^8 x 5^3". */
static char *factors(const struct gccspace *g)
{
	struct strbuf sb = STRBUF_INIT;
	size_t most = 0;

	for (size_t i = 0; i < g->ndims; i++)
		if (g->dims[i].nvalues > most)
			most = g->dims[i].nvalues;
	for (size_t v = 2; v <= most; v++) {
		size_t n = 0;

		for (size_t i = 0; i < g->ndims; i++)
			n += g->dims[i].nvalues == v;
		if (!n)
			continue;
		strbuf_addf(&sb, "%s%zu", sb.len ? " x " : "", v);
		if (n > 1)
			strbuf_addf(&sb, "^%zu", n);
	}
	if (!sb.len)
		strbuf_addstr(&sb, "1");
	return strbuf_detach(&sb);
}

/* The command that made the space, as a shell would take it back. */
static char *command_line(const struct opts *o)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, "tuner space --gcc ");
	add_word(&sb, o->cc);
	strbuf_addf(&sb, " %s%s%s", o->level, o->params ? " --params" : "",
		    o->unsafe ? " --unsafe" : "");
	for (size_t i = 0; i < o->exclude.n; i++) {
		strbuf_addstr(&sb, " --exclude ");
		add_word(&sb, o->exclude.v[i]);
	}
	for (size_t i = 0; i < o->only.n; i++) {
		strbuf_addstr(&sb, " --only ");
		add_word(&sb, o->only.v[i]);
	}
	return strbuf_detach(&sb);
}

/* Appends words to sb as comment lines of at most about 100 columns. */
static void add_wrapped(struct strbuf *sb, const char *const *words, size_t n)
{
	size_t col = 0;

	for (size_t i = 0; i < n; i++) {
		if (!col || col + 1 + strlen(words[i]) > 100) {
			strbuf_addstr(sb, col ? "\n#  " : "#  ");
			col = 3;
		}
		strbuf_addf(sb, " %s", words[i]);
		col += 1 + strlen(words[i]);
	}
	if (col)
		strbuf_addch(sb, '\n');
}

/* The comment above the space: what made it, how big it is, and what was
 * left out, reason by reason. */
static char *header(const struct opts *o, const struct gccspace *g, const char *version,
		    const char *exact, const char *fact)
{
	struct strbuf sb = STRBUF_INIT;
	const char **words = xcalloc(g->nleft + 1, sizeof(*words));
	char *cmd = command_line(o);

	strbuf_addf(&sb, "# The optimisation switches of %s at %s as a study's space:\n", o->cc,
		    o->level);
	strbuf_addf(&sb, "# %s (docs/space.md).\n", cmd);
	strbuf_addf(&sb, "# compiler: %s\n", version);
	strbuf_addf(&sb, "# Each dimension's first value, \"\", keeps %s's own setting.\n",
		    o->level);
	strbuf_addf(&sb, "# %zu switch dimensions, %zu param dimensions: %s configurations,\n"
		    "# exactly %s", g->nswitch, g->nparam, fact, exact);
	if (strlen(exact) > 4)
		strbuf_addstr(&sb, ": a run takes a budget of them,\n"
			      "# e.g. search: {strategy: random, budget: 100}");
	strbuf_addstr(&sb, ".\n");
	for (int why = 0; why < GCCSPACE_NWHY; why++) {
		size_t n = 0;

		for (size_t i = 0; i < g->nleft; i++)
			if ((int)g->left[i].why == why)
				words[n++] = g->left[i].option;
		if (!n)
			continue;
		strbuf_addf(&sb, "# Left out, %s%s:\n", gccspace_why_text(why),
			    why <= GCCSPACE_UNSAFE_LAST ? " (--unsafe keeps them)" : "");
		add_wrapped(&sb, words, n);
	}
	free(words);
	free(cmd);
	return strbuf_detach(&sb);
}

static const char *kind_name(enum gccspace_kind k)
{
	return k == GCCSPACE_LEVEL ? "level" : k == GCCSPACE_SWITCH ? "switch" : "param";
}

static void print_json(const struct opts *o, const struct gccspace *g, const char *version,
		       const char *exact)
{
	json_t *root = json_object(), *space = json_object(), *dims = json_array(),
	       *left = json_array(), *cc = json_array();

	for (size_t i = 0; i < o->nwords; i++)
		json_array_append_new(cc, json_string(o->words[i]));
	for (size_t i = 0; i < g->ndims; i++) {
		const struct gccspace_dim *d = &g->dims[i];
		json_t *values = json_array();

		for (size_t k = 0; k < d->nvalues; k++)
			json_array_append_new(values, json_string(d->values[k]));
		json_object_set(space, d->name, values);
		json_array_append_new(dims, json_pack("{s:s, s:s, s:s, s:o}", "name", d->name,
						      "option", d->option, "kind",
						      kind_name(d->kind), "values", values));
	}
	for (size_t i = 0; i < g->nleft; i++)
		json_array_append_new(left, json_pack("{s:s, s:s, s:b}", "option",
						      g->left[i].option, "why",
						      gccspace_why_text(g->left[i].why), "unsafe",
						      g->left[i].why <= GCCSPACE_UNSAFE_LAST));
	json_object_set_new(root, "compiler", json_string(version));
	json_object_set_new(root, "cc", cc);
	json_object_set_new(root, "level", json_string(o->level));
	json_object_set_new(root, "unsafe", json_boolean(o->unsafe));
	json_object_set_new(root, "params", json_boolean(o->params));
	json_object_set_new(root, "switch_dimensions", json_integer((json_int_t)g->nswitch));
	json_object_set_new(root, "param_dimensions", json_integer((json_int_t)g->nparam));
	json_object_set_new(root, "configurations", json_string(exact));
	json_object_set_new(root, "space", space);
	json_object_set_new(root, "dimensions", dims);
	json_object_set_new(root, "left_out", left);
	json_dumpf(root, stdout, JSON_INDENT(2));
	printf("\n");
	json_decref(root);
}

/* Prints the space (or the study with it); 0, or EXIT_FAIL with the
 * message printed. */
static int print_space(const struct opts *o, const struct gccspace *g, const char *version,
		       const char *study)
{
	struct space s = SPACE_INIT;
	char *exact = NULL, *fact = NULL, *about = NULL, *head = NULL, *block = NULL,
	     *both = NULL, *spliced = NULL;
	int ret = EXIT_FAIL;

	for (size_t i = 0; i < g->ndims; i++)
		if (space_add_dimension(&s, g->dims[i].name, (const char *const *)g->dims[i].values,
					g->dims[i].nvalues) < 0) {
			cmd_print_error(tn_errmsg());
			goto out;
		}
	exact = space_size_str(&s, 0);
	fact = factors(g);
	if (o->json) {
		print_json(o, g, version, exact);
	} else {
		head = header(o, g, version, exact, fact);
		block = gccspace_yaml(g);
		both = xasprintf("%s%s", head, block);
		if (study && gccspace_splice(&spliced, study, both) < 0) {
			fprintf(stderr, "tuner: space: %s: %s\n", o->study, tn_errmsg());
			goto out;
		}
		fputs(spliced ? spliced : both, stdout);
	}
	about = cmd_about(exact);
	/* The exact count when it is short; else its size. */
	fprintf(stderr, "tuner: space: %zu switch dimensions, %zu param dimensions, %s%s%s "
		"configurations%s; %zu options left out\n", g->nswitch, g->nparam, fact,
		*about ? "" : " = ", *about ? "" : exact, about, g->nleft);
	ret = EXIT_OK;
out:
	space_release(&s);
	free(exact);
	free(fact);
	free(about);
	free(head);
	free(block);
	free(both);
	free(spliced);
	return ret;
}

int cmd_space(int argc, char **argv)
{
	struct opts o = { 0 };
	struct gccspace g = GCCSPACE_INIT;
	struct gccspace_opts go = GCCSPACE_OPTS_INIT;
	char *version = NULL, *listing = NULL, *params = NULL, *study = NULL, *first = NULL;
	const char *version_args[] = { "--version", NULL };
	const char *opt_args[] = { "-Q", "--help=optimizers", NULL, NULL };
	const char *param_args[] = { "-Q", "--help=params", NULL, NULL };
	size_t len;
	int ret;

	if (cmd_wants_help(argc, argv, space_usage))
		return EXIT_OK;
	ret = parse_options(&o, argc, argv);
	if (ret)
		goto out;
	if (o.study && read_file(&study, &len, o.study) < 0) {
		fprintf(stderr, "tuner: space: %s\n", tn_errmsg());
		ret = EXIT_USAGE;
		goto out;
	}
	opt_args[2] = param_args[2] = o.level;
	cmd_install_signals();
	if (guard_start() < 0) {
		ret = cmd_error();
		goto out;
	}
	if (run_cc(&version, &o, version_args) < 0 || run_cc(&listing, &o, opt_args) < 0 ||
	    (o.params && run_cc(&params, &o, param_args) < 0)) {
		fprintf(stderr, "tuner: space: %s\n", tn_errmsg());
		ret = tn_cancelled() ? EXIT_INTERRUPTED : EXIT_FAIL;
		goto out_guard;
	}
	go.level = o.level;
	go.unsafe = o.unsafe;
	go.exclude = o.exclude.v;
	go.nexclude = o.exclude.n;
	go.only = o.only.v;
	go.nonly = o.only.n;
	if (gccspace_build(&g, listing, params, &go) < 0) {
		fprintf(stderr, "tuner: space: '%s' printed no listing tuner can read: %s\n", o.cc,
			tn_errmsg());
		ret = EXIT_FAIL;
		goto out_guard;
	}
	first = xstrndup(version, strcspn(version, "\n"));
	ret = print_space(&o, &g, first, study);
out_guard:
	guard_stop();
out:
	gccspace_release(&g);
	opts_release(&o);
	free(version);
	free(listing);
	free(params);
	free(study);
	free(first);
	return ret;
}
