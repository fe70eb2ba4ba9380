/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * insncount: a QEMU TCG plugin that counts the guest instructions executed
 * (all vCPUs) and publishes the running total, so measure.sh can read the
 * count before and after an iperf3 run and report guest instructions per
 * forwarded byte. TCG models no caches or pipelines, so this count is what
 * emulated throughput follows; it is steadier than Mbit/s on a shared host.
 *
 * Counting: an inline 64-bit add of the block's instruction count, attached
 * to every translated block when it executes (QEMU's plugin API, version
 * 1, QEMU 7.2). A block left early by an exception still adds its full
 * length: an overcount of a few instructions per exception.
 *
 * Publishing: a thread writes the total as a decimal line to OUT.tmp and
 * renames it to OUT every 10 ms (a reader never sees a torn line), and the
 * final total at exit. Argument: out=PATH (QEMU keeps `file=` for the
 * plugin's own path).
 *
 * Build: gcc -shared -fPIC -I<qemu source>/include/qemu \
 *        $(pkg-config --cflags glib-2.0) -o insncount.so insncount.c
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <qemu-plugin.h>

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

static uint64_t count; /* added to by TCG-generated code */
static char *out_path, *tmp_path;
static pthread_t writer;
static volatile int stop;

static void publish(void)
{
	FILE *f = fopen(tmp_path, "w");

	if (!f)
		return;
	fprintf(f, "%" PRIu64 "\n", __atomic_load_n(&count, __ATOMIC_RELAXED));
	if (fclose(f) == 0)
		rename(tmp_path, out_path);
}

static void *write_loop(void *arg)
{
	const struct timespec ten_ms = { 0, 10 * 1000 * 1000 };

	(void)arg;
	while (!stop) {
		publish();
		nanosleep(&ten_ms, NULL);
	}
	return NULL;
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	(void)id;
	qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64, &count,
						 qemu_plugin_tb_n_insns(tb));
}

static void at_exit(qemu_plugin_id_t id, void *p)
{
	(void)id;
	(void)p;
	stop = 1;
	pthread_join(writer, NULL);
	publish();
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
					   int argc, char **argv)
{
	(void)info;
	for (int i = 0; i < argc; i++)
		if (!strncmp(argv[i], "out=", 4))
			out_path = strdup(argv[i] + 4);
	if (!out_path) {
		fprintf(stderr, "insncount: needs out=PATH\n");
		return -1;
	}
	tmp_path = malloc(strlen(out_path) + 5);
	if (!tmp_path)
		return -1;
	strcpy(tmp_path, out_path);
	strcat(tmp_path, ".tmp");
	if (pthread_create(&writer, NULL, write_loop, NULL) != 0)
		return -1;
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
