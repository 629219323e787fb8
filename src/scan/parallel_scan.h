/*-------------------------------------------------------------------------
 *
 * parallel_scan.h
 *	  The state a parallel-aware GpuLike scan shares among its participants
 *	  (parallel_scan.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_SCAN_PARALLEL_SCAN_H
#define GPULIKE_SCAN_PARALLEL_SCAN_H

#include "access/relscan.h"
#include "storage/condition_variable.h"
#include "storage/spin.h"
#include "utils/dsa.h"

#include "scan/scan.h"

typedef enum GlSharedPassState
{
	GL_PASS_INITIAL,			/* nobody has started the pass */
	GL_PASS_ASKING,				/* one participant is asking the server */
	GL_PASS_READY				/* the pass's source is known to all */
} GlSharedPassState;

/* What one pass is, as the participant that asked the server found it. */
typedef struct GlPassResult
{
	GlScanSource source;
	bool		recheck;
	dsa_pointer pages;			/* page records (column/candidates.h) */
	uint64		pages_bytes;
	uint64		npages;
	uint64		counted;		/* counted by the server, not listed */
	char		matchers[1024];
	char		engine[96];
	char		fallback_reason[128];
	char		recheck_reason[64];
} GlPassResult;

typedef struct GlSharedScan
{
	slock_t		mutex;			/* pass_state, worker_counters */
	ConditionVariable pass_ready;
	GlSharedPassState pass_state;

	/* set by the participant that asked, read by all once READY */
	GlPassResult pass;
	dsa_pointer page_starts;	/* uint64: byte offset of each record */
	pg_atomic_uint64 next_page; /* the next record not yet claimed */

	/* summed by workers as they shut down, for the leader's EXPLAIN */
	GlScanCounters worker_counters;

	/* for a heap fallback: a parallel sequential scan */
	ParallelTableScanDescData heap_scan;	/* variable size: keep last */
} GlSharedScan;

extern Size gl_shared_scan_size(Relation rel, Snapshot snapshot);
extern void gl_shared_scan_init(GlSharedScan *shared, Relation rel,
								Snapshot snapshot);

/* Before a rescan: forget the last pass (leader, workers gone). */
extern void gl_shared_scan_reset(GlSharedScan *shared, Relation rel,
								 dsa_area *dsa);

/*
 * Start of a pass in one participant: true if the caller must ask the
 * server (and then gl_shared_scan_publish); false once another
 * participant has published the pass (the caller waited for that).
 */
extern bool gl_shared_scan_start(GlSharedScan *shared);

/*
 * The asking participant's result (its pages, if any, in dsa): indexes the
 * records and wakes the others.
 */
extern void gl_shared_scan_publish(GlSharedScan *shared, dsa_area *dsa,
								   const GlPassResult *pass);

/* Once the pass is READY: what it is. */
extern const GlPassResult *gl_shared_scan_pass(GlSharedScan *shared);

/* The pass if it is READY, else NULL. */
extern const GlPassResult *gl_shared_scan_ready_pass(GlSharedScan *shared);

/*
 * Claim the next records for this participant into run; false when none
 * are left.
 */
extern bool gl_shared_scan_claim(GlSharedScan *shared, dsa_area *dsa,
								 GlPageRun *run);

extern void gl_shared_scan_add_counters(GlSharedScan *shared,
										const GlScanCounters *counters);
extern void gl_shared_scan_worker_counters(GlSharedScan *shared,
										   GlScanCounters *sums);

#endif							/* GPULIKE_SCAN_PARALLEL_SCAN_H */
