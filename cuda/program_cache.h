/*-------------------------------------------------------------------------
 *
 * program_cache.h
 *	  The prepared programs a device column keeps for the queries that
 *	  come again (internal to cuda/; the cache itself:
 *	  kernel_prep/prepared_cache.h).
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_PROGRAM_CACHE_H
#define GPULIKE_PROGRAM_CACHE_H

#include "device_column.h"
#include "kernel_prep/prepared_cache.h"

/*
 * prog prepared for the parts of dcol (a head part) with choices, from the
 * column's cache or prepared now for the smallest shared memory of the
 * parts' devices and cached, lent to the caller until it gives it back;
 * false with a message if prog is malformed or a CUDA call fails (nothing
 * is lent then).  Safe from several threads at once.
 */
extern bool gl_program_cache_lookup(GlDeviceColumn *dcol, const GlProgram *prog,
									const GlPrepareChoices *choices, GlCachedProgram *out,
									char *errbuf, size_t errlen);

/* Give back what a lookup on dcol (a head part) lent (gl_prepared_cache_release()). */
extern void gl_program_cache_release(GlDeviceColumn *dcol, GlCachedProgram *cp,
									 bool walk_gave_up);

#endif							/* GPULIKE_PROGRAM_CACHE_H */
