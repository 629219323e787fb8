/*-------------------------------------------------------------------------
 *
 * requests.c
 *	  What the gpulike server does with each message (protocol.h).
 *
 * Every message is checked here before anything reads its contents: its
 * length, and for a MATCH every item, program and operator (a request
 * the server cannot read is not answered).  The store first syncs with
 * the registry and the delta log (gl_store_sync) before any message whose
 * answer depends on what it holds: MATCH, SAMPLE, STATUS, LOAD_BEGIN and
 * LOAD_END.
 *
 * MATCH: apply the delta log first (every row a query's snapshot can see
 * was logged before that snapshot was taken, hence before the request was
 * sent), then check that each leaf's cache is still ready under the
 * generation the backend named (a cache can turn stale between the
 * backend's check and now), evaluate (evaluate.c), and stream the
 * answer's page records back in chunks.  Anything that prevents an exact
 * answer is an UNAVAILABLE reply: the backend then lets PostgreSQL
 * answer.  MATCH, SAMPLE and STATUS come over a backend's kept session,
 * which stays open after the answer.
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

#include "utils/timestamp.h"

#include "program/program.h"
#include "protocol/session.h"
#include "server/engines.h"
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

static void
serve_match(GlServerSession *ss, const char *data, Size len)
{
	const GlMatchMessage *msg = (const GlMatchMessage *) data;
	GlVisibleBlocks visible;
	GlReply		reply;
	GlAnswer	answer;
	TimestampTz taken_up = GetCurrentTimestamp();

	gl_store_sync();

	if (!match_valid(msg, len, &visible))
	{
		send_failure(ss, GL_REPLY_UNAVAILABLE, "malformed gpulike request");
		return;
	}
	for (uint32 i = 0; i < msg->nitems; i++)
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

	memset(&reply, 0, sizeof(reply));
	if (!gl_evaluate_match(msg, visible.bits != NULL ? &visible : NULL,
						   &answer, &reply.u.match,
						   reply.message, sizeof(reply.message)))
	{
		send_failure(ss, GL_REPLY_UNAVAILABLE, reply.message);
		return;
	}
	reply.status = GL_REPLY_OK;
	reply.u.match.queue_ms = Max(taken_up - msg->sent_at, 0) / 1000.0;
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
