/*-------------------------------------------------------------------------
 *
 * tap.h
 *	  A minimal TAP producer for the C unit tests (test/unit/NAME_test.c).
 *
 *	  tap_ok(cond, "what was checked %d", n);	-- "ok N - ..." / "not ok N - ..."
 *	  return tap_done();						-- prints "1..N", exit status
 *
 * Header-only, so each test is one self-contained file.
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_TAP_H
#define GPULIKE_TAP_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

static int	tap_count = 0;
static int	tap_failed = 0;

static bool
tap_ok(bool cond, const char *fmt,...)
{
	va_list		ap;

	tap_count++;
	if (!cond)
		tap_failed++;
	printf("%sok %d - ", cond ? "" : "not ", tap_count);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	return cond;
}

/* A diagnostic line (TAP comment). */
static void
tap_diag(const char *fmt,...)
{
	va_list		ap;

	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

static int
tap_done(void)
{
	printf("1..%d\n", tap_count);
	if (tap_failed)
		printf("# %d of %d failed\n", tap_failed, tap_count);
	return tap_failed ? 1 : 0;
}

#endif							/* GPULIKE_TAP_H */
