/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The fuzz targets' input as a file: a memfd holding the bytes, named
 * /proc/self/fd/N, since the study loader and the journal read paths.
 */
#ifndef TUNER_FUZZ_INPUT_H
#define TUNER_FUZZ_INPUT_H

#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

/* Fills the target's memfd with data and returns its path (static
 * buffer); traps when the memfd cannot be made. */
static const char *fuzz_input_path(const uint8_t *data, size_t size, const char *name)
{
	static int fd = -1;
	static char path[64];
	size_t done = 0;

	if (fd < 0) {
		fd = memfd_create(name, 0);
		if (fd < 0)
			__builtin_trap();
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	}
	if (ftruncate(fd, 0) < 0)
		__builtin_trap();
	while (done < size) {
		ssize_t n = pwrite(fd, data + done, size - done, (off_t)done);

		if (n <= 0)
			__builtin_trap();
		done += (size_t)n;
	}
	return path;
}

#endif
