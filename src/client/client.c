/*-------------------------------------------------------------------------
 *
 * client.c
 *	  Backend side of asking the gpulike server: MATCH requests and
 *	  SAMPLEs (client.h; the messages are protocol.h's).
 *
 * A request is built in backend memory as the postfix items and program
 * blobs of one GlMatchMessage.  The caller names each leaf's column by its
 * registry slot and generation, as it found them usable (scan/scan_expr.c);
 * the server answers only from that generation.  If any column was not
 * usable the caller says so (gl_request_unanswerable), and
 * gl_request_send() returns false with that reason without asking the
 * server.  Every wait is bounded by the server's liveness (session.c), so
 * a dead server turns into a false answer, with the reason.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "lib/stringinfo.h"
#include "portability/instr_time.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/timestamp.h"

#include "client/client.h"
#include "column/column.h"
#include "protocol/mailbox.h"
#include "protocol/protocol.h"
#include "protocol/session.h"
#include "settings.h"

struct GlRequest
{
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

/* ------------------------------------------------------------ requests */

GlRequest *
gl_request_begin(void)
{
	GlRequest  *req = palloc0(sizeof(GlRequest));

	req->maxitems = 8;
	req->items = palloc(req->maxitems * sizeof(GlMatchItem));
	initStringInfo(&req->programs);
	if (!gl_mailbox_available())
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
gl_request_add_leaf(GlRequest *req, int slot, uint64 generation,
					const GlProgram *prog, bool negated)
{
	GlMatchItem *item = new_item(req, GL_MATCH_LEAF);
	static const char zeros[8] = {0};

	item->negated = negated;
	if (req->unusable != NULL)
		return;
	item->slot = slot;
	item->generation = generation;
	item->program_off = req->programs.len;
	item->program_size = prog->total_size;
	appendBinaryStringInfo(&req->programs, (const char *) prog, prog->total_size);
	appendBinaryStringInfo(&req->programs, zeros,
						   gl_program_align(prog->total_size) - prog->total_size);
}

void
gl_request_unanswerable(GlRequest *req, const char *why)
{
	if (req->unusable == NULL)
		req->unusable = why;
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
	msg->delay_ms = gl_debug_request_delay_ms;
	msg->visible_blocks = req->visible_blocks;
	msg->visible_off = visible_bytes > 0 ? header_size + req->programs.len : 0;
	msg->sent_at = GetCurrentTimestamp();
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
	info->queue_ms = reply.u.match.queue_ms;
	info->engine_ms = reply.u.match.engine_ms;
	info->kernel_ms = reply.u.match.kernel_ms;
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

/*
 * The mapping is pinned: it outlives the statement being planned, and the
 * caller lets it go when the column's cache changes.
 */
bool
gl_request_sample(int slot, uint64 generation, uint32 max_rows, uint32 lead_rows,
				  GlColumnSample *sample)
{
	GlSampleMessage msg;
	GlSession  *session;
	shm_mq_iovec iov;
	GlReply		reply;
	const char *why_not;
	Size		nbytes;
	void	   *data;
	bool		answered = false;

	memset(sample, 0, sizeof(GlColumnSample));
	session = gl_session_begin_conversation(&why_not);
	if (session == NULL)
		return false;
	memset(&msg, 0, sizeof(msg));
	msg.hdr.kind = GL_MSG_SAMPLE;
	msg.slot = slot;
	msg.generation = generation;
	msg.max_rows = max_rows;
	msg.lead_rows = lead_rows;
	iov.data = (const char *) &msg;
	iov.len = sizeof(msg);
	if (gl_session_send(session, &iov, 1) &&
		gl_session_receive(session, &nbytes, &data, 0) &&
		nbytes == sizeof(GlReply))
	{
		memcpy(&reply, data, sizeof(GlReply));
		answered = true;
	}
	gl_session_end_conversation(session, answered);
	if (!answered || reply.status != GL_REPLY_OK)
		return false;

	/* gone already when the server took a new sample meanwhile */
	sample->segment = dsm_attach(reply.u.sample.segment);
	if (sample->segment == NULL)
		return false;
	dsm_pin_mapping(sample->segment);
	if (dsm_segment_map_length(sample->segment) < reply.u.sample.image_bytes)
	{
		gl_release_sample(sample);
		return false;
	}
	sample->slot = slot;
	sample->generation = generation;
	sample->image = dsm_segment_address(sample->segment);
	sample->image_bytes = reply.u.sample.image_bytes;
	return true;
}

void
gl_release_sample(GlColumnSample *sample)
{
	if (sample->segment != NULL)
		dsm_detach(sample->segment);
	memset(sample, 0, sizeof(GlColumnSample));
}
