// SPDX-License-Identifier: GPL-2.0
/*
 * guest-exit: end the QEMU guest with an exit status, through the
 * isa-debug-exit device the harness gives QEMU
 * (-device isa-debug-exit,iobase=0xf4,iosize=0x04). Writing V to the port
 * makes QEMU exit with status (V << 1) | 1, so the host gets 2 * CODE + 1.
 *
 * Usage: guest-exit CODE	(0 <= CODE <= 127)
 *
 * Returns only if the port did nothing (no such device): the caller then
 * falls back to another way out.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/io.h>

#define DEBUG_EXIT_PORT 0xf4

int main(int argc, char **argv)
{
	int code = argc > 1 ? atoi(argv[1]) : 0;

	if (code < 0 || code > 127)
		code = 127;
	if (ioperm(DEBUG_EXIT_PORT, 4, 1)) {
		perror("guest-exit: ioperm");
		return 1;
	}
	outb(code, DEBUG_EXIT_PORT);
	fprintf(stderr, "guest-exit: QEMU did not exit (no isa-debug-exit?)\n");
	return 1;
}
