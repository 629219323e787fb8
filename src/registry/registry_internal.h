/*-------------------------------------------------------------------------
 *
 * registry_internal.h
 *	  The registry's entries and lock, for the files of the registry room
 *	  only: registry.c (the slots and their state machine) and stats.c
 *	  (the counters each entry carries).  Every other room goes through
 *	  registry.h and stats.h.
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_REGISTRY_INTERNAL_H
#define GPULIKE_REGISTRY_INTERNAL_H

#include "storage/lwlock.h"

#include "registry/registry.h"

/* The array of gl_registry_size() entries (NULL without a registry). */
extern GlCacheEntry *gl_registry_entries(void);

/* The lock every entry is read and written under. */
extern LWLock *gl_registry_lock(void);

/* Slot of (MyDatabaseId, relid, attnum), or -1; caller holds the lock. */
extern int	gl_registry_find(Oid relid, AttrNumber attnum);

#endif							/* GPULIKE_REGISTRY_INTERNAL_H */
