/*-------------------------------------------------------------------------
 *
 * session.c
 *	  Sessions: one DSM segment with a request and a response shm_mq (see
 *	  session.h), both ends of them: a backend's and the server's.
 *
 * Segment layout: a GlSessionLayout header with the request queue's size,
 * then the request queue, then the response queue, each MAXALIGNed.  The backend
 * creates the segment, is the sender of the first queue and the receiver of
 * the second; the server attaches as the opposite ends.
 *
 * The backend uses only non-blocking queue operations and does its own
 * waiting: shm_mq's blocking calls wait on the latch forever unless a
 * BackgroundWorkerHandle tells them the counterparty died, and the gpulike
 * server is a static worker with no such handle.  Our wait loop instead
 * checks the server's pid and generation (mailbox.h) every time it
 * wakes up, so a server that died before attaching cannot hang a backend.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "miscadmin.h"
#include "pgstat.h"
#include "storage/latch.h"
#include "storage/proc.h"
#include "utils/memutils.h"
#include "utils/resowner.h"

#include "protocol/mailbox.h"
#include "protocol/session.h"

/*
 * The response queue follows the request queue; each knows its own size.
 * abandoned is set by the backend as it detaches (an error, a cancel, its
 * exit), or by an exiting server: the server need not finish what it was
 * doing for it.
 */
typedef struct GlSessionLayout
{
	Size		request_queue;	/* bytes */
	volatile uint32 abandoned;
} GlSessionLayout;

/* How often a waiting backend looks at the server's liveness. */
#define GL_POLL_MS	100

static void *
request_queue_address(GlSessionLayout *layout)
{
	return (char *) layout + MAXALIGN(sizeof(GlSessionLayout));
}

static void *
response_queue_address(GlSessionLayout *layout)
{
	return (char *) request_queue_address(layout) + layout->request_queue;
}

static void
wait_a_little(void)
{
	(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
					 GL_POLL_MS, PG_WAIT_EXTENSION);
	ResetLatch(MyLatch);
	CHECK_FOR_INTERRUPTS();
}

GlSession *
gl_session_open(Size request_queue, Size response_queue, const char **why_not)
{
	GlSession  *session;
	GlSessionLayout *layout;
	shm_mq	   *outq;
	shm_mq	   *inq;
	uint64		generation;

	if (!gl_server_current(NULL, &generation, NULL))
	{
		*why_not = !gl_mailbox_available() ?
			"gpulike is not in shared_preload_libraries" :
			"the gpulike server is not running";
		return NULL;
	}

	request_queue = MAXALIGN(request_queue);
	response_queue = MAXALIGN(response_queue);
	session = palloc0(sizeof(GlSession));
	session->server_generation = generation;
	session->seg = dsm_create(MAXALIGN(sizeof(GlSessionLayout)) +
							  request_queue + response_queue,
							  DSM_CREATE_NULL_IF_MAXSEGMENTS);
	if (session->seg == NULL)
	{
		pfree(session);
		*why_not = "no dynamic shared memory segment is free for a gpulike request";
		return NULL;
	}
	layout = dsm_segment_address(session->seg);
	layout->request_queue = request_queue;
	layout->abandoned = 0;

	outq = shm_mq_create(request_queue_address(layout), request_queue);
	shm_mq_set_sender(outq, MyProc);
	inq = shm_mq_create(response_queue_address(layout), response_queue);
	shm_mq_set_receiver(inq, MyProc);
	session->outq = shm_mq_attach(outq, session->seg, NULL);
	session->inq = shm_mq_attach(inq, session->seg, NULL);

	/* The mailbox is full only for an instant; wait for a free slot. */
	while (!gl_server_post(dsm_segment_handle(session->seg), generation))
	{
		if (!gl_server_alive(generation))
		{
			gl_session_close(session);
			*why_not = "the gpulike server stopped";
			return NULL;
		}
		wait_a_little();
	}
	return session;
}

bool
gl_session_send(GlSession *session, shm_mq_iovec *iov, int iovcnt)
{
	for (;;)
	{
		shm_mq_result res = shm_mq_sendv(session->outq, iov, iovcnt, true, true);

		if (res == SHM_MQ_SUCCESS)
			return true;
		if (res == SHM_MQ_DETACHED || !gl_server_alive(session->server_generation))
			return false;
		wait_a_little();
	}
}

bool
gl_session_receive(GlSession *session, Size *nbytes, void **data, int timeout_ms)
{
	TimestampTz deadline = 0;

	if (timeout_ms > 0)
		deadline = TimestampTzPlusMilliseconds(GetCurrentTimestamp(), timeout_ms);

	for (;;)
	{
		shm_mq_result res = shm_mq_receive(session->inq, nbytes, data, true);

		if (res == SHM_MQ_SUCCESS)
			return true;
		if (res == SHM_MQ_DETACHED)
			return false;
		if (!gl_server_alive(session->server_generation))
		{
			/* It may have answered just before it went away. */
			return shm_mq_receive(session->inq, nbytes, data, true) == SHM_MQ_SUCCESS;
		}
		if (deadline != 0 && GetCurrentTimestamp() >= deadline)
			return false;
		wait_a_little();
	}
}

void
gl_session_close(GlSession *session)
{
	shm_mq_detach(session->outq);
	shm_mq_detach(session->inq);
	dsm_detach(session->seg);
	pfree(session);
}

/* ------------------------------------------------------ the kept session */

static GlSession *kept_session = NULL;

/*
 * The kept session's segment is being detached: closed by us, or released
 * by the resource owner of a conversation that failed.  Forget it; the
 * next conversation opens another.
 */
static void
forget_kept_session(dsm_segment *seg, Datum arg)
{
	GlSession  *session = kept_session;

	if (session == NULL || session->seg != seg)
		return;
	((GlSessionLayout *) dsm_segment_address(seg))->abandoned = 1;
	kept_session = NULL;
	shm_mq_detach(session->outq);
	shm_mq_detach(session->inq);
	pfree(session);
}

GlSession *
gl_session_begin_conversation(const char **why_not)
{
	if (kept_session != NULL && !gl_server_alive(kept_session->server_generation))
		dsm_detach(kept_session->seg);	/* a server that is gone */
	if (kept_session == NULL)
	{
		MemoryContext oldcxt = MemoryContextSwitchTo(TopMemoryContext);
		GlSession  *session = gl_session_open(GL_SMALL_QUEUE, GL_ANSWER_QUEUE,
											  why_not);

		MemoryContextSwitchTo(oldcxt);
		if (session == NULL)
			return NULL;
		dsm_pin_mapping(session->seg);
		on_dsm_detach(session->seg, forget_kept_session, (Datum) 0);
		kept_session = session;
	}
	dsm_unpin_mapping(kept_session->seg);
	return kept_session;
}

void
gl_session_end_conversation(GlSession *session, bool completed)
{
	Assert(session == kept_session);
	if (completed)
		dsm_pin_mapping(session->seg);
	else
		dsm_detach(session->seg);
}

/*
 * Server side.  The server has no resource owner outside its requests; the
 * mapping is tied to the session and released by gl_session_detach.
 */
GlSession *
gl_session_attach(dsm_handle handle)
{
	ResourceOwner saved_owner = CurrentResourceOwner;
	GlSession  *session;
	GlSessionLayout *layout;
	dsm_segment *seg;
	shm_mq	   *inq;
	shm_mq	   *outq;

	CurrentResourceOwner = NULL;
	seg = dsm_attach(handle);
	CurrentResourceOwner = saved_owner;
	if (seg == NULL)
		return NULL;			/* the backend already gave up */

	layout = dsm_segment_address(seg);
	inq = request_queue_address(layout);
	outq = response_queue_address(layout);
	shm_mq_set_receiver(inq, MyProc);
	shm_mq_set_sender(outq, MyProc);

	session = palloc0(sizeof(GlSession));
	session->seg = seg;
	session->inq = shm_mq_attach(inq, seg, NULL);
	session->outq = shm_mq_attach(outq, seg, NULL);
	return session;
}

shm_mq_result
gl_session_receive_nowait(GlSession *session, Size *nbytes, void **data)
{
	return shm_mq_receive(session->inq, nbytes, data, true);
}

shm_mq_result
gl_session_send_nowait(GlSession *session, const void *data, Size nbytes)
{
	return shm_mq_send(session->outq, nbytes, data, true, true);
}

bool
gl_session_send_blocking(GlSession *session, const void *data, Size nbytes)
{
	return shm_mq_send(session->outq, nbytes, data, false, true) == SHM_MQ_SUCCESS;
}

void
gl_session_give_up(GlSession *session)
{
	((GlSessionLayout *) dsm_segment_address(session->seg))->abandoned = 1;
}

const volatile uint32 *
gl_session_abandoned_flag(GlSession *session)
{
	return &((GlSessionLayout *) dsm_segment_address(session->seg))->abandoned;
}

void
gl_session_detach(GlSession *session)
{
	shm_mq_detach(session->inq);
	shm_mq_detach(session->outq);
	dsm_detach(session->seg);
	pfree(session);
}
