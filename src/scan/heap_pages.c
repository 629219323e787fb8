/*-------------------------------------------------------------------------
 *
 * heap_pages.c
 *	  The visible rows among the candidates of one heap page, found a page
 *	  at a time.
 *
 * The server answers with candidate tuples grouped by heap page
 * (column/candidates.h).  For each page we pin the buffer once, take the
 * content lock once, and decide the visibility of all its candidates in
 * one pass, as heapam's page-at-a-time scans do (heapgetpage): the rows
 * found visible stay valid while the pin is held, and are returned from
 * the buffer without copying.
 *
 * A candidate is an exact tuple version: the one at that TID.  We check
 * that tuple and nothing else -- no HOT-chain walk as an index scan (or a
 * bitmap heap scan) does: a newer version of the row has a TID of its own,
 * and it is a candidate if and only if it matches.
 *
 * Rows of all-visible pages that need not be read.  When the scan needs
 * nothing of the row (count(*), EXISTS: no column in the output or in the
 * quals left to evaluate) and no recheck, a candidate on a page the
 * visibility map calls all-visible is counted without reading the page,
 * as an index-only scan counts its index tuples -- if the candidate is
 * certain, i.e. its row in the cache was known live (column.h).  That is
 * exact:
 *
 *	- A certain candidate's tuple is still in the heap at its TID.  A
 *	  tuple leaves its slot only after it was deleted or updated by a
 *	  committed transaction (or inserted by an aborted one, but a row is
 *	  known live only if its inserter had committed).  The sync trigger
 *	  logs every delete and update before the deleting transaction
 *	  commits, and the server applies the log before it answers; the row
 *	  then stops being known live.  A delete that committed after the
 *	  server's answer committed after our snapshot too: to us the tuple is
 *	  not deleted, and it cannot have been removed, since our snapshot
 *	  still sees it.
 *	- It is the tuple the cache's row describes: the slot has not been
 *	  reused, since that needs the old tuple removed first; and a reused
 *	  slot's new tuple supersedes the old row anyway.
 *	- It is visible to our snapshot: every tuple on an all-visible page is
 *	  visible to every snapshot.  Reading the visibility map without a
 *	  lock may see a bit that was just cleared by a concurrent insert or
 *	  delete; as for index-only scans, that cannot matter: an insert's
 *	  tuple has a row that is not certain (a delta row), and a delete not
 *	  visible to our snapshot leaves the tuple visible to us.
 *
 * Uncertain candidates (rows appended from the delta log, rows whose
 * tuple was updated or deleted since) are checked on the page, so a table
 * under writes costs page reads, never a wrong count.
 *
 * A count lets the server do this counting (executor.c): it sends the
 * map's all-visible bits with its request (gl_all_visible_blocks), and
 * the server counts the certain candidates on those blocks instead of
 * listing them.  The bits are read before the server answers rather than
 * after, but still after the query's snapshot was taken, which is all the
 * argument above needs: a bit seen set means that no insert, update or
 * delete had touched the page since it became all-visible (each clears
 * the bit first), so every tuple there was visible to every snapshot, ours
 * included, and whatever changes the page later is invisible to us.
 *
 * Reading many pages.  A pass over more pages than a quarter of shared
 * buffers reads them through a small ring of buffers (BAS_BULKREAD), as a
 * sequential scan of such a table does, instead of evicting the whole
 * buffer pool (executor.c sets page->strategy).  Without it, on the 2-core
 * CPU machine with the default 128 MB of shared buffers, a sum() over a
 * LIKE matching all 2 M rows of a 193 MB table took 450-550 ms on the
 * parallel GpuLike plan (parallel costs zeroed) against 240-255 ms with
 * the ring, its participants contending for the buffers they evict.
 *
 * Serializable transactions: the scan holds a predicate lock on the whole
 * relation (executor.c), so writes by concurrent transactions conflict
 * with it; tuples we read are checked for conflicts out, as heapgetpage
 * does, and unread ones are on all-visible pages, written by nobody
 * concurrent.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/heapam.h"
#include "access/visibilitymap.h"
#include "miscadmin.h"
#include "storage/bufmgr.h"
#include "storage/bufpage.h"
#include "storage/predicate.h"
#include "storage/smgr.h"
#include "utils/rel.h"
#include "utils/spccache.h"

#include "column/column.h"
#include "scan/heap_pages.h"

/*
 * A hint to bring memory into the CPU cache.  Candidates are far apart in
 * memory: without hints, each page and each tuple would cost cache misses
 * of their own, one after the other.
 */
static inline void
prefetch_memory(const void *address)
{
#if defined(__GNUC__)
	__builtin_prefetch(address);
#endif
}

/*
 * Hints to bring into the CPU cache what reading a page touches first: its
 * header and the line pointers of listed candidates.  The buffer is not
 * pinned yet; a hint on memory of the buffer pool is harmless even if the
 * page is gone from it by the time it is read.
 */
static void
prefetch_lines(Page page, const GlCandidatePage *record)
{
	const uint16 *offsets = (const uint16 *) (record + 1);

	prefetch_memory(page);
	if (record->flags & GL_PAGE_EVERY_ROW || record->bitmap_words != 0)
		return;
	for (int i = 0; i < record->ncandidates; i++)
	{
		OffsetNumber offset = offsets[i] & GL_OFFSET_MASK;

		if (offset >= FirstOffsetNumber && offset <= MaxHeapTuplesPerPage)
			prefetch_memory(PageGetItemId(page, offset));
	}
}

void
gl_page_run_start(GlPageRun *run, Relation rel, BlockNumber nblocks,
				  bool may_skip_reads, Buffer *vmbuffer)
{
	bool		prefetch = get_tablespace_io_concurrency(rel->rd_rel->reltablespace) > 0;

	for (int i = 0; i < run->npages; i++)
	{
		BlockNumber block = run->records[i]->block;

		run->recent[i] = InvalidBuffer;
		if (!prefetch || block >= nblocks ||
			(i > 0 && block == run->records[i - 1]->block + 1) ||
			(may_skip_reads && run->records[i]->nuncertain == 0 &&
			 VM_ALL_VISIBLE(rel, block, vmbuffer)))
			continue;
		run->recent[i] = PrefetchBuffer(rel, MAIN_FORKNUM, block).recent_buffer;
		if (BufferIsValid(run->recent[i]))
			prefetch_lines(BufferGetPage(run->recent[i]), run->records[i]);
	}
}

/* The pinned buffer of block, found through the run's hint if it holds. */
static Buffer
read_page(Relation rel, BlockNumber block, Buffer recent,
		  BufferAccessStrategy strategy)
{
	if (BufferIsValid(recent) &&
		ReadRecentBuffer(rel->rd_node, MAIN_FORKNUM, block, recent))
		return recent;
	return ReadBufferExtended(rel, MAIN_FORKNUM, block, RBM_NORMAL, strategy);
}

void
gl_heap_page_release(GlHeapPage *page)
{
	if (BufferIsValid(page->buffer))
		ReleaseBuffer(page->buffer);
	page->buffer = InvalidBuffer;
	page->nrows = 0;
	page->next = 0;
}

/*
 * Visibility of the candidates 'offsets' on the pinned page -- of every
 * tuple of the page when offsets is NULL: appends the visible ones to
 * visible[] and returns how many.
 */
static int
visible_on_page(Relation rel, Buffer buffer, BlockNumber block,
				const OffsetNumber *offsets, int n, Snapshot snapshot,
				OffsetNumber *visible)
{
	Page		dp;
	OffsetNumber maxoff;
	bool		all_visible;
	int			nvisible = 0;

	/* as heapgetpage: prune if worthwhile, then decide under one lock */
	heap_page_prune_opt(rel, buffer);
	LockBuffer(buffer, BUFFER_LOCK_SHARE);
	dp = BufferGetPage(buffer);
	TestForOldSnapshot(snapshot, rel, dp);
	maxoff = PageGetMaxOffsetNumber(dp);
	all_visible = PageIsAllVisible(dp) && !snapshot->takenDuringRecovery;
	if (offsets == NULL)
		n = maxoff;

	for (int i = 0; i < n; i++)
	{
		OffsetNumber offset = offsets ? offsets[i] : FirstOffsetNumber + i;
		ItemId		lp;
		HeapTupleData tuple;
		bool		valid;

		if (offset > maxoff || !ItemIdIsNormal(lp = PageGetItemId(dp, offset)))
			continue;
		tuple.t_data = (HeapTupleHeader) PageGetItem(dp, lp);
		tuple.t_len = ItemIdGetLength(lp);
		tuple.t_tableOid = RelationGetRelid(rel);
		ItemPointerSet(&tuple.t_self, block, offset);
		valid = all_visible ||
			HeapTupleSatisfiesVisibility(&tuple, snapshot, buffer);
		HeapCheckForSerializableConflictOut(valid, rel, &tuple, buffer,
											snapshot);
		if (valid)
		{
			prefetch_memory(tuple.t_data);	/* its row is returned next */
			visible[nvisible++] = offset;
		}
	}
	LockBuffer(buffer, BUFFER_LOCK_UNLOCK);
	return nvisible;
}

/*
 * The page's rows when nothing needs reading: its certain candidates on an
 * all-visible page, counted.
 */
static void
all_unread(GlHeapPage *page, int n, GlScanCounters *counters)
{
	page->nrows = n;
	memset(page->read, 0, n * sizeof(bool));
	counters->unread += n;
}

void
gl_heap_page_load(GlHeapPage *page, Relation rel,
				  const GlCandidatePage *record, Buffer recent,
				  Snapshot snapshot, bool may_skip_reads, BlockNumber nblocks,
				  Buffer *vmbuffer, GlScanCounters *counters)
{
	uint16		marked[MaxHeapTuplesPerPage];
	OffsetNumber unread[MaxHeapTuplesPerPage];
	OffsetNumber to_read[MaxHeapTuplesPerPage];
	OffsetNumber visible[MaxHeapTuplesPerPage];
	int			n;
	int			nunread = 0;
	int			nto_read = 0;
	int			nvisible = 0;
	bool		skip_certain;

	gl_heap_page_release(page);
	page->block = record->block;
	CHECK_FOR_INTERRUPTS();

	/* a record cannot hold more offsets than a page has line pointers */
	n = record->ncandidates;
	if (n > MaxHeapTuplesPerPage)
		elog(ERROR, "gpulike: malformed answer from the gpulike server");
	if (record->block >= nblocks)
	{
		counters->invisible += n;
		return;
	}

	skip_certain = may_skip_reads && n > record->nuncertain &&
		VM_ALL_VISIBLE(rel, record->block, vmbuffer);
	if (skip_certain && record->nuncertain == 0)
	{
		all_unread(page, n, counters);
		return;
	}

	/*
	 * Every row of the page: read it as a sequential scan does, all its
	 * visible tuples (an all-visible page with some uncertain: all of them,
	 * since the certain ones are among them).
	 */
	if (record->flags & GL_PAGE_EVERY_ROW)
	{
		page->buffer = read_page(rel, record->block, recent, page->strategy);
		nvisible = visible_on_page(rel, page->buffer, record->block, NULL, 0,
								   snapshot, page->offsets);
		counters->heap_fetches += n;
		counters->invisible += Max(n - nvisible, 0);
		memset(page->read, true, nvisible * sizeof(bool));
		page->nrows = nvisible;
		if (nvisible == 0)
			gl_heap_page_release(page);
		return;
	}

	n = gl_candidate_page_offsets(record, marked);
	for (int i = 0; i < n; i++)
	{
		OffsetNumber offset = marked[i] & GL_OFFSET_MASK;

		if (skip_certain && !(marked[i] & GL_OFFSET_UNCERTAIN))
			unread[nunread++] = offset;
		else
			to_read[nto_read++] = offset;
	}
	counters->unread += nunread;

	if (nto_read > 0)
	{
		page->buffer = read_page(rel, record->block, recent, page->strategy);
		nvisible = visible_on_page(rel, page->buffer, record->block, to_read,
								   nto_read, snapshot, visible);
		counters->heap_fetches += nto_read;
		counters->invisible += nto_read - nvisible;
		if (nvisible == 0)
			gl_heap_page_release(page);
	}

	/* both lists are in offset order: merge them */
	for (int i = 0, j = 0; i < nunread || j < nvisible;)
	{
		bool		take_unread = j >= nvisible ||
			(i < nunread && unread[i] < visible[j]);

		page->offsets[page->nrows] = take_unread ? unread[i++] : visible[j++];
		page->read[page->nrows++] = !take_unread;
	}
}

/*
 * The visibility map's pages hold two bits per heap block, four blocks to
 * a byte, the all-visible bit the lower of the two: the layout of
 * visibilitymap.c, which pg_upgrade carries over unchanged.  Reading the
 * map a page at a time, a byte for four blocks, costs a counting request
 * over a 250 000-block table about 60 000 byte reads instead of as many
 * VM_ALL_VISIBLE calls as blocks (1.3 ms of each such request on an H100
 * host: test/bench/throughput's breakdown, "build").  Like those calls,
 * it reads a page's bytes as they are; the header comment says why a bit
 * cleared meanwhile does not matter.
 */
#define VM_MAP_BYTES			(BLCKSZ - MAXALIGN(SizeOfPageHeaderData))
#define VM_BLOCKS_PER_BYTE		4
#define VM_BLOCKS_PER_PAGE		(VM_MAP_BYTES * VM_BLOCKS_PER_BYTE)

/* The all-visible bits of a map byte's four blocks, as four low bits. */
static inline uint64
all_visible_nibble(uint8 map_byte)
{
	return (map_byte & 0x01) | ((map_byte >> 1) & 0x02) |
		((map_byte >> 2) & 0x04) | ((map_byte >> 3) & 0x08);
}

uint64 *
gl_all_visible_blocks(Relation rel, BlockNumber nblocks)
{
	uint64	   *bits = palloc0(Max(gl_bitmap_words(nblocks), 1) * sizeof(uint64));
	SMgrRelation smgr = RelationGetSmgr(rel);
	BlockNumber map_pages;

	StaticAssertStmt(64 % VM_BLOCKS_PER_BYTE == 0, "a byte's blocks share a word");
	if (nblocks == 0 || !smgrexists(smgr, VISIBILITYMAP_FORKNUM))
		return bits;			/* no map yet: nothing is all-visible */
	map_pages = smgrnblocks(smgr, VISIBILITYMAP_FORKNUM);

	for (BlockNumber page = 0;
		 page < map_pages && (uint64) page * VM_BLOCKS_PER_PAGE < nblocks; page++)
	{
		Buffer		buffer = ReadBufferExtended(rel, VISIBILITYMAP_FORKNUM, page,
												RBM_ZERO_ON_ERROR, NULL);
		const uint8 *map = (const uint8 *) PageGetContents(BufferGetPage(buffer));
		uint64		first = (uint64) page * VM_BLOCKS_PER_PAGE;
		uint64		end = Min(first + VM_BLOCKS_PER_PAGE, (uint64) nblocks);

		for (uint64 block = first; block < end; block += VM_BLOCKS_PER_BYTE)
		{
			uint64		nibble = all_visible_nibble(map[(block - first) / VM_BLOCKS_PER_BYTE]);

			/* blocks past nblocks stay clear: the server must not count them */
			if (end - block < VM_BLOCKS_PER_BYTE)
				nibble &= (UINT64CONST(1) << (end - block)) - 1;
			bits[block / 64] |= nibble << (block % 64);
		}
		ReleaseBuffer(buffer);
	}
	return bits;
}

TupleTableSlot *
gl_heap_page_next(GlHeapPage *page, Relation rel, TupleTableSlot *heap_slot,
				  TupleTableSlot *bare_slot)
{
	OffsetNumber offset;
	ItemId		lp;
	Page		dp;

	if (page->next >= page->nrows)
		return NULL;
	offset = page->offsets[page->next];
	if (!page->read[page->next++])
		return bare_slot;

	/* visible tuples stay put while we hold the pin: no lock needed */
	dp = BufferGetPage(page->buffer);
	lp = PageGetItemId(dp, offset);
	page->tuple.t_data = (HeapTupleHeader) PageGetItem(dp, lp);
	page->tuple.t_len = ItemIdGetLength(lp);
	page->tuple.t_tableOid = RelationGetRelid(rel);
	ItemPointerSet(&page->tuple.t_self, page->block, offset);
	ExecStoreBufferHeapTuple(&page->tuple, heap_slot, page->buffer);
	return heap_slot;
}
