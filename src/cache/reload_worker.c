/*-------------------------------------------------------------------------
 *
 * reload_worker.c
 *	  Rebuilding caches in the background: after a server start, and
 *	  whenever a cache goes stale.
 *
 * Caches live in memory; their registrations live in each database's
 * gpulike.cached_columns.  A background worker can read only one
 * database's tables, so the work is split in two:
 *
 * The launcher (one static background worker, connected to no database:
 * it reads only the shared catalog pg_database) starts a reload worker
 *	- once per connectable, non-template database when the cluster starts
 *	  (that worker exits at once where gpulike is not installed), and
 *	- for every database the registry shows a slot to rebuild for,
 *	  whenever a slot goes stale or wants a rebuild (the registry signals
 *	  the launcher) or a failed rebuild's backoff has expired.
 * It runs at most MAX_RUNNING reload workers at once and one per database.
 * It also forgets the slots of databases that no longer exist.
 *
 * A reload worker (dynamic, one database) reconciles the registry with the
 * registrations (gl_cache_reconcile: every registration gets a slot,
 * registrations of vanished columns and unregistered slots are dropped),
 * then rebuilds each slot that wants it in its own transaction, exactly as
 * gpulike.cache() would (writers go on writing: loader.c), except that it
 * leaves a sync trigger the user disabled alone (the slot then waits until
 * the trigger changes again).  A rebuild that fails is retried after a
 * growing backoff.  A stale or evicted cache is not used until it is ready
 * again; a ready one rebuilt for its garbage serves until its new copy
 * replaces it.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/heapam.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "access/xact.h"
#include "catalog/pg_database.h"
#include "commands/extension.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "postmaster/bgworker.h"
#include "postmaster/interrupt.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "storage/lmgr.h"
#include "tcop/tcopprot.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/snapmgr.h"
#include "utils/timestamp.h"

#include "cache/cache_ops.h"
#include "cache/cached_columns.h"
#include "cache/reload_worker.h"
#include "protocol/mailbox.h"
#include "registry/registry.h"

PGDLLEXPORT void gl_reload_launcher_main(Datum arg);
PGDLLEXPORT void gl_reload_worker_main(Datum arg);

#define MAX_RUNNING 2
#define MAX_DATABASES 1024
#define LAUNCHER_NAP_MS 1000
/* never start two workers for one database closer together than this */
#define RESTART_GAP_MS 1000
/* how long a reload worker waits for the gpulike server to come up */
#define SERVER_WAIT_MS 30000

/* ------------------------------------------------------------- launcher */

typedef struct RunningWorker
{
	Oid			dbid;
	BackgroundWorkerHandle *handle;
} RunningWorker;

typedef struct LauncherState
{
	Oid			startup[MAX_DATABASES];	/* databases still to visit once */
	int			nstartup;
	RunningWorker running[MAX_RUNNING];
	int			nrunning;
	Oid			last_dbid;		/* the most recent start, for the gap */
	TimestampTz last_start;
} LauncherState;

void
gl_reload_launcher_register(void)
{
	BackgroundWorker worker;

	memset(&worker, 0, sizeof(worker));
	worker.bgw_flags = BGWORKER_SHMEM_ACCESS | BGWORKER_BACKEND_DATABASE_CONNECTION;
	worker.bgw_start_time = BgWorkerStart_RecoveryFinished;
	worker.bgw_restart_time = 10;
	snprintf(worker.bgw_library_name, BGW_MAXLEN, "gpulike");
	snprintf(worker.bgw_function_name, BGW_MAXLEN, "gl_reload_launcher_main");
	snprintf(worker.bgw_name, BGW_MAXLEN, "gpulike cache launcher");
	snprintf(worker.bgw_type, BGW_MAXLEN, "gpulike cache launcher");
	RegisterBackgroundWorker(&worker);
}

/* Connectable databases; templates only when include_templates. */
static int
list_databases(Oid *dbids, int max, bool include_templates)
{
	Relation	rel;
	TableScanDesc scan;
	HeapTuple	tuple;
	int			n = 0;

	StartTransactionCommand();
	rel = table_open(DatabaseRelationId, AccessShareLock);
	scan = table_beginscan_catalog(rel, 0, NULL);
	while ((tuple = heap_getnext(scan, ForwardScanDirection)) != NULL && n < max)
	{
		Form_pg_database db = (Form_pg_database) GETSTRUCT(tuple);

		if (!db->datallowconn || (db->datistemplate && !include_templates))
			continue;
		dbids[n++] = db->oid;
	}
	table_endscan(scan);
	table_close(rel, AccessShareLock);
	CommitTransactionCommand();
	return n;
}

static void
forget_dropped_databases(void)
{
	Oid			existing[MAX_DATABASES];
	Oid			cached[MAX_DATABASES];
	int			nexisting = list_databases(existing, MAX_DATABASES, true);
	int			ncached = gl_registry_databases(cached, MAX_DATABASES);

	for (int i = 0; i < ncached; i++)
	{
		bool		exists = false;

		for (int j = 0; j < nexisting && !exists; j++)
			exists = existing[j] == cached[i];
		if (!exists)
			gl_registry_forget_database(cached[i]);
	}
}

static void
reap_workers(LauncherState *state)
{
	for (int i = 0; i < state->nrunning;)
	{
		pid_t		pid;

		if (GetBackgroundWorkerPid(state->running[i].handle, &pid) == BGWH_STOPPED)
		{
			pfree(state->running[i].handle);
			state->running[i] = state->running[--state->nrunning];
		}
		else
			i++;
	}
}

static bool
worker_running_for(LauncherState *state, Oid dbid)
{
	for (int i = 0; i < state->nrunning; i++)
		if (state->running[i].dbid == dbid)
			return true;
	return false;
}

/* Start a reload worker for dbid if allowed now; true if started. */
static bool
start_worker(LauncherState *state, Oid dbid)
{
	BackgroundWorker worker;
	BackgroundWorkerHandle *handle;
	TimestampTz now = GetCurrentTimestamp();

	if (state->nrunning >= MAX_RUNNING || worker_running_for(state, dbid))
		return false;
	if (state->last_dbid == dbid &&
		!TimestampDifferenceExceeds(state->last_start, now, RESTART_GAP_MS))
		return false;

	memset(&worker, 0, sizeof(worker));
	worker.bgw_flags = BGWORKER_SHMEM_ACCESS | BGWORKER_BACKEND_DATABASE_CONNECTION;
	worker.bgw_start_time = BgWorkerStart_RecoveryFinished;
	worker.bgw_restart_time = BGW_NEVER_RESTART;
	snprintf(worker.bgw_library_name, BGW_MAXLEN, "gpulike");
	snprintf(worker.bgw_function_name, BGW_MAXLEN, "gl_reload_worker_main");
	snprintf(worker.bgw_name, BGW_MAXLEN, "gpulike cache reload for database %u", dbid);
	snprintf(worker.bgw_type, BGW_MAXLEN, "gpulike cache reload");
	worker.bgw_main_arg = ObjectIdGetDatum(dbid);
	worker.bgw_notify_pid = MyProcPid;
	if (!RegisterDynamicBackgroundWorker(&worker, &handle))
		return false;			/* no free worker slot; try again later */

	state->running[state->nrunning].dbid = dbid;
	state->running[state->nrunning].handle = handle;
	state->nrunning++;
	state->last_dbid = dbid;
	state->last_start = now;
	return true;
}

static void
launcher_round(LauncherState *state)
{
	Oid			wanting[MAX_DATABASES];
	int			nwanting;

	reap_workers(state);
	while (state->nstartup > 0 &&
		   start_worker(state, state->startup[state->nstartup - 1]))
		state->nstartup--;

	nwanting = gl_registry_databases_wanting_reload(wanting, MAX_DATABASES,
													GetCurrentTimestamp());
	if (nwanting == 0)
		return;

	/*
	 * A dropped database's slots go stale with it: forget them rather than
	 * start a worker that cannot connect (it failed once a second, each
	 * time a FATAL in the log, until the periodic check below came round).
	 */
	forget_dropped_databases();
	nwanting = gl_registry_databases_wanting_reload(wanting, MAX_DATABASES,
													GetCurrentTimestamp());
	for (int i = 0; i < nwanting; i++)
		start_worker(state, wanting[i]);
}

static void
launcher_exit(int code, Datum arg)
{
	gl_registry_set_launcher(0);
}

void
gl_reload_launcher_main(Datum arg)
{
	LauncherState *state;
	int			round = 0;

	pqsignal(SIGTERM, die);
	pqsignal(SIGHUP, SignalHandlerForConfigReload);
	BackgroundWorkerUnblockSignals();
	BackgroundWorkerInitializeConnection(NULL, NULL, 0);

	state = MemoryContextAllocZero(TopMemoryContext, sizeof(LauncherState));
	state->nstartup = list_databases(state->startup, MAX_DATABASES, false);
	gl_registry_set_launcher(MyProcPid);
	before_shmem_exit(launcher_exit, (Datum) 0);

	for (;;)
	{
		CHECK_FOR_INTERRUPTS();
		if (ConfigReloadPending)
		{
			ConfigReloadPending = false;
			ProcessConfigFile(PGC_SIGHUP);
		}
		launcher_round(state);
		/* a database dropped with caches in it: give their slots back */
		if (round++ % 60 == 0)
			forget_dropped_databases();

		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 state->nstartup > 0 ? RESTART_GAP_MS : LAUNCHER_NAP_MS,
						 PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
	}
}

/* ------------------------------------------------------- reload worker */

static void
wait_for_server(void)
{
	for (int waited = 0; !gl_server_running() && waited < SERVER_WAIT_MS;
		 waited += 100)
	{
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 100, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
		CHECK_FOR_INTERRUPTS();
	}
}

/* Registrations of this database, or NIL where gpulike is not installed. */
static List *
reconcile_in_transaction(MemoryContext keep)
{
	List	   *registrations = NIL;

	SetCurrentStatementStartTimestamp();
	StartTransactionCommand();
	PushActiveSnapshot(GetTransactionSnapshot());
	if (OidIsValid(get_extension_oid("gpulike", true)))
	{
		MemoryContext old = MemoryContextSwitchTo(keep);

		registrations = gl_cache_reconcile();
		MemoryContextSwitchTo(old);
	}
	PopActiveSnapshot();
	CommitTransactionCommand();
	return registrations;
}

/* After a failed rebuild: back off before the launcher tries again. */
static void
defer_failed(Oid relid, const char *attname)
{
	AttrNumber	attnum;
	int			slot;

	StartTransactionCommand();
	attnum = get_attnum(relid, attname);
	CommitTransactionCommand();
	if (attnum == InvalidAttrNumber)
		return;
	slot = gl_registry_lookup(relid, attnum);
	if (slot >= 0)
		gl_registry_defer_retry(slot, false);
}

static void
rebuild_one(GlRegistration *registration, MemoryContext keep)
{
	bool		failed = false;

	SetCurrentStatementStartTimestamp();
	StartTransactionCommand();
	PushActiveSnapshot(GetTransactionSnapshot());
	pgstat_report_activity(STATE_RUNNING, "gpulike: rebuilding a column cache");
	PG_TRY();
	{
		gl_cache_column(registration->relid, registration->attname,
						GL_LOAD_BACKGROUND);
		PopActiveSnapshot();
		CommitTransactionCommand();
	}
	PG_CATCH();
	{
		MemoryContextSwitchTo(keep);
		EmitErrorReport();
		FlushErrorState();
		AbortCurrentTransaction();
		failed = true;
	}
	PG_END_TRY();
	pgstat_report_activity(STATE_IDLE, NULL);
	if (failed)
		defer_failed(registration->relid, registration->attname);
}

void
gl_reload_worker_main(Datum arg)
{
	Oid			dbid = DatumGetObjectId(arg);
	MemoryContext keep;
	ListCell   *lc;

	pqsignal(SIGTERM, die);
	BackgroundWorkerUnblockSignals();

	/* wait before connecting: a connection would block DROP DATABASE */
	wait_for_server();
	BackgroundWorkerInitializeConnectionByOid(dbid, InvalidOid, 0);

	keep = AllocSetContextCreate(TopMemoryContext, "gpulike reload",
								 ALLOCSET_DEFAULT_SIZES);
	MemoryContextSwitchTo(keep);
	foreach(lc, reconcile_in_transaction(keep))
	{
		CHECK_FOR_INTERRUPTS();
		rebuild_one((GlRegistration *) lfirst(lc), keep);
	}
	proc_exit(0);
}
