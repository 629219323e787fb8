/*-------------------------------------------------------------------------
 *
 * answer.h
 *	  The answer to a MATCH request, built by the server from the rows the
 *	  request selected: page records (candidates.h) in parts, which threads
 *	  build side by side (a leaf: plain C, tested alone).
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_ANSWER_H
#define GPULIKE_ANSWER_H

#include "column/candidates.h"
#include "column/column.h"

/*
 * A whole answer: its records are the parts' concatenated, in order.
 * Built in parts so that threads can each build one.  A counting answer
 * (below) also has candidates that no record lists, only counted.
 */
typedef struct GlAnswer
{
	int			nparts;
	GlAnswerBuffer *parts;
	uint64_t	npages;
	uint64_t	ncandidates;	/* listed in records */
	uint64_t	counted;		/* certain, on all-visible blocks, unlisted */
	size_t		nbytes;
} GlAnswer;

/*
 * The heap blocks a backend's visibility map called all-visible when it
 * asked: bit b (of word b / 64) for block b < nblocks.  Blocks at or past
 * nblocks count as not all-visible.
 */
typedef struct GlVisibleBlocks
{
	const uint64_t *bits;
	uint32_t	nblocks;
} GlVisibleBlocks;

/*
 * The answer for the rows of col whose bit is set (the caller has masked
 * out NULL and superseded rows: each TID is set at most once), built on up
 * to nthreads threads.  With visible (a counting answer, for an asker that
 * needs nothing of the rows), the certain candidates of the sorted
 * prefix's pages on all-visible blocks without delta rows are counted
 * instead of listed; the column's page index must then cover the whole
 * sorted prefix (gl_column_index_pages).  False on out-of-memory.
 */
extern bool gl_answer_from_rows(const GlColumn *col, const uint64_t *bits,
								const GlVisibleBlocks *visible, int nthreads,
								GlAnswer *answer);

/*
 * The same from the bitmap's nonzero words only: nwords of them, word i
 * being word index[i] of the bitmap, indices increasing.  Always a
 * listing answer; built on the calling thread (it is meant for few
 * candidates).  False on out-of-memory.
 */
extern bool gl_answer_from_words(const GlColumn *col, const uint32_t *index,
								 const uint64_t *words, uint64_t nwords,
								 GlAnswer *answer);

/* The answer for sorted, unique TIDs, all uncertain.  False on OOM. */
extern bool gl_answer_from_tids(const GlTid *tids, uint64_t ntids,
								GlAnswer *answer);

extern void gl_answer_free(GlAnswer *answer);

#endif							/* GPULIKE_ANSWER_H */
