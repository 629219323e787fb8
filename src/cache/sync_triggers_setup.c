/*-------------------------------------------------------------------------
 *
 * sync_triggers_setup.c
 *	  Creating or enabling a table's sync triggers in a transaction of
 *	  their own.
 *
 * A load may run while writers write only if every one of them fires the
 * sync trigger, i.e. if the trigger was committed before the load began
 * (loader.c).  gpulike.cache() and reload() run inside their caller's
 * transaction, which cannot commit half way; so when a table's triggers
 * must be created or enabled, a short-lived background worker connected
 * to the same database does it in a transaction of its own while the
 * caller waits.  Writers then wait only for that DDL's
 * ShareRowExclusiveLock, not for the whole load; and not even for long
 * while the worker waits for that lock, since it gives up after a moment
 * and tries again.
 *
 * The triggers outlive a caller that aborts afterwards, as an aborted
 * CREATE INDEX CONCURRENTLY leaves its index; the caller's abort starts
 * another worker here that drops them again unless some column of the
 * table is registered by then (cache_undo.c).
 *
 * The worker cannot be used when the caller holds a lock on the table that
 * CREATE TRIGGER waits for -- it wrote to the table or created it in this
 * transaction -- since the worker would wait for the caller, which waits
 * for the worker; nor when no worker slot is free.  The caller then does
 * the DDL itself, and writers wait until it commits.
 *
 * Nor when a session queues for a lock the caller's AccessShareLock holds
 * up (DROP TABLE, VACUUM FULL, ALTER TABLE): the worker's request queues
 * behind it, which waits for the caller, which waits for the worker -- a
 * cycle the deadlock detector cannot see, one of its waits being ours (it
 * once hung the reloader and a DROP TABLE for good).  A worker that finds
 * no lock holder in its way, only a queue, gives up; the caller then does
 * the DDL itself, all three wait on locks, and the detector lets the
 * caller's request go ahead of the queued one, which conflicts with no
 * lock granted.
 *
 * The worker connects as the bootstrap superuser, as the reloader does:
 * the caller has already been found to own the table.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/table.h"
#include "access/xact.h"
#include "commands/extension.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "postmaster/bgworker.h"
#include "storage/ipc.h"
#include "storage/lmgr.h"
#include "storage/lock.h"
#include "storage/lockdefs.h"
#include "tcop/tcopprot.h"
#include "storage/latch.h"
#include "utils/guc.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"

#include "cache/cached_columns.h"
#include "cache/sync_triggers.h"
#include "cache/sync_triggers_setup.h"

PGDLLEXPORT void gl_sync_triggers_setup_main(Datum arg);

/* What the worker is to do, in bgw_extra. */
typedef struct TriggerSetupTask
{
	Oid			dbid;
	Oid			relid;
	bool		cleanup;		/* drop the triggers if nothing is registered */
	bool		enable;			/* set up: enable triggers a user disabled */
} TriggerSetupTask;

StaticAssertDecl(sizeof(TriggerSetupTask) <= BGW_EXTRALEN,
				 "TriggerSetupTask must fit in bgw_extra");

/* How long writers may queue behind the worker's lock request. */
#define LOCK_TRY_MS 50

static bool
start_worker(const TriggerSetupTask *task, BackgroundWorkerHandle **handle)
{
	BackgroundWorker worker;

	memset(&worker, 0, sizeof(worker));
	worker.bgw_flags = BGWORKER_SHMEM_ACCESS | BGWORKER_BACKEND_DATABASE_CONNECTION;
	worker.bgw_start_time = BgWorkerStart_RecoveryFinished;
	worker.bgw_restart_time = BGW_NEVER_RESTART;
	snprintf(worker.bgw_library_name, BGW_MAXLEN, "gpulike");
	snprintf(worker.bgw_function_name, BGW_MAXLEN, "gl_sync_triggers_setup_main");
	snprintf(worker.bgw_name, BGW_MAXLEN, "gpulike sync triggers of relation %u",
			 task->relid);
	snprintf(worker.bgw_type, BGW_MAXLEN, "gpulike sync triggers");
	memcpy(worker.bgw_extra, task, sizeof(TriggerSetupTask));
	worker.bgw_notify_pid = handle != NULL ? MyProcPid : 0;
	return RegisterDynamicBackgroundWorker(&worker, handle);
}

bool
gl_sync_triggers_can_set_up(Relation rel)
{
	/* CREATE TRIGGER's ShareRowExclusiveLock conflicts with RowExclusiveLock and up */
	return !CheckRelationLockedByMe(rel, RowExclusiveLock, true);
}

bool
gl_sync_triggers_setup_committed(Relation rel, bool enable)
{
	TriggerSetupTask task;
	BackgroundWorkerHandle *handle;
	BgwHandleStatus status;

	Assert(gl_sync_triggers_can_set_up(rel));
	memset(&task, 0, sizeof(task));
	task.dbid = MyDatabaseId;
	task.relid = RelationGetRelid(rel);
	task.enable = enable;
	if (!start_worker(&task, &handle))
	{
		ereport(NOTICE,
				(errmsg("no background worker is free to set up the sync triggers of \"%s\"; writers to it wait until this transaction ends",
						RelationGetRelationName(rel)),
				 errhint("Raise max_worker_processes.")));
		return false;
	}

	/*
	 * If we are cancelled meanwhile, stop the worker and wait until it is
	 * gone, so that our abort's clean-up finds its work committed or undone
	 * and never races it.
	 */
	PG_TRY();
	{
		status = WaitForBackgroundWorkerShutdown(handle);
	}
	PG_CATCH();
	{
		HOLD_INTERRUPTS();
		TerminateBackgroundWorker(handle);
		(void) WaitForBackgroundWorkerShutdown(handle);
		RESUME_INTERRUPTS();
		PG_RE_THROW();
	}
	PG_END_TRY();
	pfree(handle);
	if (status == BGWH_POSTMASTER_DIED)
		ereport(FATAL,
				(errcode(ERRCODE_ADMIN_SHUTDOWN),
				 errmsg("postmaster exited while gpulike set up sync triggers")));
	return true;
}

void
gl_sync_triggers_cleanup_later(Oid relid)
{
	TriggerSetupTask task;

	memset(&task, 0, sizeof(task));
	task.dbid = MyDatabaseId;
	task.relid = relid;
	task.cleanup = true;
	if (!start_worker(&task, NULL))
		ereport(LOG,
				(errmsg("gpulike: no background worker is free to drop the unused sync triggers of relation %u",
						relid)));
}

/*
 * Was the lock of CREATE TRIGGER refused for a queued request alone, with
 * no lock granted in its way (see above)?
 */
static bool
only_queued(Oid relid)
{
	LOCKTAG		tag;
	int			holders;

	SET_LOCKTAG_RELATION(tag, MyDatabaseId, relid);
	(void) GetLockConflicts(&tag, ShareRowExclusiveLock, &holders);
	return holders == 0;
}

/* Errors of the worker say what it was doing. */
static void
task_context(void *arg)
{
	const TriggerSetupTask *task = (const TriggerSetupTask *) arg;

	errcontext(task->cleanup ?
			   "gpulike: dropping the unused sync triggers of relation %u" :
			   "gpulike: setting up the sync triggers of relation %u",
			   task->relid);
}

/*
 * One try: true if done, false if the table's lock was not granted within
 * LOCK_TRY_MS (then nothing happened).
 */
static bool
try_task(const TriggerSetupTask *task)
{
	MemoryContext context = CurrentMemoryContext;
	Relation	rel;
	bool		done = true;

	SetCurrentStatementStartTimestamp();
	StartTransactionCommand();
	PG_TRY();
	{
		/* dropped meanwhile, or gpulike with it: nothing to do */
		rel = try_table_open(task->relid, ShareRowExclusiveLock);
		if (rel != NULL && OidIsValid(get_extension_oid("gpulike", true)))
		{
			/* after the lock: a cache() that registered a column has committed */
			PushActiveSnapshot(GetTransactionSnapshot());
			if (!task->cleanup)
				(void) gl_sync_triggers_ensure(rel, task->enable);
			else if (!gl_cached_columns_exists(task->relid, NULL))
				gl_sync_triggers_drop(rel);
			PopActiveSnapshot();
		}
		if (rel != NULL)
			table_close(rel, NoLock);
		CommitTransactionCommand();
	}
	PG_CATCH();
	{
		ErrorData  *error;

		MemoryContextSwitchTo(context);
		error = CopyErrorData();
		if (error->sqlerrcode != ERRCODE_LOCK_NOT_AVAILABLE)
			PG_RE_THROW();
		FlushErrorState();
		AbortCurrentTransaction();
		FreeErrorData(error);
		done = false;
	}
	PG_END_TRY();
	return done;
}

/*
 * The worker.  Writers that come while it waits for the table's lock queue
 * behind it, so it never waits long: it gives up after LOCK_TRY_MS, lets
 * them through, and tries again.
 */
void
gl_sync_triggers_setup_main(Datum arg)
{
	TriggerSetupTask task;
	ErrorContextCallback context;
	char		timeout[16];

	memcpy(&task, MyBgworkerEntry->bgw_extra, sizeof(TriggerSetupTask));
	context.callback = task_context;
	context.arg = &task;
	context.previous = error_context_stack;
	error_context_stack = &context;
	pqsignal(SIGTERM, die);
	BackgroundWorkerUnblockSignals();
	BackgroundWorkerInitializeConnectionByOid(task.dbid, InvalidOid, 0);

	snprintf(timeout, sizeof(timeout), "%d", LOCK_TRY_MS);
	SetConfigOption("lock_timeout", timeout, PGC_SUSET, PGC_S_OVERRIDE);
	pgstat_report_activity(STATE_RUNNING, task.cleanup ?
						   "gpulike: dropping unused sync triggers" :
						   "gpulike: setting up sync triggers");
	while (!try_task(&task))
	{
		if (!task.cleanup && only_queued(task.relid))
		{
			ereport(LOG,
					(errmsg("gpulike: a session queues for a lock on relation %u that the caller holds; leaving its sync triggers to the caller",
							task.relid)));
			break;
		}
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 LOCK_TRY_MS, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
		CHECK_FOR_INTERRUPTS();
	}
	pgstat_report_activity(STATE_IDLE, NULL);
	proc_exit(0);
}
