/*-------------------------------------------------------------------------
 *
 * cache_undo.c
 *	  Undoing registry changes of a (sub)transaction that aborts.
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
 *	- sync triggers a worker set up for us stay (trigger_setup.c); a
 *	  worker drops them again unless a column of the table is registered;
 *	- a slot it forgot (uncache, DROP) is re-created stale, since the
 *	  registration it deleted is coming back; the reloader rebuilds it.
 * None of these makes a cache wrong: each only cancels a load, forgets a
 * slot or makes a cache stale.  A committed subtransaction hands its
 * actions to its parent.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "miscadmin.h"
#include "nodes/pg_list.h"
#include "utils/memutils.h"

#include "cache/cache_undo.h"
#include "cache/trigger_setup.h"
#include "registry/registry.h"

typedef enum UndoKind
{
	UNDO_LOAD,
	UNDO_FORGOTTEN,
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
	AttrNumber	attnum;			/* UNDO_FORGOTTEN */
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
		case UNDO_FORGOTTEN:
			if (gl_registry_find_or_add(action->relid, action->attnum) >= 0)
				gl_registry_wake_launcher();
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
	List	   *kept = NIL;
	ListCell   *lc;

	foreach(lc, undo_actions)
	{
		UndoAction *action = (UndoAction *) lfirst(lc);

		if (subid == InvalidSubTransactionId || action->subid == subid)
		{
			undo_action(action);
			pfree(action);
		}
		else
			kept = lappend(kept, action);
	}
	list_free(undo_actions);
	undo_actions = kept;
}

static void
undo_xact_callback(XactEvent event, void *arg)
{
	if (event == XACT_EVENT_ABORT || event == XACT_EVENT_PARALLEL_ABORT)
		undo_actions_of(InvalidSubTransactionId);
	if (event == XACT_EVENT_COMMIT || event == XACT_EVENT_PARALLEL_COMMIT ||
		event == XACT_EVENT_PREPARE)
	{
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
gl_cache_undo_on_abort_forgotten(Oid relid, AttrNumber attnum)
{
	UndoAction *action = note_undo(UNDO_FORGOTTEN);

	action->relid = relid;
	action->attnum = attnum;
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
