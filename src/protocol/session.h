/*-------------------------------------------------------------------------
 *
 * session.h
 *	  The session that carries conversations between a backend and the
 *	  gpulike server: one DSM segment holding two shm_mq's (session.c).
 *
 * A session is a segment with a request queue (backend -> server) and a
 * response queue (server -> backend); the backend creates it, posts its
 * handle in the server's mailbox (mailbox.h) and talks.  A session
 * carries conversations (protocol.h).  Loads have sessions of their own,
 * closed at their end.  MATCH, SAMPLE and STATUS go through the backend's
 * kept session (gl_session_begin_conversation), which stays open between
 * conversations: creating a segment, mapping it on both sides and tearing
 * it down again for each request cost more than the whole request
 * otherwise did (1.2 of 1.45 ms on the CPU machine, with the 4 MB answer
 * queue requests had then).  Either
 * side may detach at any time; the segment disappears with its last
 * user, so nothing leaks when a backend errors out or the server dies.
 *
 * Backends never block without watching the server: every wait is on the
 * process latch with a timeout, checks for interrupts, and gives up when
 * the server's pid or generation changes (mailbox.h).  The server sends a
 * MATCH answer without waiting, as far as the backend has read it, and
 * otherwise waits for a backend only to send a short reply into its empty
 * queue; if that backend goes away, its queue detaches and the send
 * returns at once.
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_SESSION_H
#define GPULIKE_SESSION_H

#include "storage/dsm.h"
#include "storage/shm_mq.h"

typedef struct GlSession
{
	dsm_segment *seg;
	shm_mq_handle *outq;		/* what we send */
	shm_mq_handle *inq;			/* what we receive */
	uint64		server_generation;	/* backend side: the server addressed */
} GlSession;

/*
 * Queue sizes.  A message larger than its queue streams through it.  Every
 * backend that asks keeps its session, so its queues stay small: a
 * hundred backends hold 32 MB of shared memory (a container's /dev/shm is
 * often 64 MB), and a dense answer's megabyte chunks stream through the
 * answer queue about as fast as through one four times larger (TPC-H SF1,
 * 280 000 candidates: 13-15 ms either way).
 */
#define GL_SMALL_QUEUE		(64 * 1024)
#define GL_ANSWER_QUEUE		(256 * 1024)
#define GL_LOAD_QUEUE		(8 * 1024 * 1024)

/*
 * Backend side.  gl_session_open returns NULL (and *why_not) when no server
 * runs.  Send and receive return false when the server went away; receive
 * also when timeout_ms (0 = none) passed.  All of them may ereport(ERROR)
 * on interrupts (query cancel), after which the resource owner detaches
 * the segment.
 */
extern GlSession *gl_session_open(Size request_queue, Size response_queue,
								  const char **why_not);
extern bool gl_session_send(GlSession *session, shm_mq_iovec *iov, int iovcnt);
extern bool gl_session_receive(GlSession *session, Size *nbytes, void **data,
							   int timeout_ms);
extern void gl_session_close(GlSession *session);

/*
 * The backend's kept session for one conversation (MATCH, SAMPLE, STATUS),
 * opened if there is none, or none that the running server serves; NULL
 * (and *why_not) when no server runs.  While the conversation lasts the
 * segment belongs to the current resource owner, so an error detaches it
 * and the server stops talking to us.  End every conversation with
 * gl_session_end_conversation: completed = false (the answer was not read
 * to its end, the server failed the request) closes the session, and the
 * next conversation opens a new one.
 */
extern GlSession *gl_session_begin_conversation(const char **why_not);
extern void gl_session_end_conversation(GlSession *session, bool completed);

/*
 * Server side: attach a posted segment (NULL if its backend already left),
 * and the two directions.  Receive never waits; send waits only while the
 * backend is attached and reading.
 */
extern GlSession *gl_session_attach(dsm_handle handle);
extern shm_mq_result gl_session_receive_nowait(GlSession *session,
											   Size *nbytes, void **data);
extern bool gl_session_send_blocking(GlSession *session, const void *data,
									 Size nbytes);

/*
 * A send that does not wait: SHM_MQ_WOULD_BLOCK means the backend has not
 * made room yet, and the same message (data, nbytes) must be offered again
 * (shm_mq keeps what part of it went).
 */
extern shm_mq_result gl_session_send_nowait(GlSession *session,
											const void *data, Size nbytes);

/*
 * Nonzero once the backend has left the session (an error, a cancel or
 * statement_timeout, its exit): what it asked need not be finished.
 * Threads may read it.
 */
extern const volatile uint32 *gl_session_abandoned_flag(GlSession *session);

/* The server gives up what it was doing for the session (it is exiting). */
extern void gl_session_give_up(GlSession *session);
extern void gl_session_detach(GlSession *session);

#endif							/* GPULIKE_SESSION_H */
