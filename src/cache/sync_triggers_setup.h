/*-------------------------------------------------------------------------
 *
 * sync_triggers_setup.h
 *	  Creating or enabling a table's sync triggers in a transaction of their
 *	  own, so that loads need not block writers (sync_triggers_setup.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_SYNC_TRIGGERS_SETUP_H
#define GPULIKE_SYNC_TRIGGERS_SETUP_H

#include "utils/relcache.h"

/*
 * Can a worker do rel's trigger DDL for us?  Not if this transaction holds
 * a lock on rel that the DDL would wait for.
 */
extern bool gl_sync_triggers_can_set_up(Relation rel);

/*
 * Run gl_sync_triggers_ensure(rel, enable) in a background worker's
 * transaction, and wait for it to commit.  False when no worker slot is
 * free: the caller must do the DDL itself.  The caller
 * looks at the triggers again afterwards: the worker's errors are only
 * logged.
 */
extern bool gl_sync_triggers_setup_committed(Relation rel, bool enable);

/*
 * After a transaction that had triggers set up that way aborted: start a
 * worker that drops relid's sync triggers unless some column of it is
 * registered.  Never raises an error (it runs at abort).
 */
extern void gl_sync_triggers_cleanup_later(Oid relid);

#endif							/* GPULIKE_SYNC_TRIGGERS_SETUP_H */
