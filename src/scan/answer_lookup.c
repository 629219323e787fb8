/*-------------------------------------------------------------------------
 *
 * answer_lookup.c
 *	  Whether the server's answer holds a tuple, for a scan that reads
 *	  every row of the heap.
 *
 * A scan of an OR whose pattern arms the server answers and whose other
 * arms it cannot ("body LIKE '%x%' OR n = 7", planner.c) reads the heap
 * as a sequential scan does and asks, of each visible tuple, whether the
 * answer holds its TID.  The answer's page records come in increasing
 * block order (column/candidates.h); a heap scan visits blocks in
 * increasing order too, except where a synchronized scan wraps around or
 * a parallel scan hands this participant its next chunk, so each new
 * block is first looked for just past the last one found, then by binary
 * search.  A block's record is spread into a flag per offset once, when
 * the scan enters the block.
 *
 * That the answer holding a visible tuple's TID means the tuple satisfies
 * the offloaded arms (and not holding it, that it does not) is the
 * argument of executor.c's step 3: a visible tuple's version is the one
 * the cache holds for its TID.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "scan/answer_lookup.h"

static void
malformed(void)
{
	elog(ERROR, "gpulike: malformed answer from the gpulike server");
}

void
gl_answer_lookup_init(GlAnswerLookup *lookup, const char *pages, uint64 nbytes)
{
	uint64		offset = 0;
	uint64		capacity = 64;

	lookup->records = palloc(capacity * sizeof(GlCandidatePage *));
	lookup->nrecords = 0;
	lookup->next = 0;
	lookup->block = InvalidBlockNumber;
	while (offset < nbytes)
	{
		const GlCandidatePage *record = (const GlCandidatePage *) (pages + offset);

		if (nbytes - offset < sizeof(GlCandidatePage) ||
			nbytes - offset < gl_candidate_page_size(record) ||
			record->ncandidates > MaxHeapTuplesPerPage ||
			record->bitmap_words > MaxHeapTuplesPerPage / 32 + 1 ||
			(lookup->nrecords > 0 &&
			 record->block <= lookup->records[lookup->nrecords - 1]->block))
			malformed();
		if (lookup->nrecords == capacity)
		{
			capacity *= 2;
			lookup->records = repalloc_huge(lookup->records,
											capacity * sizeof(GlCandidatePage *));
		}
		lookup->records[lookup->nrecords++] = record;
		offset += gl_candidate_page_size(record);
	}
}

/* The index of block's record, or -1. */
static int64
find_record(GlAnswerLookup *lookup, BlockNumber block)
{
	uint64		low = 0;
	uint64		high = lookup->nrecords;

	/* the next block in heap order is most often the next record's */
	if (lookup->next < lookup->nrecords &&
		lookup->records[lookup->next]->block >= block &&
		(lookup->next == 0 || lookup->records[lookup->next - 1]->block < block))
		low = high = lookup->next;
	while (low < high)
	{
		uint64		middle = low + (high - low) / 2;

		if (lookup->records[middle]->block < block)
			low = middle + 1;
		else
			high = middle;
	}
	lookup->next = low;
	if (low < lookup->nrecords && lookup->records[low]->block == block)
	{
		lookup->next = low + 1;
		return (int64) low;
	}
	return -1;
}

/* Spread block's record, if any, into lookup->held. */
static void
enter_block(GlAnswerLookup *lookup, BlockNumber block)
{
	int64		found = find_record(lookup, block);
	const GlCandidatePage *record;
	uint16		offsets[(MaxHeapTuplesPerPage / 32 + 1) * 32];
	int			n;

	lookup->block = block;
	if (found < 0)
	{
		memset(lookup->held, false, sizeof(lookup->held));
		return;
	}
	record = lookup->records[found];
	if (record->flags & GL_PAGE_EVERY_ROW)
	{
		memset(lookup->held, true, sizeof(lookup->held));
		return;
	}
	memset(lookup->held, false, sizeof(lookup->held));
	n = gl_candidate_page_offsets(record, offsets);
	for (int i = 0; i < n; i++)
	{
		uint16		offnum = offsets[i] & GL_OFFSET_MASK;

		if (offnum < FirstOffsetNumber || offnum > MaxHeapTuplesPerPage)
			malformed();
		lookup->held[offnum] = true;
	}
}

bool
gl_answer_holds(GlAnswerLookup *lookup, ItemPointer tid)
{
	BlockNumber block = ItemPointerGetBlockNumber(tid);

	if (block != lookup->block)
		enter_block(lookup, block);
	return lookup->held[ItemPointerGetOffsetNumber(tid)];
}
