/*-------------------------------------------------------------------------
 *
 * client.h
 *	  Backend side of the request protocol: ask the gpulike server to
 *	  evaluate a predicate over cached columns of one relation.
 *
 * A request is a boolean expression in negation normal form, in postfix:
 * leaves (a compiled program over one cached column, possibly negated) and
 * AND / OR operators that pop a number of operands.  The server evaluates it
 * as bitmap algebra over row positions and answers with the candidate
 * tuples grouped by heap page (column/candidates.h).  A negated leaf is true
 * for non-NULL rows its program rejects; a negated superset program is
 * conservatively true for every non-NULL row.  NULL rows satisfy no leaf,
 * negated or not.
 *
 * Candidates are a superset of the rows visible to any snapshot that
 * satisfy the expression.  When the answer is exact, a candidate's latest
 * cached version satisfies it: the executor need not recheck a visible
 * candidate (executor.c says why).
 *
 * Talking to the server is two calls, so that the caller can put the pages
 * where it wants them (its own memory, or shared memory for a parallel
 * scan): gl_request_send() sends and returns the answer's size,
 * gl_request_receive() copies the pages in.
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_CLIENT_H
#define GPULIKE_CLIENT_H

#include "storage/block.h"
#include "storage/dsm.h"

#include "column/sample.h"
#include "program/program.h"

typedef struct GlRequest GlRequest;

/* What the server says of its answer, before the pages are received. */
typedef struct GlAnswerInfo
{
	uint64		npages;
	uint64		ncandidates;	/* listed in the page records */
	uint64		counted;		/* counting: candidates counted, not listed */
	uint64		nbytes;			/* of page records */
	bool		exact;			/* every leaf matched exactly */
	bool		fell_back;		/* GPU failed; CPU engine answered */
	char		engine[64];		/* "cuda (NVIDIA H200)", "cpu (16 threads)" */
	double		queue_ms;		/* server: waiting to be evaluated */
	double		engine_ms;		/* server: matching */
	double		kernel_ms;		/* server: of which GPU kernels (0: no GPU) */
	double		answer_ms;		/* server: grouping candidates by page */
	double		round_trip_ms;	/* here: send to last byte received */
} GlAnswerInfo;

extern GlRequest *gl_request_begin(void);

/*
 * A leaf: prog over the cached column of registry slot `slot`, as of its
 * ready copy `generation` (registry.h: gl_cache_usable).
 */
extern void gl_request_add_leaf(GlRequest *req, int slot, uint64 generation,
								const GlProgram *prog, bool negated);
extern void gl_request_add_and(GlRequest *req, int noperands);
extern void gl_request_add_or(GlRequest *req, int noperands);

/*
 * The server cannot answer this request (a column's cache is not usable):
 * gl_request_send() returns false with the first reason given, without
 * asking it.
 */
extern void gl_request_unanswerable(GlRequest *req, const char *why);

/*
 * Ask for a counting answer (for a scan that needs nothing of its rows and
 * rechecks nothing): visible has bit b set for each block b < nblocks that
 * the visibility map calls all-visible, and an exact answer then counts the
 * certain candidates on those blocks (GlAnswerInfo.counted) instead of
 * listing them.  visible must live until the request is sent.
 */
extern void gl_request_count_unread(GlRequest *req, const uint64 *visible,
									BlockNumber nblocks);

/*
 * Send the request and wait for the server's reply.  Returns false (and
 * sets *why_not) when the server cannot answer: not running, cache gone
 * stale, evicted.  The caller then produces the rows another way.  Never
 * hangs: waits are interruptible and bounded by the server's liveness.
 */
extern bool gl_request_send(GlRequest *req, GlAnswerInfo *info,
							const char **why_not);

/*
 * After gl_request_send() returned true: receive the info->nbytes bytes of
 * page records into pages.  False (and *why_not) if the server went away.
 */
extern bool gl_request_receive(GlRequest *req, GlAnswerInfo *info,
							   char *pages, const char **why_not);

/*
 * A sample of a cached column, for the planner's estimates: the server's
 * image of it (column/sample.h), mapped read-only into this backend for as
 * long as the caller keeps it.
 */
typedef struct GlColumnSample
{
	int			slot;
	uint64		generation;		/* of the cache it comes from */
	dsm_segment *segment;
	const GlSampleImage *image;
	Size		image_bytes;
} GlColumnSample;

/*
 * A sample of up to max_rows rows (lead_rows of them first, see sample.h)
 * of the cached column of (slot, generation), mapped until
 * gl_release_sample(); false when the server cannot give it (it does not
 * hold that copy, no server, no memory).
 */
extern bool gl_request_sample(int slot, uint64 generation, uint32 max_rows,
							  uint32 lead_rows, GlColumnSample *sample);
extern void gl_release_sample(GlColumnSample *sample);

#endif							/* GPULIKE_CLIENT_H */
