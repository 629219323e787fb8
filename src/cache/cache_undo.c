/*-------------------------------------------------------------------------
 *
 * cache_undo.c
 *	  Undoing registry changes of a transaction that aborts.
 *
 * Shared memory is not transactional, the catalog is.  So each backend
 * keeps a list of what it did to the registry in the current transaction,
 * and undoes it if the transaction (or a subtransaction) aborts:
 *	- a slot it loaded is marked stale (the load may have been incomplete,
 *	  or its triggers and registration are being rolled back); the
 *	  reloader then rebuilds it, or forgets it if it is not registered;
 *	- a slot it forgot (uncache, DROP) is re-created stale, since the
 *	  registration it deleted is coming back; the reloader rebuilds it.
 * Both undo actions only ever make a cache stale, which is always safe.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "nodes/pg_list.h"
#include "utils/memutils.h"

#include "cache/cache_undo.h"
#include "cache/registry_internal.h"

typedef enum UndoKind
{
	UNDO_LOADED,
	UNDO_FORGOTTEN
} UndoKind;

typedef struct UndoAction
{
	UndoKind	kind;
	int			slot;			/* UNDO_LOADED */
	Oid			relid;			/* UNDO_FORGOTTEN */
	AttrNumber	attnum;
} UndoAction;

static List *undo_actions = NIL;
static bool undo_callbacks_registered = false;

static void
undo_all(void)
{
	ListCell   *lc;

	foreach(lc, undo_actions)
	{
		UndoAction *action = (UndoAction *) lfirst(lc);

		if (action->kind == UNDO_LOADED)
			gl_registry_mark_slot_stale(action->slot, "load rolled back");
		else
		{
			int			slot = gl_registry_find_or_add(action->relid,
													   action->attnum);

			if (slot >= 0)
				gl_registry_wake_launcher();
		}
	}
}

static void
undo_xact_callback(XactEvent event, void *arg)
{
	if (event == XACT_EVENT_ABORT || event == XACT_EVENT_PARALLEL_ABORT)
		undo_all();
	if (event == XACT_EVENT_ABORT || event == XACT_EVENT_PARALLEL_ABORT ||
		event == XACT_EVENT_COMMIT || event == XACT_EVENT_PARALLEL_COMMIT ||
		event == XACT_EVENT_PREPARE)
	{
		list_free_deep(undo_actions);
		undo_actions = NIL;
	}
}

/*
 * A subtransaction abort may have rolled back any of our catalog changes:
 * undo everything noted so far (making more caches stale than strictly
 * needed is harmless) and keep the list for the outer transaction.
 */
static void
undo_subxact_callback(SubXactEvent event, SubTransactionId subid,
					  SubTransactionId parent, void *arg)
{
	if (event == SUBXACT_EVENT_ABORT_SUB)
		undo_all();
}

static void
note_undo(UndoKind kind, int slot, Oid relid, AttrNumber attnum)
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
	action = palloc(sizeof(UndoAction));
	action->kind = kind;
	action->slot = slot;
	action->relid = relid;
	action->attnum = attnum;
	undo_actions = lappend(undo_actions, action);
	MemoryContextSwitchTo(old);
}

void
gl_cache_undo_on_abort_loaded(int slot)
{
	note_undo(UNDO_LOADED, slot, InvalidOid, 0);
}

void
gl_cache_undo_on_abort_forgotten(Oid relid, AttrNumber attnum)
{
	note_undo(UNDO_FORGOTTEN, -1, relid, attnum);
}
