/*-------------------------------------------------------------------------
 *
 * requests.h
 *	  The gpulike server's handling of one message of one session.
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_REQUESTS_H
#define GPULIKE_REQUESTS_H

#include "protocol/session.h"

/* The server's side of one conversation (protocol.h). */
typedef struct GlServerSession
{
	GlSession  *session;
	bool		loading;		/* between LOAD_BEGIN and LOAD_END */
	int			load_slot;
	uint64		load_generation;
	bool		finished;		/* conversation over: detach */
} GlServerSession;

extern void gl_serve_message(GlServerSession *ss, const char *data, Size len);

/* The conversation ended early (backend gone, error): drop its load. */
extern void gl_serve_abandon(GlServerSession *ss);

#endif							/* GPULIKE_REQUESTS_H */
