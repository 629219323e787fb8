/*-------------------------------------------------------------------------
 *
 * protocol.h
 *	  Messages between backends and the gpulike server, and the session
 *	  (one DSM segment holding two shm_mq's) that carries them.
 *
 * A session is a segment with a request queue (backend -> server) and a
 * response queue (server -> backend); the backend creates it, posts its
 * handle in the server's mailbox (server_shmem.h) and talks.  A session
 * carries conversations: one MATCH and its answer, one SAMPLE, one STATUS,
 * one FORGET, or one load stream (LOAD_BEGIN, any number of LOAD_ROWS,
 * LOAD_END).  Loads and forgets have sessions of their own, closed at
 * their end.  MATCH, SAMPLE and STATUS go through the backend's kept
 * session (gl_session_begin_conversation), which stays open between
 * conversations: creating a segment with a 4 MB answer queue, mapping it
 * on both sides and tearing it down again cost more than a whole request
 * otherwise does (1.2 of 1.45 ms measured on the CPU machine).  Either
 * side may detach at any time; the segment disappears with its last
 * user, so nothing leaks when a backend errors out or the server dies.
 *
 * All messages start with a GlMessageHeader.  Answers are one GlReply; a
 * MATCH answer is followed by chunk messages carrying its answer_bytes of
 * page records (column/candidates.h), at most GL_ANSWER_CHUNK bytes each,
 * to be concatenated in order.
 *
 * Load rows are packed back to back in a LOAD_ROWS message: an 8-byte
 * GlTid, a 4-byte length, 4 bytes of GL_ROW_* flags (column.h), then the
 * value bytes, with no padding (read with memcpy).
 *
 * Backends never block without watching the server: every wait is on the
 * process latch with a timeout, checks for interrupts, and gives up when
 * the server's pid or generation changes (server_shmem.h).  The server
 * never waits for a backend except while streaming an answer to one that
 * is reading it; if that backend goes away, its queue detaches and the
 * send returns at once.
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_PROTOCOL_H
#define GPULIKE_PROTOCOL_H

#include "storage/dsm.h"
#include "storage/shm_mq.h"
#include "utils/timestamp.h"

#include "settings.h"

typedef enum GlMessageKind
{
	GL_MSG_MATCH = 1,
	GL_MSG_LOAD_BEGIN,
	GL_MSG_LOAD_ROWS,
	GL_MSG_LOAD_END,
	GL_MSG_FORGET,
	GL_MSG_STATUS,
	GL_MSG_SAMPLE,
	GL_MSG_REPLY
} GlMessageKind;

typedef struct GlMessageHeader
{
	uint32		kind;			/* GlMessageKind */
	uint32		pad;
} GlMessageHeader;

/* ---------------------------------------------------------------- MATCH */

typedef enum GlMatchOp
{
	GL_MATCH_LEAF = 1,
	GL_MATCH_AND,
	GL_MATCH_OR
} GlMatchOp;

/* One postfix item; a leaf's program lies at program_off in the message. */
typedef struct GlMatchItem
{
	uint32		op;				/* GlMatchOp */
	uint32		negated;		/* leaf: NOT of the program */
	int32		slot;			/* leaf: registry slot of the column */
	uint32		noperands;		/* AND / OR: operands popped */
	uint64		generation;		/* leaf: generation of that slot */
	uint32		program_off;	/* leaf: offset from message start */
	uint32		program_size;
} GlMatchItem;

/*
 * A counting request (visible_blocks > 0) comes from a scan that needs
 * nothing of its rows: it carries the all-visible bits of its heap's
 * first visible_blocks blocks (column/candidates.h, GlVisibleBlocks), and
 * an exact answer counts its certain candidates on those blocks instead
 * of listing them (GlMatchResult.counted).
 */
typedef struct GlMatchMessage
{
	GlMessageHeader hdr;
	uint32		nitems;
	int32		device_choice;	/* the backend's gpulike.device */
	int32		fail_gpu_part;	/* its gpulike.debug_gpu_fail_part */
	uint32		visible_blocks; /* counting: blocks the bitmap covers */
	uint32		visible_off;	/* counting: bitmap's offset in the message */
	uint32		pad;
	GlMatchItem items[FLEXIBLE_ARRAY_MEMBER];
	/* followed by the program blobs, each 8-byte aligned, then the bitmap */
} GlMatchMessage;

/* ----------------------------------------------------------------- LOAD */

typedef struct GlLoadBeginMessage
{
	GlMessageHeader hdr;
	int32		slot;
	uint32		pad;
	uint64		generation;
	uint64		rows_hint;
	uint64		bytes_hint;
	uint64		byte_limit;		/* host bytes the column may take; 0: any */
} GlLoadBeginMessage;

#define GL_ROW_HEADER_SIZE	(sizeof(uint64) + 2 * sizeof(uint32))

typedef struct GlLoadRowsMessage
{
	GlMessageHeader hdr;
	uint32		nrows;
	uint32		pad;
	/* packed rows follow */
} GlLoadRowsMessage;

/* --------------------------------------------------------------- SAMPLE */

/*
 * Rows of a cached column for the planner's estimates: the answer carries
 * nbytes of rows packed as gl_column_sample() packs them, in one message.
 */
typedef struct GlSampleMessage
{
	GlMessageHeader hdr;
	int32		slot;
	uint32		max_rows;
	uint64		generation;
} GlSampleMessage;

typedef struct GlSampleResult
{
	uint32		nrows;
	uint32		pad;
	uint64		nbytes;
} GlSampleResult;

#define GL_SAMPLE_MAX_BYTES		(4 * 1024 * 1024)

/* ------------------------------------------------------- FORGET, STATUS */

typedef struct GlForgetMessage
{
	GlMessageHeader hdr;
	int32		slot;
	uint32		pad;
} GlForgetMessage;

/* One GPU the server uses (gpulike.devices()). */
typedef struct GlDeviceStatus
{
	char		name[64];
	uint64		total_bytes;
	uint64		free_bytes;
	uint64		cache_bytes;	/* parts of cached columns held there */
} GlDeviceStatus;

/* What the server reports about itself (gpulike.status()). */
typedef struct GlStatusInfo
{
	char		engine[16];		/* "cuda" or "cpu" */
	char		cpu_reason[256];	/* why "cpu": no usable GPU, the settings */
	char		device_name[256];	/* the first GPU's; "" without a GPU */
	bool		has_device;
	uint64		device_total_bytes; /* over all GPUs */
	uint64		device_free_bytes;
	int32		ndevices;
	GlDeviceStatus devices[GL_MAX_GPUS];
	int32		cpu_threads;
	int32		ncolumns;		/* columns held */
	uint64		host_bytes;
	uint64		device_bytes;
} GlStatusInfo;

/* ---------------------------------------------------------------- REPLY */

typedef enum GlReplyStatus
{
	GL_REPLY_OK = 0,
	GL_REPLY_UNAVAILABLE,		/* cannot answer; ask PostgreSQL instead */
	GL_REPLY_ERROR				/* the request failed: report message */
} GlReplyStatus;

typedef struct GlMatchResult
{
	uint64		answer_bytes;	/* page records that follow in chunks */
	uint64		npages;
	uint64		ncandidates;	/* listed in the records */
	uint64		counted;		/* counting: candidates counted, not listed */
	bool		exact;			/* every leaf matched exactly, no superset */
	bool		fell_back;		/* the GPU failed; the CPU engine answered */
	char		engine[64];
	double		engine_ms;		/* matching */
	double		answer_ms;		/* building the page records */
} GlMatchResult;

typedef struct GlLoadResult
{
	uint64		nrows;
	uint64		host_bytes;
	uint64		device_bytes;
} GlLoadResult;

typedef struct GlReply
{
	GlMessageHeader hdr;		/* GL_MSG_REPLY */
	int32		status;			/* GlReplyStatus */
	uint32		pad;
	char		message[256];	/* why, when status is not OK */
	union
	{
		GlMatchResult match;
		GlLoadResult load;
		GlStatusInfo status;
		GlSampleResult sample;
	}			u;
} GlReply;

/* Bytes per chunk message of a MATCH answer. */
#define GL_ANSWER_CHUNK		(1 << 20)

/* ------------------------------------------------------------- sessions */

typedef struct GlSession
{
	dsm_segment *seg;
	shm_mq_handle *outq;		/* what we send */
	shm_mq_handle *inq;			/* what we receive */
	uint64		server_generation;	/* backend side: the server addressed */
} GlSession;

/*
 * Queue sizes.  A message larger than its queue streams through it; the
 * kept session's answer queue holds a dense answer's megabyte chunks.
 */
#define GL_SMALL_QUEUE		(64 * 1024)
#define GL_ANSWER_QUEUE		(4 * 1024 * 1024)
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
extern void gl_session_detach(GlSession *session);

#endif							/* GPULIKE_PROTOCOL_H */
