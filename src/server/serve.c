/*-------------------------------------------------------------------------
 *
 * serve.c
 *	  What the gpulike server does with each message (protocol.h).
 *
 * Every message is checked here before anything reads its contents: its
 * length, and for a MATCH every item, program and operator (a request
 * the server cannot read is not answered).  The store first syncs with
 * the registry and the delta log (gl_store_sync) before any message whose
 * answer depends on what it holds: SAMPLE, STATUS, LOAD_BEGIN and
 * LOAD_END, and a MATCH when no other request is out.
 *
 * MATCH: every row a query's snapshot can see was logged before that
 * snapshot was taken, hence before the request was sent, so the delta log
 * is applied first -- or, while other requests are out and the store may
 * not change, the request goes at once only if the log holds nothing for
 * its columns (columns_current), and otherwise waits for the store to be
 * quiet (server.c).  Each leaf's cache must still be ready under the
 * generation the backend named (a cache can turn stale between the
 * backend's check and now).  A request thread evaluates it (evaluate.c),
 * or this thread at once when no row can match it (the column's pair
 * summary says so, and a thread's round trip would cost more); when it
 * comes back, its reply and the answer's page records go out in
 * chunks as the backend reads them (gl_serve_send_answer), and the
 * columns it used are noted in their statistics.  Anything that prevents
 * an exact answer is an UNAVAILABLE reply: the backend then lets
 * PostgreSQL answer.  MATCH, SAMPLE and STATUS come over a backend's kept
 * session, which stays open after the answer.
 *
 * LOAD_BEGIN / LOAD_ROWS / LOAD_END: build a new column for (slot,
 * generation) in the store beside the serving one, and put it in its
 * place at the end (loader.c has the protocol: writers go on writing, and
 * the changes they log meanwhile are applied after the scanned rows).
 * LOAD_BEGIN is acknowledged, so a load that cannot start fails before
 * the heap scan.  A failure (budget, quota, out of memory) is replied and
 * ends the conversation; the backend reads the reply when its next send
 * finds the queue detached.  A load the registry gave up meanwhile (the
 * table changed in a way no copy follows) ends in an UNAVAILABLE reply
 * saying why; the serving column stays as it was.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "nodes/pg_list.h"
#include "utils/memutils.h"
#include "utils/timestamp.h"

#include "program/program.h"
#include "protocol/session.h"
#include "registry/stats.h"
#include "server/engines.h"
#include "server/evaluate.h"
#include "server/request_threads.h"
#include "server/serve.h"
#include "server/store.h"
#include "sync/delta_log.h"

static void
send_reply(GlServerSession *ss, GlReply *reply)
{
	reply->hdr.kind = GL_MSG_REPLY;
	if (!gl_session_send_blocking(ss->session, reply, sizeof(GlReply)))
		ss->finished = true;
}

/*
 * A request the server cannot answer (UNAVAILABLE) ends only that
 * conversation; a failed or malformed one (ERROR) ends the session.
 */
static void
send_failure(GlServerSession *ss, GlReplyStatus status, const char *message)
{
	GlReply		reply;

	memset(&reply, 0, sizeof(reply));
	reply.status = status;
	strlcpy(reply.message, message, sizeof(reply.message));
	send_reply(ss, &reply);
	if (status == GL_REPLY_ERROR)
		ss->finished = true;
}

/* Does a leaf's program lie within the message, whole and well formed? */
static bool
program_valid(const GlMatchMessage *msg, Size len, const GlMatchItem *item)
{
	const GlProgram *prog;

	if (item->program_off % 8 != 0 || item->program_size < sizeof(GlProgram) ||
		item->program_off > len || len - item->program_off < item->program_size)
		return false;
	prog = (const GlProgram *) ((const char *) msg + item->program_off);
	return prog->magic == GL_PROGRAM_MAGIC &&
		prog->total_size == item->program_size &&
		prog->kind >= GL_PROG_LIKE && prog->kind <= GL_PROG_DFA;
}

/*
 * Is msg (len bytes) a MATCH the evaluator can read: at least one item,
 * all of them within the message, every leaf's program too, every AND and
 * OR popping operands that are there, one operand left at the end, and a
 * counting request's bitmap within the message?  *visible gets the bitmap
 * (bits NULL when the request does not count).
 */
static bool
match_valid(const GlMatchMessage *msg, Size len, GlVisibleBlocks *visible)
{
	Size		bitmap_bytes;
	uint32		depth = 0;

	if (len < offsetof(GlMatchMessage, items) || msg->nitems == 0 ||
		msg->nitems > (len - offsetof(GlMatchMessage, items)) / sizeof(GlMatchItem))
		return false;
	for (uint32 i = 0; i < msg->nitems; i++)
	{
		const GlMatchItem *item = &msg->items[i];

		if (item->op == GL_MATCH_LEAF && program_valid(msg, len, item))
			depth++;
		else if ((item->op == GL_MATCH_AND || item->op == GL_MATCH_OR) &&
				 item->noperands >= 1 && item->noperands <= depth)
			depth -= item->noperands - 1;
		else
			return false;
	}
	if (depth != 1)
		return false;

	visible->bits = NULL;
	visible->nblocks = 0;
	if (msg->visible_blocks == 0)
		return true;
	bitmap_bytes = gl_bitmap_words(msg->visible_blocks) * sizeof(uint64);
	if (msg->visible_off % sizeof(uint64) != 0 || msg->visible_off > len ||
		len - msg->visible_off < bitmap_bytes)
		return false;
	visible->bits = (const uint64 *) ((const char *) msg + msg->visible_off);
	visible->nblocks = msg->visible_blocks;
	return true;
}

/*
 * A MATCH out on a request thread.  It and its arrays live in
 * TopMemoryContext (the message's context is reset when the message has
 * been handed over), and it is freed when its answer has gone out.
 */
typedef struct MatchJob
{
	GlThreadJob thread_job;		/* first: the request threads' view */
	GlServerSession *ss;
	GlEvaluation ev;
	GlVisibleBlocks visible;
} MatchJob;

static int	jobs_out = 0;		/* handed to the request threads, not back */
static List *device_copies_failed = NIL;	/* GlStoredColumn *: drop when quiet */

static void
run_match_job(GlThreadJob *job)
{
	gl_evaluate_match(&((MatchJob *) job)->ev);
}

/*
 * May a MATCH whose leaves are on these columns be evaluated while other
 * requests are out, without changing the store first?  Only if no change
 * is waiting in the delta log for any of its columns (every change the
 * request's snapshot can see was logged before the request was sent, so
 * none pending means none missing; and a request held while the store
 * synced has all of its changes) and each column that is to match on the
 * GPU has its complete device copy.
 */
static bool
columns_current(const GlMatchMessage *msg, GlStoredColumn **columns, bool use_gpu,
				bool synced)
{
	for (uint32 i = 0; i < msg->nitems; i++)
	{
		GlStoredColumn *sc = columns[i];

		if (msg->items[i].op != GL_MATCH_LEAF)
			continue;
		if (!synced && gl_delta_log_pending_slot(msg->items[i].slot) > 0)
			return false;
		if (use_gpu && !gl_store_device_current(sc))
			return false;
	}
	return true;
}

/*
 * A MATCH: checked, its columns found, and handed to a request thread.
 * False when it must wait until no request is out (see gl_serve_message).
 */
static bool
serve_match(GlServerSession *ss, const char *data, Size len, GlStoreAccess access)
{
	const GlMatchMessage *msg = (const GlMatchMessage *) data;
	GlVisibleBlocks visible;
	GlStoredColumn **columns;
	MatchJob   *job;
	bool		use_gpu;

	if (!match_valid(msg, len, &visible))
	{
		send_failure(ss, GL_REPLY_UNAVAILABLE, "malformed gpulike request");
		return true;
	}
	if (access == GL_STORE_QUIET)
		gl_store_sync();
	use_gpu = gl_engines_gpu_ready() && msg->device_choice != GL_DEVICE_CPU;
	columns = MemoryContextAllocZero(TopMemoryContext,
									 msg->nitems * sizeof(GlStoredColumn *));
	for (uint32 i = 0; i < msg->nitems; i++)
	{
		const GlMatchItem *item = &msg->items[i];

		if (item->op != GL_MATCH_LEAF)
			continue;
		if (!gl_store_registry_ready(item->slot, item->generation) ||
			(columns[i] = gl_store_lookup(item->slot, item->generation)) == NULL)
		{
			pfree(columns);
			send_failure(ss, GL_REPLY_UNAVAILABLE,
						 "the gpulike cache changed (stale or rebuilt) since the query started");
			return true;
		}
		if (access == GL_STORE_QUIET && use_gpu)
			(void) gl_store_ensure_device(columns[i]);
	}
	if (access != GL_STORE_QUIET &&
		!columns_current(msg, columns, use_gpu, access == GL_STORE_SYNCED))
	{
		pfree(columns);
		return false;
	}

	job = MemoryContextAllocZero(TopMemoryContext, sizeof(MatchJob));
	job->thread_job.run = run_match_job;
	job->ss = ss;
	job->visible = visible;
	job->ev.msg = msg;
	job->ev.columns = columns;
	job->ev.visible = visible.bits != NULL ? &job->visible : NULL;
	job->ev.use_gpu = use_gpu;
	job->ev.cancel = gl_session_abandoned_flag(ss->session);
	job->ev.gpu_failed = MemoryContextAllocZero(TopMemoryContext,
												msg->nitems * sizeof(bool));
	ss->in_flight = job;
	jobs_out++;

	/*
	 * A request no row can match is answered here at once: a request
	 * thread would cost it two wake-ups (the thread's, then ours through
	 * the pipe) for microseconds of work.
	 */
	if ((msg->delay_ms == 0 && gl_evaluate_no_row_can_match(msg, columns)) ||
		!gl_request_threads_submit(&job->thread_job))
	{
		run_match_job(&job->thread_job);
		gl_serve_completed(&job->thread_job);
	}
	return true;
}

/*
 * Each column the request used, once: its LRU stamp and query count, and
 * the request in its statistics.
 */
static void
note_columns_used(const MatchJob *job)
{
	const GlMatchMessage *msg = job->ev.msg;

	for (uint32 i = 0; i < msg->nitems; i++)
	{
		const GlMatchItem *item = &msg->items[i];
		bool		seen = false;

		if (item->op != GL_MATCH_LEAF)
			continue;
		for (uint32 j = 0; j < i && !seen; j++)
			seen = msg->items[j].op == GL_MATCH_LEAF && msg->items[j].slot == item->slot;
		if (seen)
			continue;
		gl_store_note_query(job->ev.columns[i]);
		gl_stats_count_request(item->slot, item->generation,
							   job->ev.answer.ncandidates + job->ev.answer.counted,
							   job->ev.result.engine_ms,
							   job->ev.result.fell_back ? job->ev.gpu_failure : NULL);
	}
}

static void
free_job(MatchJob *job)
{
	gl_answer_free(&job->ev.answer);
	pfree(job->ev.columns);
	pfree(job->ev.gpu_failed);
	pfree(job);
}

void
gl_serve_completed(GlThreadJob *thread_job)
{
	MatchJob   *job = (MatchJob *) thread_job;
	GlServerSession *ss = job->ss;

	jobs_out--;
	if (job->ev.log_message[0] != '\0')
		ereport(LOG, (errmsg_internal("%s", job->ev.log_message)));
	for (uint32 i = 0; i < job->ev.msg->nitems; i++)
	{
		if (job->ev.gpu_failed[i])
			device_copies_failed = lappend(device_copies_failed, job->ev.columns[i]);
	}
	if (!job->ev.ok)
	{
		ss->in_flight = NULL;
		send_failure(ss, GL_REPLY_UNAVAILABLE, job->ev.why);
		free_job(job);
		return;
	}
	note_columns_used(job);
	memset(&ss->reply, 0, sizeof(GlReply));
	ss->reply.hdr.kind = GL_MSG_REPLY;
	ss->reply.status = GL_REPLY_OK;
	ss->reply.u.match = job->ev.result;
	ss->reply.u.match.queue_ms = Max(job->ev.started_at - job->ev.msg->sent_at, 0) / 1000.0;
	ss->reply_sent = false;
	ss->part = 0;
	ss->part_done = 0;
	ss->answering = true;
	(void) gl_serve_send_answer(ss);
}

bool
gl_serve_send_answer(GlServerSession *ss)
{
	MatchJob   *job = ss->in_flight;
	const GlAnswer *answer;

	if (job == NULL)
		return true;
	answer = &job->ev.answer;
	if (!ss->reply_sent)
	{
		shm_mq_result res = gl_session_send_nowait(ss->session, &ss->reply, sizeof(GlReply));

		if (res == SHM_MQ_WOULD_BLOCK)
			return false;
		ss->reply_sent = res == SHM_MQ_SUCCESS;
		ss->finished |= res == SHM_MQ_DETACHED;
	}
	while (!ss->finished && ss->part < answer->nparts)
	{
		const GlAnswerBuffer *part = &answer->parts[ss->part];
		size_t		n = Min(part->len - ss->part_done, (size_t) GL_ANSWER_CHUNK);
		shm_mq_result res;

		if (n == 0)
		{
			ss->part++;
			ss->part_done = 0;
			continue;
		}
		res = gl_session_send_nowait(ss->session, part->data + ss->part_done, n);
		if (res == SHM_MQ_WOULD_BLOCK)
			return false;
		if (res == SHM_MQ_DETACHED)
			ss->finished = true;
		ss->part_done += n;
	}
	ss->in_flight = NULL;
	ss->answering = false;
	free_job(job);
	return true;
}

int
gl_serve_requests_out(void)
{
	return jobs_out;
}

bool
gl_serve_device_copies_failed(void)
{
	return device_copies_failed != NIL;
}

void
gl_serve_quiet_store(void)
{
	ListCell   *lc;

	Assert(jobs_out == 0);
	foreach(lc, device_copies_failed)
		gl_store_drop_device((GlStoredColumn *) lfirst(lc));
	list_free(device_copies_failed);
	device_copies_failed = NIL;
	gl_store_sync();
}

static void
serve_load_begin(GlServerSession *ss, const char *data, Size len)
{
	const GlLoadBeginMessage *msg = (const GlLoadBeginMessage *) data;
	GlReply		reply;

	if (len != sizeof(GlLoadBeginMessage) || ss->loading)
	{
		send_failure(ss, GL_REPLY_ERROR, "gpulike: malformed load request");
		return;
	}
	/* columns of forgotten slots give their memory back first */
	gl_store_sync();
	memset(&reply, 0, sizeof(reply));
	if (!gl_store_load_begin(msg->slot, msg->generation, msg->rows_hint,
							 msg->bytes_hint, msg->byte_limit,
							 reply.message, sizeof(reply.message)))
	{
		send_failure(ss, GL_REPLY_ERROR, reply.message);
		return;
	}
	ss->loading = true;
	ss->load_slot = msg->slot;
	ss->load_generation = msg->generation;
	reply.status = GL_REPLY_OK;
	send_reply(ss, &reply);
}

static void
serve_load_rows(GlServerSession *ss, const char *data, Size len)
{
	const GlLoadRowsMessage *msg = (const GlLoadRowsMessage *) data;
	char		err[256];

	if (len < sizeof(GlLoadRowsMessage) || !ss->loading)
	{
		send_failure(ss, GL_REPLY_ERROR, "gpulike: malformed load request");
		return;
	}
	if (!gl_store_load_rows(ss->load_slot, ss->load_generation,
							data + sizeof(GlLoadRowsMessage),
							len - sizeof(GlLoadRowsMessage), msg->nrows,
							err, sizeof(err)))
	{
		gl_serve_abandon(ss);
		send_failure(ss, GL_REPLY_ERROR, err);
	}
}

static void
serve_load_end(GlServerSession *ss, Size len)
{
	GlReply		reply;

	if (len != sizeof(GlMessageHeader) || !ss->loading)
	{
		send_failure(ss, GL_REPLY_ERROR, "gpulike: malformed load request");
		return;
	}
	/* every change logged so far goes to the old column or the new one */
	gl_store_sync();
	memset(&reply, 0, sizeof(reply));
	ss->loading = false;
	switch (gl_store_load_end(ss->load_slot, ss->load_generation,
							  reply.message, sizeof(reply.message)))
	{
		case GL_LOAD_INSTALLED:
			reply.status = GL_REPLY_OK;
			send_reply(ss, &reply);
			ss->finished = true;
			break;
		case GL_LOAD_WENT_STALE:
			send_failure(ss, GL_REPLY_UNAVAILABLE, reply.message);
			break;
		case GL_LOAD_FAILED:
			send_failure(ss, GL_REPLY_ERROR, reply.message);
			break;
	}
}

/* A sample of a column for the planner's estimates (protocol.h). */
static void
serve_sample(GlServerSession *ss, const char *data, Size len)
{
	const GlSampleMessage *msg = (const GlSampleMessage *) data;
	GlStoredColumn *sc;
	GlReply		reply;
	dsm_handle	handle;
	size_t		image_bytes;

	if (len != sizeof(GlSampleMessage))
	{
		send_failure(ss, GL_REPLY_ERROR, "gpulike: malformed sample request");
		return;
	}
	gl_store_sync();
	sc = gl_store_lookup(msg->slot, msg->generation);
	if (sc == NULL)
	{
		send_failure(ss, GL_REPLY_UNAVAILABLE, "the column is not held by the gpulike server");
		return;
	}
	if (!gl_store_sample(sc, msg->max_rows, msg->lead_rows, &handle, &image_bytes))
	{
		send_failure(ss, GL_REPLY_UNAVAILABLE, "gpulike server: out of memory sampling a column");
		return;
	}
	memset(&reply, 0, sizeof(reply));
	reply.status = GL_REPLY_OK;
	reply.u.sample.segment = handle;
	reply.u.sample.image_bytes = image_bytes;
	send_reply(ss, &reply);
}

/* The engine, the GPUs and what the caches hold (gpulike.status(), devices()). */
static void
serve_status(GlServerSession *ss)
{
	GlReply		reply;
	GlStatusInfo *status = &reply.u.status;
	uint64		held[GL_MAX_GPUS];
	int			ncolumns;

	gl_store_sync();
	memset(&reply, 0, sizeof(reply));
	gl_engines_describe(status);
	gl_store_bytes_per_device(held, status->ndevices);
	for (int d = 0; d < status->ndevices; d++)
		status->devices[d].cache_bytes = held[d];
	gl_store_totals(&ncolumns, &status->host_bytes, &status->file_bytes,
					&status->device_bytes);
	status->ncolumns = ncolumns;
	reply.status = GL_REPLY_OK;
	send_reply(ss, &reply);
}

bool
gl_serve_changes_store(const char *data, Size len)
{
	GlMessageHeader hdr;

	if (len < sizeof(hdr))
		return false;			/* refused at once */
	memcpy(&hdr, data, sizeof(hdr));
	return hdr.kind != GL_MSG_MATCH;
}

bool
gl_serve_message(GlServerSession *ss, const char *data, Size len, GlStoreAccess access)
{
	GlMessageHeader hdr;

	if (len < sizeof(hdr))
	{
		send_failure(ss, GL_REPLY_ERROR, "gpulike: malformed request");
		return true;
	}
	memcpy(&hdr, data, sizeof(hdr));
	if (access == GL_STORE_HELD ||
		(access != GL_STORE_QUIET && gl_serve_changes_store(data, len)))
		return false;
	if (ss->loading && hdr.kind != GL_MSG_LOAD_ROWS && hdr.kind != GL_MSG_LOAD_END)
	{
		gl_serve_abandon(ss);
		send_failure(ss, GL_REPLY_ERROR, "gpulike: unexpected message during a load");
		return true;
	}

	switch ((GlMessageKind) hdr.kind)
	{
		case GL_MSG_MATCH:
			return serve_match(ss, data, len, access);
		case GL_MSG_LOAD_BEGIN:
			serve_load_begin(ss, data, len);
			break;
		case GL_MSG_LOAD_ROWS:
			serve_load_rows(ss, data, len);
			break;
		case GL_MSG_LOAD_END:
			serve_load_end(ss, len);
			break;
		case GL_MSG_STATUS:
			serve_status(ss);
			break;
		case GL_MSG_SAMPLE:
			serve_sample(ss, data, len);
			break;
		default:
			send_failure(ss, GL_REPLY_ERROR, "gpulike: unknown request");
			break;
	}
	return true;
}

void
gl_serve_abandon(GlServerSession *ss)
{
	if (ss->loading)
		gl_store_load_abort(ss->load_slot, ss->load_generation);
	ss->loading = false;
}
