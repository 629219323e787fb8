/*-------------------------------------------------------------------------
 *
 * cache_undo.h
 *	  Undo registry changes if the current transaction aborts
 *	  (cache_undo.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_CACHE_UNDO_H
#define GPULIKE_CACHE_UNDO_H

#include "access/attnum.h"

/* This transaction (re)loaded slot: mark it stale if we abort. */
extern void gl_cache_undo_on_abort_loaded(int slot);

/* This transaction forgot (relid, attnum): bring a stale slot back if we abort. */
extern void gl_cache_undo_on_abort_forgotten(Oid relid, AttrNumber attnum);

#endif							/* GPULIKE_CACHE_UNDO_H */
