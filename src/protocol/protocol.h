/*-------------------------------------------------------------------------
 *
 * protocol.h
 *	  Messages between backends and the gpulike server.
 *
 * They travel over sessions (session.h).  A session carries conversations:
 * one MATCH and its answer, one SAMPLE, one STATUS, or one load stream
 * (LOAD_BEGIN, any number of LOAD_ROWS, LOAD_END).  The backend sends;
 * the server handles each message (server/serve.c) and replies.
 *
 * All messages start with a GlMessageHeader.  Answers are one GlReply; a
 * MATCH answer is followed by chunk messages carrying its answer_bytes of
 * page records (column/candidates.h), at most GL_ANSWER_CHUNK bytes each,
 * to be concatenated in order; a SAMPLE answer by one message of its rows.
 *
 * Load rows are packed back to back in a LOAD_ROWS message: an 8-byte
 * GlTid, a 4-byte length, 4 bytes of GL_ROW_* flags (column.h), then the
 * value bytes, with no padding (read with memcpy).
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_PROTOCOL_H
#define GPULIKE_PROTOCOL_H

#include "settings.h"

typedef enum GlMessageKind
{
	GL_MSG_MATCH = 1,
	GL_MSG_LOAD_BEGIN,
	GL_MSG_LOAD_ROWS,
	GL_MSG_LOAD_END,
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
	int32		delay_ms;		/* its gpulike.debug_request_delay */
	int64		sent_at;		/* TimestampTz the backend sent it at */
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
 * A sample of a cached column for the planner's estimates: up to max_rows
 * rows, the first up to lead_rows of them a smaller sample
 * (column/sample.h).  The answer names the DSM segment that holds its image.
 */
typedef struct GlSampleMessage
{
	GlMessageHeader hdr;
	int32		slot;
	uint32		max_rows;
	uint64		generation;
	uint32		lead_rows;
	uint32		pad;
} GlSampleMessage;

typedef struct GlSampleResult
{
	uint32		segment;		/* a dsm_handle */
	uint32		pad;
	uint64		image_bytes;
} GlSampleResult;

#define GL_SAMPLE_MAX_BYTES		(4 * 1024 * 1024)

/* --------------------------------------------------------------- STATUS */

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
	uint64		file_bytes;		/* of values' files (gpulike.values_directory) */
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
	double		queue_ms;		/* sent until the server began evaluating it */
	double		engine_ms;		/* matching */
	double		kernel_ms;		/* of which the GPU's kernels ran (0: no GPU) */
	double		answer_ms;		/* building the page records */
} GlMatchResult;

typedef struct GlReply
{
	GlMessageHeader hdr;		/* GL_MSG_REPLY */
	int32		status;			/* GlReplyStatus */
	uint32		pad;
	char		message[256];	/* why, when status is not OK */
	union
	{
		GlMatchResult match;
		GlStatusInfo status;
		GlSampleResult sample;
	}			u;
} GlReply;

/* Bytes per chunk message of a MATCH answer. */
#define GL_ANSWER_CHUNK		(1 << 20)

#endif							/* GPULIKE_PROTOCOL_H */
