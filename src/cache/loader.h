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
} GlLoadResult;

/*
 * Caller holds ShareRowExclusiveLock on rel (no concurrent writes) and has
 * made sure the sync trigger (whose function is sync_function) is in place.
 * On return the slot is READY with a new generation.
 */
extern GlLoadResult gl_cache_load(Relation rel, AttrNumber attnum, int slot,
								  Oid sync_function);

#endif							/* GPULIKE_LOADER_H */
