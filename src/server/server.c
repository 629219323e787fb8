/*-------------------------------------------------------------------------
 *
 * server.c
 *	  The gpulike server: a background worker that owns the column caches
 *	  and the engines, and answers backends' requests.
 *
 * Registration.  Under shared_preload_libraries, gl_server_register()
 * registers one static worker, "gpulike server" (its mailbox in shared
 * memory is protocol/mailbox.c's).  Nothing touches CUDA there: the
 * postmaster forks every process, and a CUDA context does not survive a
 * fork, so the worker probes devices itself once it runs (engines.c).  If
 * it exits (an error, or pg_terminate_backend), the postmaster starts it
 * again after GL_SERVER_RESTART_SECONDS; backends waiting on the dead one
 * notice the pid and generation change and give up cleanly.
 *
 * The worker initializes a connection to no database
 * (BackgroundWorkerInitializeConnection(NULL, NULL)): it reads no catalogs,
 * but that puts it in the process array, so it shows in pg_stat_activity
 * and can be signalled with pg_terminate_backend like any backend.
 *
 * Main loop.  The main thread owns the sessions and the store:
 * backends post DSM handles (protocol/mailbox.c), the loop attaches them as
 * sessions and polls each session's request queue without blocking, so a
 * long load streaming in does not stop queries from being answered
 * between its batches.  A session gets a few messages per turn.  A MATCH
 * is checked here and handed to a request thread (request_threads.h),
 * one per core and at least GL_MIN_REQUEST_THREADS of them evaluating at
 * once, so a slow request does not hold up the others; finished ones
 * come back through a pipe the loop waits on beside its latch, and their
 * answers go out without waiting, as far as each backend has taken them.
 * The store changes only while no request is out (serve.h:
 * GlStoreAccess): about once a second, and whenever a message needs it
 * (a MATCH whose column has changes waiting in the delta log or lacks its
 * device copy, a load, a SAMPLE, a STATUS), new requests wait until those
 * out have come back, the store syncs with the delta log and the registry
 * (store.c), and the waiting messages go on.  Under writes that makes
 * requests on a changing column take turns with its updates; readers of
 * a column nobody writes run together.
 *
 * An ERROR while serving a message ends only that conversation: it is
 * logged, the session is dropped (its backend sees the queue detach and
 * lets PostgreSQL answer), and the loop goes on.  FATAL (SIGTERM) exits.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <unistd.h>

#include "miscadmin.h"
#include "nodes/pg_list.h"
#include "pgstat.h"
#include "postmaster/bgworker.h"
#include "postmaster/interrupt.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "storage/lwlock.h"
#include "tcop/tcopprot.h"
#include "utils/guc.h"
#include "utils/memutils.h"

#include "protocol/mailbox.h"
#include "protocol/session.h"
#include "server/engines.h"
#include "server/request_threads.h"
#include "server/serve.h"
#include "server/server.h"
#include "server/store.h"
#include "settings.h"

#define GL_SERVER_RESTART_SECONDS	2
#define GL_SYNC_INTERVAL_MS			1000
#define GL_MESSAGES_PER_TURN		8
/*
 * Request threads: one per core, at least this many.  Eight on the
 * 16-core H100 host held 16 sessions at ~2 800 searches/s, each request
 * waiting 2.9 ms for a thread (test/bench/throughput); requests that wait
 * on the GPU leave their core to others, so the floor holds on small
 * machines too.
 */
#define GL_MIN_REQUEST_THREADS		8
#define GL_MAX_REQUEST_THREADS		64
#define GL_MAX_POSTS_PER_TURN		GL_POST_SLOTS

PGDLLEXPORT void gl_server_main(Datum main_arg);

static List *sessions = NIL;
static MemoryContext request_context = NULL;
static WaitEventSet *wait_set = NULL;
static TimestampTz last_sync = 0;
static bool quiet_wanted = false;	/* the store is to be synced once no
									 * request is out */
static uint64 syncs = 0;		/* times it was */
static bool budget_changed = false;

void
gl_server_register(void)
{
	BackgroundWorker worker;

	memset(&worker, 0, sizeof(worker));
	worker.bgw_flags = BGWORKER_SHMEM_ACCESS |
		BGWORKER_BACKEND_DATABASE_CONNECTION;
	worker.bgw_start_time = BgWorkerStart_ConsistentState;
	worker.bgw_restart_time = GL_SERVER_RESTART_SECONDS;
	snprintf(worker.bgw_library_name, BGW_MAXLEN, "gpulike");
	snprintf(worker.bgw_function_name, BGW_MAXLEN, "gl_server_main");
	snprintf(worker.bgw_name, BGW_MAXLEN, "gpulike server");
	snprintf(worker.bgw_type, BGW_MAXLEN, "gpulike server");
	RegisterBackgroundWorker(&worker);
}

/* Attach every newly posted session. */
static void
accept_sessions(void)
{
	dsm_handle	handles[GL_MAX_POSTS_PER_TURN];
	int			n = gl_server_take_posts(handles, GL_MAX_POSTS_PER_TURN);
	int			i;

	for (i = 0; i < n; i++)
	{
		GlSession  *session;
		GlServerSession *ss;
		MemoryContext old = MemoryContextSwitchTo(TopMemoryContext);

		session = gl_session_attach(handles[i]);
		if (session != NULL)
		{
			ss = palloc0(sizeof(GlServerSession));
			ss->session = session;
			sessions = lappend(sessions, ss);
		}
		MemoryContextSwitchTo(old);
	}
}

/*
 * What a message may do to the store now (serve.h).  A quiet store is
 * first brought up to date when anything waits for that (a held message,
 * the periodic sync, device copies a GPU failure spoiled, a new device
 * budget).  synced: the message was held, and the store has synced since.
 */
static GlStoreAccess
store_access(bool synced)
{
	if (gl_serve_requests_out() > 0)
		return synced ? GL_STORE_SYNCED : quiet_wanted ? GL_STORE_HELD : GL_STORE_BUSY;
	if (quiet_wanted)
	{
		gl_serve_quiet_store();
		if (budget_changed)
			gl_store_fit_device_budget();
		budget_changed = false;
		last_sync = GetCurrentTimestamp();
		syncs++;
		quiet_wanted = false;
	}
	return GL_STORE_QUIET;
}

/*
 * Serve one message; an ERROR ends the conversation, not the server.
 * The message is copied out by shm_mq or read in place; it stays valid
 * until the next receive on the session.  False: held, to be offered
 * again when the store is quiet.
 */
static bool
serve_one(GlServerSession *ss, const char *data, Size len, bool synced)
{
	MemoryContext old = MemoryContextSwitchTo(request_context);
	bool		served = true;

	PG_TRY();
	{
		served = gl_serve_message(ss, data, len, store_access(synced));
	}
	PG_CATCH();
	{
		ErrorData  *edata;

		MemoryContextSwitchTo(request_context);
		edata = CopyErrorData();
		FlushErrorState();
		LWLockReleaseAll();
		ereport(LOG,
				(errmsg("gpulike server: request failed: %s", edata->message)));
		gl_serve_abandon(ss);
		ss->finished = true;
	}
	PG_END_TRY();

	MemoryContextSwitchTo(old);
	MemoryContextReset(request_context);
	if (!served)
	{
		ss->held = data;
		ss->held_len = len;
		ss->held_at_sync = syncs;
		quiet_wanted = true;
	}
	return served;
}

/*
 * Offer a session's held message again, if it is of the kind asked for
 * (one that changes the store, or a MATCH).  True if it was served.
 */
static bool
serve_held(GlServerSession *ss, bool changes_store)
{
	const char *data = ss->held;

	if (data == NULL || ss->in_flight != NULL || ss->finished ||
		gl_serve_changes_store(data, ss->held_len) != changes_store)
		return false;
	ss->held = NULL;
	return serve_one(ss, data, ss->held_len, ss->held_at_sync < syncs);
}

/*
 * A session's turn: the answer it is being sent, then up to a few new
 * messages -- none while a MATCH of it is out or a message of it is held.
 * True if anything was done.
 */
static bool
serve_session(GlServerSession *ss)
{
	bool		busy = false;

	if (ss->in_flight != NULL && ss->answering)
		busy = gl_serve_send_answer(ss);
	if (ss->in_flight != NULL || ss->finished)
		return busy;
	for (int k = 0; k < GL_MESSAGES_PER_TURN; k++)
	{
		Size		len;
		void	   *data;
		shm_mq_result res;

		if (ss->in_flight != NULL || ss->finished || ss->held != NULL)
			break;
		res = gl_session_receive_nowait(ss->session, &len, &data);
		if (res == SHM_MQ_WOULD_BLOCK)
			break;
		if (res == SHM_MQ_DETACHED)
		{
			gl_serve_abandon(ss);
			ss->finished = true;
			break;
		}
		busy = true;
		(void) serve_one(ss, data, len, false);
	}
	return busy;
}

/*
 * Give every session a turn; true if anything was done.  Held messages
 * go first, so that none waits behind new ones for long: those that
 * change the store while it is quiet, then the MATCHes (each has what it
 * needs of the delta log once the store has synced since it was held),
 * then every session's answer and new messages.
 */
static bool
serve_sessions(void)
{
	bool		busy = false;
	ListCell   *lc;
	List	   *still_open = NIL;
	MemoryContext old;

	foreach(lc, sessions)
		busy |= serve_held(lfirst(lc), true);
	foreach(lc, sessions)
		busy |= serve_held(lfirst(lc), false);
	foreach(lc, sessions)
		busy |= serve_session(lfirst(lc));

	old = MemoryContextSwitchTo(TopMemoryContext);
	foreach(lc, sessions)
	{
		GlServerSession *ss = lfirst(lc);

		/* a request out for a session that ended still comes back to it */
		if (ss->finished && ss->in_flight == NULL)
		{
			gl_session_detach(ss->session);
			pfree(ss);
		}
		else
			still_open = lappend(still_open, ss);
	}
	MemoryContextSwitchTo(old);
	list_free(sessions);
	sessions = still_open;
	return busy;
}

/*
 * The server is exiting (an ERROR at the top, FATAL, SIGTERM): request
 * threads still read the requests' messages and columns, so they are told
 * to give up (each request's session flag, which they check between
 * steps) and waited for, before any of that memory goes away.  If they do
 * not stop in time, the process ends without its cleanup, which the
 * postmaster treats as a crash: never a thread reading unmapped memory.
 */
#define GL_STOP_WAIT_MS		30000

static void
stop_request_threads(int code, Datum arg)
{
	ListCell   *lc;

	foreach(lc, sessions)
	{
		GlServerSession *ss = lfirst(lc);

		if (ss->in_flight != NULL)
			gl_session_give_up(ss->session);
	}
	for (int waited = 0; !gl_request_threads_idle(); waited++)
	{
		if (waited >= GL_STOP_WAIT_MS)
			_exit(2);
		pg_usleep(1000L);
	}
}

/* Requests the request threads finished: their answers start going out. */
static bool
take_finished_requests(void)
{
	GlThreadJob *job = gl_request_threads_done();
	bool		any = job != NULL;

	while (job != NULL)
	{
		GlThreadJob *next = job->next;

		gl_serve_completed(job);
		job = next;
	}
	return any;
}

void
gl_server_main(Datum main_arg)
{
	int			nthreads;

	pqsignal(SIGHUP, SignalHandlerForConfigReload);
	pqsignal(SIGTERM, die);
	BackgroundWorkerUnblockSignals();
	BackgroundWorkerInitializeConnection(NULL, NULL, 0);

	request_context = AllocSetContextCreate(TopMemoryContext,
											"gpulike request",
											ALLOCSET_DEFAULT_SIZES);
	gl_store_init();

	/*
	 * Announce before probing devices: the probe can take a second, and
	 * backends that post meanwhile should wait for this server rather than
	 * be told none is running.
	 */
	(void) gl_server_announce();
	gl_engines_start();
	gl_store_request_reloads();
	nthreads = gl_request_threads_start(Min(Max(gl_online_cpus(), GL_MIN_REQUEST_THREADS),
											GL_MAX_REQUEST_THREADS));
	before_shmem_exit(stop_request_threads, (Datum) 0);
	if (nthreads < 1)
		ereport(LOG,
				(errmsg("gpulike server: no request thread could be started; requests are served one at a time")));
	wait_set = CreateWaitEventSet(TopMemoryContext, nthreads > 0 ? 3 : 2);
	AddWaitEventToSet(wait_set, WL_LATCH_SET, PGINVALID_SOCKET, MyLatch, NULL);
	AddWaitEventToSet(wait_set, WL_EXIT_ON_PM_DEATH, PGINVALID_SOCKET, NULL, NULL);
	if (nthreads > 0)
		AddWaitEventToSet(wait_set, WL_SOCKET_READABLE, gl_request_threads_done_fd(),
						  NULL, NULL);
	ereport(LOG,
			(errmsg("gpulike server started: %s engine, %d CPU threads, %d request threads",
					gl_engines_gpu_ready() ? "cuda" : "cpu",
					gl_cpu_engine_threads(), nthreads)));

	for (;;)
	{
		bool		busy;
		WaitEvent	event;

		CHECK_FOR_INTERRUPTS();
		if (ConfigReloadPending)
		{
			ConfigReloadPending = false;
			ProcessConfigFile(PGC_SIGHUP);
			quiet_wanted = true;
			budget_changed = true;	/* the device budget, once quiet */
		}

		accept_sessions();
		busy = take_finished_requests();
		busy |= serve_sessions();

		if (gl_serve_device_copies_failed() ||
			TimestampDifferenceExceeds(last_sync, GetCurrentTimestamp(),
									   GL_SYNC_INTERVAL_MS))
			quiet_wanted = true;
		if (quiet_wanted && gl_serve_requests_out() == 0)
		{
			(void) store_access(false);
			busy = true;
		}

		if (!busy)
		{
			(void) WaitEventSetWait(wait_set, GL_SYNC_INTERVAL_MS, &event, 1,
									PG_WAIT_EXTENSION);
			ResetLatch(MyLatch);
		}
	}
}
