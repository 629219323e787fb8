/*-------------------------------------------------------------------------
 *
 * requests.c
 *	  What the gpulike server does with each message (protocol.h).
 *
 * MATCH: apply the delta log first (every row a query's snapshot can see
 * was logged before that snapshot was taken, hence before the request was
 * sent), then check that each leaf's cache is still ready under the
 * generation the backend named (a cache can turn stale between the
 * backend's check and now), evaluate, and stream the answer's page records
 * back in chunks.  Anything that prevents an exact answer is an UNAVAILABLE reply:
 * the backend then lets PostgreSQL answer.  MATCH, SAMPLE and STATUS come
 * over a backend's kept session, which stays open after the answer.
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

#include "storage/itemptr.h"

#include "server/evaluate.h"
#include "server/requests.h"
#include "server/store.h"

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

/* Stream the answer's bytes in chunks; stops if the backend left. */
static void
send_answer(GlServerSession *ss, const GlAnswer *answer)
{
	for (int i = 0; i < answer->nparts && !ss->finished; i++)
	{
		const GlAnswerBuffer *part = &answer->parts[i];
		size_t		done = 0;

		while (done < part->len && !ss->finished)
		{
			size_t		n = Min(part->len - done, (size_t) GL_ANSWER_CHUNK);

			if (!gl_session_send_blocking(ss->session, part->data + done, n))
				ss->finished = true;
			done += n;
		}
	}
}

static void
serve_match(GlServerSession *ss, const char *data, Size len)
{
	const GlMatchMessage *msg = (const GlMatchMessage *) data;
	GlReply		reply;
	GlAnswer	answer;
	uint32		i;

	gl_store_sync();

	if (len >= offsetof(GlMatchMessage, items) &&
		msg->nitems <= (len - offsetof(GlMatchMessage, items)) / sizeof(GlMatchItem))
	{
		for (i = 0; i < msg->nitems; i++)
		{
			const GlMatchItem *item = &msg->items[i];

			if (item->op == GL_MATCH_LEAF &&
				!gl_store_registry_ready(item->slot, item->generation))
			{
				send_failure(ss, GL_REPLY_UNAVAILABLE,
							 "the gpulike cache changed (stale or rebuilt) since the query started");
				return;
			}
		}
	}

	memset(&reply, 0, sizeof(reply));
	if (!gl_engines_run_match(msg, len, &answer, &reply.u.match,
							  reply.message, sizeof(reply.message)))
	{
		send_failure(ss, GL_REPLY_UNAVAILABLE, reply.message);
		return;
	}
	reply.status = GL_REPLY_OK;
	PG_TRY();
	{
		send_reply(ss, &reply);
		send_answer(ss, &answer);
	}
	PG_FINALLY();
	{
		gl_answer_free(&answer);
	}
	PG_END_TRY();
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
							  &reply.u.load.nrows, &reply.u.load.host_bytes,
							  &reply.u.load.device_bytes,
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

static void
serve_forget(GlServerSession *ss, const char *data, Size len)
{
	const GlForgetMessage *msg = (const GlForgetMessage *) data;
	GlReply		reply;

	if (len != sizeof(GlForgetMessage))
	{
		send_failure(ss, GL_REPLY_ERROR, "gpulike: malformed forget request");
		return;
	}
	gl_store_forget(msg->slot);
	memset(&reply, 0, sizeof(reply));
	reply.status = GL_REPLY_OK;
	send_reply(ss, &reply);
	ss->finished = true;
}

/* Rows of a column for the planner's estimates (protocol.h). */
static void
serve_sample(GlServerSession *ss, const char *data, Size len)
{
	const GlSampleMessage *msg = (const GlSampleMessage *) data;
	GlStoredColumn *sc;
	GlReply		reply;
	const char *rows;
	uint32		nrows;
	size_t		nbytes;

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
	if (!gl_store_sample(sc, msg->max_rows, &rows, &nrows, &nbytes))
	{
		send_failure(ss, GL_REPLY_UNAVAILABLE, "gpulike server: out of memory sampling a column");
		return;
	}
	memset(&reply, 0, sizeof(reply));
	reply.status = GL_REPLY_OK;
	reply.u.sample.nrows = nrows;
	reply.u.sample.nbytes = nbytes;
	send_reply(ss, &reply);
	if (!ss->finished && nbytes > 0 &&
		!gl_session_send_blocking(ss->session, rows, nbytes))
		ss->finished = true;
}

static void
serve_status(GlServerSession *ss)
{
	GlReply		reply;
	int			ncolumns;

	memset(&reply, 0, sizeof(reply));
	gl_engines_describe(&reply.u.status);
	gl_store_totals(&ncolumns, &reply.u.status.host_bytes,
					&reply.u.status.device_bytes);
	reply.u.status.ncolumns = ncolumns;
	reply.status = GL_REPLY_OK;
	send_reply(ss, &reply);
}

void
gl_serve_message(GlServerSession *ss, const char *data, Size len)
{
	GlMessageHeader hdr;

	if (len < sizeof(hdr))
	{
		send_failure(ss, GL_REPLY_ERROR, "gpulike: malformed request");
		return;
	}
	memcpy(&hdr, data, sizeof(hdr));
	if (ss->loading && hdr.kind != GL_MSG_LOAD_ROWS && hdr.kind != GL_MSG_LOAD_END)
	{
		gl_serve_abandon(ss);
		send_failure(ss, GL_REPLY_ERROR, "gpulike: unexpected message during a load");
		return;
	}

	switch ((GlMessageKind) hdr.kind)
	{
		case GL_MSG_MATCH:
			serve_match(ss, data, len);
			break;
		case GL_MSG_LOAD_BEGIN:
			serve_load_begin(ss, data, len);
			break;
		case GL_MSG_LOAD_ROWS:
			serve_load_rows(ss, data, len);
			break;
		case GL_MSG_LOAD_END:
			serve_load_end(ss, len);
			break;
		case GL_MSG_FORGET:
			serve_forget(ss, data, len);
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
}

void
gl_serve_abandon(GlServerSession *ss)
{
	if (ss->loading)
		gl_store_load_abort(ss->load_slot, ss->load_generation);
	ss->loading = false;
}
