/*-------------------------------------------------------------------------
 *
 * client.h
 *	  Backend side of the request protocol: ask the gpulike server to
 *	  evaluate a predicate over cached columns of one relation.
 *
 * A request is a boolean expression in negation normal form, in postfix:
 * leaves (a compiled program over one cached column, possibly negated) and
 * AND / OR operators that pop a number of operands.  The server evaluates it
 * as bitmap algebra over row positions and answers with the sorted,
 * de-duplicated TIDs of candidate rows.  A negated leaf is true for non-NULL
 * rows its program rejects; a negated superset program is conservatively
 * true for every non-NULL row.  NULL rows satisfy no leaf, negated or not.
 *
 * Candidates are a superset of the rows visible to any snapshot that
 * satisfy the expression; the executor fetches and rechecks each one.
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_CLIENT_H
#define GPULIKE_CLIENT_H

#include "storage/itemptr.h"
#include "utils/relcache.h"

#include "pattern/program.h"

typedef struct GlRequest GlRequest;

typedef struct GlTidList
{
	uint64		ntids;
	ItemPointerData *tids;		/* sorted, unique, palloc'd */
} GlTidList;

typedef struct GlRequestStats
{
	char		engine[64];		/* "cuda (NVIDIA H200)", "cpu (16 threads)" */
	double		engine_ms;		/* time spent matching */
	double		total_ms;		/* request round trip */
	uint64		rows_scanned;	/* rows the engine looked at */
	bool		fell_back;		/* GPU failed; CPU engine answered */
} GlRequestStats;

extern GlRequest *gl_request_begin(Relation rel);
extern void gl_request_add_leaf(GlRequest *req, AttrNumber attnum,
								const GlProgram *prog, bool negated);
extern void gl_request_add_and(GlRequest *req, int noperands);
extern void gl_request_add_or(GlRequest *req, int noperands);

/*
 * Send the request and wait for the answer.  Returns NULL (and sets
 * *why_not) when the server cannot answer: not running, cache gone stale,
 * evicted.  The caller then produces the rows another way.  Never hangs:
 * waits are interruptible and bounded by the server's liveness.
 */
extern GlTidList *gl_request_run(GlRequest *req, GlRequestStats *stats,
								 const char **why_not);

#endif							/* GPULIKE_CLIENT_H */
