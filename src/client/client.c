/*-------------------------------------------------------------------------
 *
 * client.c
 *	  Backend side of talking to the gpulike server: MATCH requests
 *	  (client.h), column loads and forgets (loader_api.h).
 *
 * A request is built in backend memory as the postfix items and program
 * blobs of one GlMatchMessage, each leaf's column resolved to its registry
 * slot and generation through gl_cache_usable() when the leaf is added;
 * the server answers only from that generation.  If any column is not
 * usable, gl_request_send() returns false without asking the server.
 *
 * A load streams rows in batches of GL_LOAD_BATCH bytes; a value too large
 * for one batch travels alone in its own message.  Every wait is bounded by
 * the server's liveness (protocol.c), so a dead server turns into an ERROR
 * for a load and into a false answer (with the reason) for a request.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "lib/stringinfo.h"
#include "portability/instr_time.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/timestamp.h"

#include "registry/registry.h"
#include "column/column.h"
#include "settings.h"
#include "client/client.h"
#include "client/load_stream.h"
#include "protocol/protocol.h"
#include "protocol/mailbox.h"

#define GL_LOAD_BATCH			(512 * 1024)
#define GL_FORGET_TIMEOUT_MS	10000

struct GlRequest
{
	Relation	rel;
	int			nitems;
	int			maxitems;
	GlMatchItem *items;
	StringInfoData programs;	/* blobs; offsets relative to this buffer */
	const uint64 *visible;		/* counting: all-visible blocks */
	BlockNumber visible_blocks;
	const char *unusable;		/* why the server cannot answer, or NULL */
	GlSession  *session;		/* between send and receive */
	instr_time	sent;
};

struct GlLoadStream
{
	GlSession  *session;
	char	   *batch;			/* GlLoadRowsMessage header, then rows */
	Size		used;
	uint32		nrows;
};

/* ------------------------------------------------------------ requests */

GlRequest *
gl_request_begin(Relation rel)
{
	GlRequest  *req = palloc0(sizeof(GlRequest));

	req->rel = rel;
	req->maxitems = 8;
	req->items = palloc(req->maxitems * sizeof(GlMatchItem));
	initStringInfo(&req->programs);
	if (gl_server_shared == NULL)
		req->unusable = "gpulike is not in shared_preload_libraries";
	return req;
}

static GlMatchItem *
new_item(GlRequest *req, GlMatchOp op)
{
	GlMatchItem *item;

	if (req->nitems == req->maxitems)
	{
		req->maxitems *= 2;
		req->items = repalloc(req->items, req->maxitems * sizeof(GlMatchItem));
	}
	item = &req->items[req->nitems++];
	memset(item, 0, sizeof(GlMatchItem));
	item->op = op;
	return item;
}

void
gl_request_add_leaf(GlRequest *req, AttrNumber attnum, const GlProgram *prog,
					bool negated)
{
	GlMatchItem *item = new_item(req, GL_MATCH_LEAF);
	GlCacheInfo info;
	static const char zeros[8] = {0};

	item->negated = negated;
	if (req->unusable == NULL && !gl_cache_usable(req->rel, attnum, &info))
		req->unusable = "the column's gpulike cache is not ready";
	if (req->unusable != NULL)
		return;
	item->slot = info.slot;
	item->generation = info.generation;
	item->program_off = req->programs.len;
	item->program_size = prog->total_size;
	appendBinaryStringInfo(&req->programs, (const char *) prog, prog->total_size);
	appendBinaryStringInfo(&req->programs, zeros,
						   gl_program_align(prog->total_size) - prog->total_size);
}

void
gl_request_count_unread(GlRequest *req, const uint64 *visible,
						BlockNumber nblocks)
{
	req->visible = visible;
	req->visible_blocks = nblocks;
}

void
gl_request_add_and(GlRequest *req, int noperands)
{
	new_item(req, GL_MATCH_AND)->noperands = noperands;
}

void
gl_request_add_or(GlRequest *req, int noperands)
{
	new_item(req, GL_MATCH_OR)->noperands = noperands;
}

/* The server could not answer after all: end the conversation, say why. */
static bool
request_failed(GlRequest *req, const char *why, const char **why_not)
{
	gl_session_end_conversation(req->session, false);
	req->session = NULL;
	*why_not = why;
	return false;
}

bool
gl_request_send(GlRequest *req, GlAnswerInfo *info, const char **why_not)
{
	Size		header_size = offsetof(GlMatchMessage, items) +
		req->nitems * sizeof(GlMatchItem);
	Size		visible_bytes = req->visible_blocks > 0 ?
		gl_bitmap_words(req->visible_blocks) * sizeof(uint64) : 0;
	GlMatchMessage *msg;
	shm_mq_iovec iov[3];
	GlReply		reply;
	Size		nbytes;
	void	   *data;
	int			i;

	memset(info, 0, sizeof(GlAnswerInfo));
	if (req->unusable != NULL)
	{
		*why_not = req->unusable;
		return false;
	}
	INSTR_TIME_SET_CURRENT(req->sent);

	/* Header and items; program offsets become offsets in the message. */
	header_size = MAXALIGN(header_size);
	msg = palloc0(header_size);
	msg->hdr.kind = GL_MSG_MATCH;
	msg->nitems = req->nitems;
	msg->device_choice = gl_device_choice;
	msg->fail_gpu_part = gl_debug_gpu_fail_part;
	msg->visible_blocks = req->visible_blocks;
	msg->visible_off = visible_bytes > 0 ? header_size + req->programs.len : 0;
	memcpy(msg->items, req->items, req->nitems * sizeof(GlMatchItem));
	for (i = 0; i < req->nitems; i++)
	{
		if (msg->items[i].op == GL_MATCH_LEAF)
			msg->items[i].program_off += header_size;
	}
	iov[0].data = (const char *) msg;
	iov[0].len = header_size;
	iov[1].data = req->programs.data;
	iov[1].len = req->programs.len;
	iov[2].data = (const char *) req->visible;
	iov[2].len = visible_bytes;

	req->session = gl_session_begin_conversation(why_not);
	if (req->session == NULL)
		return false;
	if (!gl_session_send(req->session, iov, visible_bytes > 0 ? 3 : 2) ||
		!gl_session_receive(req->session, &nbytes, &data, 0))
		return request_failed(req, "the gpulike server stopped before answering",
							  why_not);
	if (nbytes != sizeof(GlReply))
		elog(ERROR, "gpulike: malformed answer from the gpulike server");
	memcpy(&reply, data, sizeof(GlReply));
	if (reply.status != GL_REPLY_OK)
		return request_failed(req, pstrdup(reply.message), why_not);

	info->npages = reply.u.match.npages;
	info->ncandidates = reply.u.match.ncandidates;
	info->counted = reply.u.match.counted;
	info->nbytes = reply.u.match.answer_bytes;
	info->exact = reply.u.match.exact;
	info->fell_back = reply.u.match.fell_back;
	strlcpy(info->engine, reply.u.match.engine, sizeof(info->engine));
	info->engine_ms = reply.u.match.engine_ms;
	info->answer_ms = reply.u.match.answer_ms;
	if (info->nbytes == 0)
	{
		gl_session_end_conversation(req->session, true);
		req->session = NULL;
	}
	return true;
}

bool
gl_request_receive(GlRequest *req, GlAnswerInfo *info, char *pages,
				   const char **why_not)
{
	uint64		received = 0;
	instr_time	now;

	while (received < info->nbytes)
	{
		Size		nbytes;
		void	   *data;

		if (!gl_session_receive(req->session, &nbytes, &data, 0))
			return request_failed(req, "the gpulike server stopped while answering",
								  why_not);
		if (nbytes > info->nbytes - received)
			elog(ERROR, "gpulike: malformed answer from the gpulike server");
		memcpy(pages + received, data, nbytes);
		received += nbytes;
	}
	if (req->session != NULL)
		gl_session_end_conversation(req->session, true);
	req->session = NULL;

	INSTR_TIME_SET_CURRENT(now);
	INSTR_TIME_SUBTRACT(now, req->sent);
	info->round_trip_ms = INSTR_TIME_GET_MILLISEC(now);
	return true;
}

GlColumnSample *
gl_request_sample(Relation rel, AttrNumber attnum, uint32 max_rows)
{
	GlCacheInfo info;
	GlSampleMessage msg;
	GlSession  *session;
	shm_mq_iovec iov;
	GlReply		reply;
	GlColumnSample *sample = NULL;
	const char *why_not;
	Size		nbytes;
	void	   *data;

	if (gl_server_shared == NULL || !gl_cache_usable(rel, attnum, &info))
		return NULL;
	session = gl_session_begin_conversation(&why_not);
	if (session == NULL)
		return NULL;
	memset(&msg, 0, sizeof(msg));
	msg.hdr.kind = GL_MSG_SAMPLE;
	msg.slot = info.slot;
	msg.generation = info.generation;
	msg.max_rows = max_rows;
	iov.data = (const char *) &msg;
	iov.len = sizeof(msg);
	if (gl_session_send(session, &iov, 1) &&
		gl_session_receive(session, &nbytes, &data, 0) &&
		nbytes == sizeof(GlReply))
	{
		memcpy(&reply, data, sizeof(GlReply));
		if (reply.status == GL_REPLY_OK &&
			(reply.u.sample.nbytes == 0 ||
			 (gl_session_receive(session, &nbytes, &data, 0) &&
			  nbytes == reply.u.sample.nbytes)))
		{
			sample = palloc(sizeof(GlColumnSample));
			sample->slot = info.slot;
			sample->generation = info.generation;
			sample->nrows = reply.u.sample.nrows;
			sample->nbytes = reply.u.sample.nbytes;
			sample->rows = palloc(Max(sample->nbytes, 1));
			memcpy(sample->rows, data, sample->nbytes);
		}
	}
	gl_session_end_conversation(session, sample != NULL);
	return sample;
}

/* --------------------------------------------------------------- loads */

/*
 * The server could not take more: it replied why and detached.  Report its
 * reason, or that it went away.
 */
static void
load_failed(GlLoadStream *stream)
{
	Size		nbytes;
	void	   *data;
	GlReply		reply;

	if (gl_session_receive(stream->session, &nbytes, &data, 1000) &&
		nbytes == sizeof(GlReply))
	{
		memcpy(&reply, data, sizeof(GlReply));
		if (reply.status != GL_REPLY_OK)
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("%s", reply.message)));
	}
	ereport(ERROR,
			(errcode(ERRCODE_CONNECTION_FAILURE),
			 errmsg("gpulike: the gpulike server stopped while loading a column")));
}

static void
send_or_fail(GlLoadStream *stream, shm_mq_iovec *iov, int iovcnt)
{
	if (!gl_session_send(stream->session, iov, iovcnt))
		load_failed(stream);
}

/* Wait for the reply that ends a step; ERROR unless it is OK. */
static void
expect_ok(GlLoadStream *stream, GlReply *reply)
{
	Size		nbytes;
	void	   *data;

	if (!gl_session_receive(stream->session, &nbytes, &data, 0) ||
		nbytes != sizeof(GlReply))
		load_failed(stream);
	memcpy(reply, data, sizeof(GlReply));
	if (reply->status != GL_REPLY_OK)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("%s", reply->message)));
}

GlLoadStream *
gl_load_begin(int slot, uint64 generation, uint64 rows_hint, uint64 bytes_hint,
			  uint64 byte_limit)
{
	GlLoadStream *stream = palloc0(sizeof(GlLoadStream));
	GlLoadBeginMessage msg;
	shm_mq_iovec iov;
	GlReply		reply;
	const char *why_not;

	stream->session = gl_session_open(GL_LOAD_QUEUE, GL_SMALL_QUEUE, &why_not);
	if (stream->session == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("gpulike: cannot load a column: %s", why_not)));

	memset(&msg, 0, sizeof(msg));
	msg.hdr.kind = GL_MSG_LOAD_BEGIN;
	msg.slot = slot;
	msg.generation = generation;
	msg.rows_hint = rows_hint;
	msg.bytes_hint = bytes_hint;
	msg.byte_limit = byte_limit;
	iov.data = (const char *) &msg;
	iov.len = sizeof(msg);
	send_or_fail(stream, &iov, 1);
	expect_ok(stream, &reply);

	stream->batch = palloc(GL_LOAD_BATCH);
	stream->used = sizeof(GlLoadRowsMessage);
	return stream;
}

static void
flush_batch(GlLoadStream *stream)
{
	GlLoadRowsMessage *hdr = (GlLoadRowsMessage *) stream->batch;
	shm_mq_iovec iov;

	if (stream->nrows == 0)
		return;
	memset(hdr, 0, sizeof(GlLoadRowsMessage));
	hdr->hdr.kind = GL_MSG_LOAD_ROWS;
	hdr->nrows = stream->nrows;
	iov.data = stream->batch;
	iov.len = stream->used;
	send_or_fail(stream, &iov, 1);
	stream->used = sizeof(GlLoadRowsMessage);
	stream->nrows = 0;
}

void
gl_load_row(GlLoadStream *stream, ItemPointer tid, const char *value,
			uint32 len, uint32 flags)
{
	GlTid		packed = gl_tid_make(ItemPointerGetBlockNumberNoCheck(tid),
									 ItemPointerGetOffsetNumberNoCheck(tid));
	uint32		stored_len = (flags & GL_ROW_IS_NULL) ? 0 : len;
	Size		row_size = GL_ROW_HEADER_SIZE + stored_len;
	char		rowhdr[GL_ROW_HEADER_SIZE];
	char	   *p;

	memcpy(rowhdr, &packed, sizeof(packed));
	memcpy(rowhdr + sizeof(packed), &stored_len, sizeof(stored_len));
	memcpy(rowhdr + sizeof(packed) + sizeof(stored_len), &flags, sizeof(flags));

	if (stream->used + row_size > GL_LOAD_BATCH)
		flush_batch(stream);

	if (sizeof(GlLoadRowsMessage) + row_size > GL_LOAD_BATCH)
	{
		/* A huge value goes alone, without copying it into the batch. */
		GlLoadRowsMessage hdr;
		shm_mq_iovec iov[3];

		if (sizeof(hdr) + row_size > MaxAllocSize)
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("gpulike: a value of %u bytes is too large to cache", len)));
		memset(&hdr, 0, sizeof(hdr));
		hdr.hdr.kind = GL_MSG_LOAD_ROWS;
		hdr.nrows = 1;
		iov[0].data = (const char *) &hdr;
		iov[0].len = sizeof(hdr);
		iov[1].data = rowhdr;
		iov[1].len = GL_ROW_HEADER_SIZE;
		iov[2].data = value;
		iov[2].len = len;
		send_or_fail(stream, iov, 3);
		return;
	}

	p = stream->batch + stream->used;
	memcpy(p, rowhdr, GL_ROW_HEADER_SIZE);
	if (stored_len > 0)
		memcpy(p + GL_ROW_HEADER_SIZE, value, stored_len);
	stream->used += row_size;
	stream->nrows++;
}

bool
gl_load_end(GlLoadStream *stream, const char **why_not)
{
	GlMessageHeader hdr;
	shm_mq_iovec iov;
	GlReply		reply;
	Size		nbytes;
	void	   *data;

	flush_batch(stream);
	memset(&hdr, 0, sizeof(hdr));
	hdr.kind = GL_MSG_LOAD_END;
	iov.data = (const char *) &hdr;
	iov.len = sizeof(hdr);
	send_or_fail(stream, &iov, 1);
	if (!gl_session_receive(stream->session, &nbytes, &data, 0) ||
		nbytes != sizeof(GlReply))
		load_failed(stream);
	memcpy(&reply, data, sizeof(GlReply));
	if (reply.status == GL_REPLY_ERROR)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("%s", reply.message)));
	*why_not = reply.status == GL_REPLY_OK ? NULL : pstrdup(reply.message);

	gl_session_close(stream->session);
	pfree(stream->batch);
	pfree(stream);
	return *why_not == NULL;
}

/* ------------------------------------------------------ forget, running */

void
gl_server_forget(int slot)
{
	GlForgetMessage msg;
	shm_mq_iovec iov;
	GlSession  *session;
	const char *why_not;
	Size		nbytes;
	void	   *data;

	/* No server: nothing is held (a new server starts empty). */
	session = gl_session_open(GL_SMALL_QUEUE, GL_SMALL_QUEUE, &why_not);
	if (session == NULL)
		return;
	memset(&msg, 0, sizeof(msg));
	msg.hdr.kind = GL_MSG_FORGET;
	msg.slot = slot;
	iov.data = (const char *) &msg;
	iov.len = sizeof(msg);
	if (gl_session_send(session, &iov, 1))
		(void) gl_session_receive(session, &nbytes, &data, GL_FORGET_TIMEOUT_MS);
	gl_session_close(session);
}

bool
gl_server_running(void)
{
	return gl_server_current(NULL, NULL, NULL);
}
