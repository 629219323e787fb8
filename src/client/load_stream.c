/*-------------------------------------------------------------------------
 *
 * load_stream.c
 *	  Backend side of loading a column into the gpulike server: one load
 *	  conversation (see load_stream.h, and protocol.h for the messages).
 *
 * A load has a session of its own, with a large request queue, closed at
 * its end.  Rows go in batches of GL_LOAD_BATCH bytes; a value too large
 * for one batch travels alone in its own message, without being copied.
 * LOAD_BEGIN is acknowledged, so a load the server cannot take fails
 * before the heap scan.  When the server refuses more rows (budget, quota,
 * out of memory) it replies why and detaches; the next send finds the
 * queue detached and reports that reply.  Every wait is bounded by the
 * server's liveness (session.c), so a dead server turns into an ERROR.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "utils/memutils.h"

#include "client/load_stream.h"
#include "column/column.h"
#include "protocol/protocol.h"
#include "protocol/session.h"

#define GL_LOAD_BATCH			(512 * 1024)

struct GlLoadStream
{
	GlSession  *session;
	char	   *batch;			/* GlLoadRowsMessage header, then rows */
	Size		used;
	uint32		nrows;
};

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
