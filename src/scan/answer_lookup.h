/*-------------------------------------------------------------------------
 *
 * answer_lookup.h
 *	  Whether the server's answer holds a tuple, for a scan that reads
 *	  every row of the heap (answer_lookup.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_SCAN_ANSWER_LOOKUP_H
#define GPULIKE_SCAN_ANSWER_LOOKUP_H

#include "access/htup_details.h"
#include "storage/itemptr.h"

#include "column/candidates.h"

typedef struct GlAnswerLookup
{
	const GlCandidatePage **records;	/* the answer's, by increasing block */
	uint64		nrecords;
	uint64		next;			/* the first record past the last block looked up */
	BlockNumber block;			/* the block 'held' describes */
	bool		held[MaxHeapTuplesPerPage + 1]; /* by offset number */
} GlAnswerLookup;

/*
 * Index the page records of an answer (nbytes of them at pages; none for
 * an answer that holds no row), checking their layout.  Allocates in the
 * current memory context.
 */
extern void gl_answer_lookup_init(GlAnswerLookup *lookup, const char *pages,
								  uint64 nbytes);

/* Does the answer hold the tuple at tid? */
extern bool gl_answer_holds(GlAnswerLookup *lookup, ItemPointer tid);

#endif							/* GPULIKE_SCAN_ANSWER_LOOKUP_H */
