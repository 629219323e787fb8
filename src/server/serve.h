/*-------------------------------------------------------------------------
 *
 * serve.h
 *	  The gpulike server's handling of each message of each session
 *	  (serve.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_SERVE_H
#define GPULIKE_SERVE_H

#include "protocol/protocol.h"
#include "protocol/session.h"
#include "server/request_threads.h"

/* The server's side of one conversation (protocol.h). */
typedef struct GlServerSession
{
	GlSession  *session;
	bool		loading;		/* between LOAD_BEGIN and LOAD_END */
	int			load_slot;
	uint64		load_generation;
	bool		finished;		/* conversation over: detach */
	/* a message received but not yet served: it waits for a quiet store */
	const char *held;
	Size		held_len;
	uint64		held_at_sync;	/* the server's count of syncs then */
	/* a MATCH out on a request thread, then its answer going out */
	struct MatchJob *in_flight;
	bool		answering;		/* it came back: its answer is going out */
	GlReply		reply;
	bool		reply_sent;
	int			part;			/* of the answer: the part being sent */
	size_t		part_done;		/* and its bytes sent */
} GlServerSession;

/*
 * What a message may do to the store (store.h), which the main thread
 * alone changes, and only while no request is out on a request thread:
 * QUIET, nothing is out (anything may be done: syncing with the delta
 * log, loads, device uploads); BUSY, requests are out (only a MATCH that
 * needs no change of the store can go); SYNCED, the same for a MATCH held
 * earlier, the store synced since (the changes logged before it was sent
 * are in); HELD, a message already waits for a quiet store (nothing new
 * goes, so that it does not wait for long).
 */
typedef enum GlStoreAccess
{
	GL_STORE_QUIET,
	GL_STORE_BUSY,
	GL_STORE_SYNCED,
	GL_STORE_HELD
} GlStoreAccess;

/*
 * Serve one message.  False: it was not served and must be offered again
 * when the store is quiet (the caller holds it; it stays valid until the
 * next receive on the session).
 */
extern bool gl_serve_message(GlServerSession *ss, const char *data, Size len,
							 GlStoreAccess access);

/* Does a message need a quiet store (anything but a MATCH)? */
extern bool gl_serve_changes_store(const char *data, Size len);

/* A request thread finished a MATCH: its answer starts going out. */
extern void gl_serve_completed(GlThreadJob *job);

/* Send what the backend can take of a MATCH answer; true once all went. */
extern bool gl_serve_send_answer(GlServerSession *ss);

/* MATCHes out on the request threads. */
extern int	gl_serve_requests_out(void);

/* Device copies a GPU failure spoiled wait to be dropped (when quiet). */
extern bool gl_serve_device_copies_failed(void);

/*
 * With no request out: drop the device copies a GPU failure spoiled and
 * sync the store with the registry and the delta log.
 */
extern void gl_serve_quiet_store(void);

/* The conversation ended early (backend gone, error): drop its load. */
extern void gl_serve_abandon(GlServerSession *ss);

#endif							/* GPULIKE_SERVE_H */
