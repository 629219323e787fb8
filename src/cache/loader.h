/*-------------------------------------------------------------------------
 *
 * loader.h
 *	  Load one column of one heap table into a registry slot (loader.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_LOADER_H
#define GPULIKE_LOADER_H

#include "utils/relcache.h"

typedef struct GlLoadResult
{
	uint64		rows;			/* tuple versions shipped */
	uint64		bytes;			/* value bytes shipped */
	double		seconds;		/* wall clock */
	double		cpu_seconds;	/* this backend's CPU time (the server's
								 * share of the work is not included) */
	bool		installed;		/* the new copy serves now */
	const char *why_not;		/* if not: why the load was given up */
} GlLoadResult;

/*
 * Load a new copy of rel's column attnum into the slot under generation
 * (registry: gl_registry_new_generation), while writers go on writing; it
 * replaces the slot's serving copy when complete.  Caller holds
 * ShareUpdateExclusiveLock on rel or stronger, has made sure the sync
 * trigger (whose function is sync_function) fires ALWAYS for every writer
 * (loader.c), and undoes the load if its transaction aborts.  byte_limit
 * (0: none) bounds the new copy's host bytes.  Errors are raised; a load
 * the registry gave up meanwhile returns installed = false.
 */
extern GlLoadResult gl_cache_load(Relation rel, AttrNumber attnum, int slot,
								  uint64 generation, Oid sync_function,
								  uint64 byte_limit);

#endif							/* GPULIKE_LOADER_H */
