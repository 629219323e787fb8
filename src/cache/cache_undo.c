/*-------------------------------------------------------------------------
 *
 * cache_undo.c
 *	  Undoing registry changes of a (sub)transaction that aborts, and
 *	  forgetting slots when it commits.
 *
 * Shared memory is not transactional, the catalog is.  So each backend
 * keeps a list of what it did to the registry in the current transaction,
 * each action tagged with the subtransaction that did it, and undoes the
 * actions of a (sub)transaction that aborts:
 *	- a load that had not finished is cancelled: the slot's serving copy,
 *	  if any, was never touched and goes on serving; a slot without one
 *	  becomes stale and the reloader rebuilds it (or forgets it, if its
 *	  registration is rolled back with us);
 *	- the slot of a column this transaction registered is forgotten, its
 *	  registration being rolled back (the server frees its copies);
 *	- sync triggers this transaction changed itself are rolled back: the
 *	  relation's caches, which relied on them, go stale;
 *	- sync triggers a worker set up for us stay (sync_triggers_setup.c); a
 *	  worker drops them again unless a column of the table is registered.
 * None of these makes a cache wrong: each only cancels a load, forgets a
 * slot or makes a cache stale.
 *
 * Forgetting a slot (uncache(), DROP TABLE, DROP COLUMN, DROP EXTENSION)
 * goes the other way: it is done when the transaction commits, and not at
 * all if it aborts, so that a rolled back DROP leaves the loaded cache as
 * it was (forgetting at once, and bringing a stale slot back on abort,
 * once cost a rebuild).  Until then the slot stays as it is: the table is
 * locked against writers (DROP's AccessExclusiveLock, uncache()'s
 * ShareRowExclusiveLock) until after the commit's callbacks have run, and
 * readers meanwhile see the triggers and the rows the cache follows.  A
 * column cached again in the same transaction is not forgotten.
 *
 * So is a change to a sync trigger made by a user (ALTER TABLE ... DISABLE
 * TRIGGER, DROP TRIGGER, and the DROP TABLE or DROP EXTENSION that takes
 * it along): the caches of its table go stale at commit.  Writers wait for
 * the DDL's lock until then; the changing transaction itself, which could
 * write unlogged rows, sees the trigger changed and does not use the
 * cache (gl_cache_usable()).
 *
 * A committed subtransaction hands its actions to its parent.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "miscadmin.h"
#include "nodes/pg_list.h"
#include "utils/memutils.h"

#include "cache/cache_undo.h"
#include "cache/sync_triggers_setup.h"
#include "registry/registry.h"

typedef enum UndoKind
{
	UNDO_LOAD,
	FORGET_AT_COMMIT,
	STALE_AT_COMMIT,
	UNDO_TRIGGERS_CHANGED,
	UNDO_TRIGGERS_SET_UP
} UndoKind;

typedef struct UndoAction
{
	UndoKind	kind;
	SubTransactionId subid;		/* who did it */
	int			slot;			/* UNDO_LOAD */
	uint64		generation;		/* UNDO_LOAD */
	bool		registered_here;	/* UNDO_LOAD */
	Oid			relid;			/* the others */
	const char *reason;			/* STALE_AT_COMMIT (a constant) */
	AttrNumber	attnum;			/* FORGET_AT_COMMIT */
} UndoAction;

static List *undo_actions = NIL;
static bool undo_callbacks_registered = false;

/* Outside a transaction's own error handling: no ereport(ERROR) here. */
static void
undo_action(UndoAction *action)
{
	switch (action->kind)
	{
		case UNDO_LOAD:
			if (action->registered_here)
				gl_registry_forget(action->slot);
			else
				gl_registry_cancel_load(action->slot, action->generation,
										"load failed or rolled back");
			break;
		case FORGET_AT_COMMIT:
		case STALE_AT_COMMIT:
			break;
		case UNDO_TRIGGERS_CHANGED:
			gl_registry_mark_stale(MyDatabaseId, action->relid,
								   "sync trigger change rolled back");
			break;
		case UNDO_TRIGGERS_SET_UP:
			gl_sync_triggers_cleanup_later(action->relid);
			break;
	}
}

/*
 * Undo the actions of subtransaction subid (every action, if
 * InvalidSubTransactionId), oldest first, and forget them.
 */
static void
undo_actions_of(SubTransactionId subid)
{
	ListCell   *lc;

	/* in place: the list lives in TopMemoryContext, whatever context is current */
	foreach(lc, undo_actions)
	{
		UndoAction *action = (UndoAction *) lfirst(lc);

		if (subid == InvalidSubTransactionId || action->subid == subid)
		{
			undo_action(action);
			undo_actions = foreach_delete_current(undo_actions, lc);
			pfree(action);
		}
	}
}

/*
 * The transaction committed (or prepared: a later ROLLBACK PREPARED cannot
 * bring the slot back, and the cache is then rebuilt): forget the slots.
 * Shared memory only, no ereport(ERROR).
 */
static void
forget_committed(void)
{
	ListCell   *lc;

	foreach(lc, undo_actions)
	{
		UndoAction *action = (UndoAction *) lfirst(lc);
		int			slot;

		if (action->kind == STALE_AT_COMMIT)
			gl_registry_mark_stale(MyDatabaseId, action->relid, action->reason);
		if (action->kind != FORGET_AT_COMMIT)
			continue;
		slot = gl_registry_lookup(action->relid, action->attnum);
		if (slot >= 0)
			gl_registry_forget(slot);
	}
}

static void
undo_xact_callback(XactEvent event, void *arg)
{
	if (event == XACT_EVENT_ABORT || event == XACT_EVENT_PARALLEL_ABORT)
		undo_actions_of(InvalidSubTransactionId);
	if (event == XACT_EVENT_COMMIT || event == XACT_EVENT_PARALLEL_COMMIT ||
		event == XACT_EVENT_PREPARE)
	{
		forget_committed();
		list_free_deep(undo_actions);
		undo_actions = NIL;
	}
}

static void
undo_subxact_callback(SubXactEvent event, SubTransactionId subid,
					  SubTransactionId parent, void *arg)
{
	ListCell   *lc;

	if (event == SUBXACT_EVENT_ABORT_SUB)
		undo_actions_of(subid);
	else if (event == SUBXACT_EVENT_COMMIT_SUB)
	{
		foreach(lc, undo_actions)
		{
			UndoAction *action = (UndoAction *) lfirst(lc);

			if (action->subid == subid)
				action->subid = parent;
		}
	}
}

static UndoAction *
note_undo(UndoKind kind)
{
	UndoAction *action;
	MemoryContext old;

	if (!undo_callbacks_registered)
	{
		RegisterXactCallback(undo_xact_callback, NULL);
		RegisterSubXactCallback(undo_subxact_callback, NULL);
		undo_callbacks_registered = true;
	}
	old = MemoryContextSwitchTo(TopMemoryContext);
	action = palloc0(sizeof(UndoAction));
	action->kind = kind;
	action->subid = GetCurrentSubTransactionId();
	undo_actions = lappend(undo_actions, action);
	MemoryContextSwitchTo(old);
	return action;
}

void
gl_cache_undo_on_abort_load(int slot, uint64 generation, bool registered_here)
{
	UndoAction *action = note_undo(UNDO_LOAD);

	action->slot = slot;
	action->generation = generation;
	action->registered_here = registered_here;
}

void
gl_cache_forget_at_commit(Oid relid, AttrNumber attnum)
{
	UndoAction *action = note_undo(FORGET_AT_COMMIT);

	action->relid = relid;
	action->attnum = attnum;
}

void
gl_cache_stale_at_commit(Oid relid, const char *reason)
{
	UndoAction *action = note_undo(STALE_AT_COMMIT);

	action->relid = relid;
	action->reason = reason;
}

void
gl_cache_forget_cancel(Oid relid, AttrNumber attnum)
{
	ListCell   *lc;

	/* in place: the list lives in TopMemoryContext */
	foreach(lc, undo_actions)
	{
		UndoAction *action = (UndoAction *) lfirst(lc);

		if (action->kind == FORGET_AT_COMMIT && action->relid == relid &&
			action->attnum == attnum)
		{
			undo_actions = foreach_delete_current(undo_actions, lc);
			pfree(action);
		}
	}
}

void
gl_cache_undo_on_abort_triggers_changed(Oid relid)
{
	note_undo(UNDO_TRIGGERS_CHANGED)->relid = relid;
}

void
gl_cache_undo_on_abort_triggers_set_up(Oid relid)
{
	note_undo(UNDO_TRIGGERS_SET_UP)->relid = relid;
}
