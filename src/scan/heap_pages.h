/*-------------------------------------------------------------------------
 *
 * heap_pages.h
 *	  Turning the server's candidate pages into the visible rows of each
 *	  heap page, a page at a time (heap_pages.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_SCAN_HEAP_PAGES_H
#define GPULIKE_SCAN_HEAP_PAGES_H

#include "access/htup.h"
#include "executor/tuptable.h"
#include "storage/buf.h"
#include "storage/bufmgr.h"
#include "storage/bufpage.h"
#include "utils/rel.h"
#include "utils/snapshot.h"

#include "column/candidates.h"

/*
 * What a scan did, for EXPLAIN ANALYZE: summed over its passes, and over
 * the participants of a parallel scan.
 */
typedef struct GlScanCounters
{
	uint64		requests;		/* sent to the server */
	uint64		answered;		/* answered by it */
	uint64		candidates;		/* in its answers */
	uint64		candidate_pages;
	uint64		heap_fetches;	/* candidates whose heap page was read */
	uint64		unread;			/* counted on all-visible pages, not read */
	uint64		invisible;		/* read, not visible to the snapshot */
	uint64		rechecked_passes;
	uint64		heap_fallbacks; /* passes that read the whole heap */
	uint64		other_arms_removed; /* rows the answer did not hold, nor an
									 * OR's other arms accept */
	double		build_ms;		/* building requests (patterns, visibility) */
	double		queue_ms;
	double		engine_ms;
	double		kernel_ms;
	double		answer_ms;
	double		round_trip_ms;
} GlScanCounters;

/* sum += more, field by field (a worker's counters into the leader's view). */
static inline void
gl_scan_counters_add(GlScanCounters *sum, const GlScanCounters *more)
{
	sum->requests += more->requests;
	sum->answered += more->answered;
	sum->candidates += more->candidates;
	sum->candidate_pages += more->candidate_pages;
	sum->heap_fetches += more->heap_fetches;
	sum->unread += more->unread;
	sum->invisible += more->invisible;
	sum->rechecked_passes += more->rechecked_passes;
	sum->heap_fallbacks += more->heap_fallbacks;
	sum->other_arms_removed += more->other_arms_removed;
	sum->build_ms += more->build_ms;
	sum->queue_ms += more->queue_ms;
	sum->engine_ms += more->engine_ms;
	sum->kernel_ms += more->kernel_ms;
	sum->answer_ms += more->answer_ms;
	sum->round_trip_ms += more->round_trip_ms;
}

/* Records the executor works through before asking for more. */
#define GL_RUN_PAGES	16

typedef struct GlPageRun
{
	int			npages;
	int			next;
	const GlCandidatePage *records[GL_RUN_PAGES];
	Buffer		recent[GL_RUN_PAGES];	/* where a page was found by the
										 * prefetch (ReadRecentBuffer), or
										 * InvalidBuffer */
} GlPageRun;

/* The rows of one heap page the scan returns, in offset order. */
typedef struct GlHeapPage
{
	BlockNumber block;
	Buffer		buffer;			/* pinned while its rows are returned */
	BufferAccessStrategy strategy;	/* how pages are read: NULL, or a ring
									 * for a pass over many (the scan's) */
	int			nrows;
	int			next;
	OffsetNumber offsets[MaxHeapTuplesPerPage];
	bool		read[MaxHeapTuplesPerPage]; /* false: counted, not read */
	HeapTupleData tuple;		/* the row returned last */
} GlHeapPage;

/*
 * Before the pages of a new run are loaded: prefetch those that will be
 * read, as a bitmap heap scan does, where the relation's tablespace wants
 * prefetching at all (effective_io_concurrency > 0), and remember where
 * the prefetch found them in shared buffers, so that reading them takes
 * no second buffer-table lookup.  A page right after the previous one is
 * left to the kernel's readahead, as a sequential scan leaves all of them.
 */
extern void gl_page_run_start(GlPageRun *run, Relation rel,
							  BlockNumber nblocks, bool may_skip_reads,
							  Buffer *vmbuffer);

/*
 * Find the rows of one candidate page visible to snapshot (recent: the
 * run's hint where the page's buffer is).  With may_skip_reads (nothing
 * of the row is needed, no recheck), the certain candidates of an
 * all-visible page are counted without reading the page.  Candidates at
 * or past nblocks are not visible (the heap was truncated).
 */
extern void gl_heap_page_load(GlHeapPage *page, Relation rel,
							  const GlCandidatePage *record, Buffer recent,
							  Snapshot snapshot, bool may_skip_reads,
							  BlockNumber nblocks, Buffer *vmbuffer,
							  GlScanCounters *counters);

/*
 * The next row of the page: stored in heap_slot if it was read, else
 * bare_slot (all NULL); NULL when the page is done.
 */
extern TupleTableSlot *gl_heap_page_next(GlHeapPage *page, Relation rel,
										 TupleTableSlot *heap_slot,
										 TupleTableSlot *bare_slot);

extern void gl_heap_page_release(GlHeapPage *page);

/*
 * The blocks [0, nblocks) the visibility map calls all-visible now, bit b
 * of word b / 64, palloc'd: what a counting request sends the server.
 */
extern uint64 *gl_all_visible_blocks(Relation rel, BlockNumber nblocks);

#endif							/* GPULIKE_SCAN_HEAP_PAGES_H */
