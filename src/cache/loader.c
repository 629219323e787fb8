/*-------------------------------------------------------------------------
 *
 * loader.c
 *	  Scan a heap table and ship (TID, value) of one column to the server.
 *
 * Which tuples: every tuple version that some snapshot, now or later, may
 * still see.  We read each page ourselves, look at every line pointer with
 * HeapTupleSatisfiesVacuum against the relation's oldest non-removable xid,
 * and skip only HEAPTUPLE_DEAD (no snapshot can see it).  Recently dead,
 * live, and in-progress versions all go in: an extra version is a harmless
 * candidate (the executor fetches each candidate under the query's own
 * snapshot and rechecks), a missing one would be a wrong answer.  This is
 * what CREATE INDEX does (heapam_index_build_range_scan) for the same
 * reason.  Rows are shipped in TID order (pages in order, line pointers in
 * order), so the server's column is in heap order.
 *
 * Per page we hold the content lock only for the visibility checks, then
 * read the values with the pin alone: pruning needs a cleanup lock (no
 * other pins), concurrent inserts and updates add line pointers and set
 * header bits but move no tuple data, and SELECT FOR UPDATE only touches
 * tuple headers (src/backend/storage/buffer/README, rule 2).
 *
 * Loading while writers write.  The caller holds ShareUpdateExclusiveLock
 * (or stronger): it excludes other loads of the table and every DDL that
 * could change its TIDs or its triggers (TRUNCATE, rewrites, ALTER and
 * DROP TRIGGER), but not INSERT, UPDATE or DELETE.  The sync trigger
 * exists and fires ALWAYS, and was committed before the load began (or is
 * this transaction's own, under the ShareRowExclusiveLock that created it,
 * which keeps writers out until commit): every writer that runs during the
 * load fires it (cache_ops.c).  In order:
 *
 *	1. The server starts an empty column for a new generation G, beside the
 *	   copy (if any) that goes on serving queries.
 *	2. The registry announces G (load_generation).  From then on the sync
 *	   trigger logs every new tuple version and every ended tuple for G as
 *	   well, and the server queues G's entries (column/load_queue.h).
 *	3. The heap is read, block count taken after step 2, as described
 *	   above: every tuple version not certainly dead, in TID order.
 *	4. The server appends G's queued changes after the scanned rows, oldest
 *	   first, then makes G the serving column and the registry's READY
 *	   generation in one step (store.c).  Later changes reach G as they
 *	   reach any serving column.
 *
 * No row is missed.  Take a tuple version t, at TID x, that a snapshot may
 * see.  t was written to its page, under the page's exclusive lock, before
 * its AFTER ROW trigger fired, and the trigger reads the registry's change
 * counter, per row, after that (sync_row.c).  If t was written before the
 * scan share-locked its page, the scan ships t.  If after, then step 2,
 * the scan's lock and release of the page, the writer's lock of it and its
 * trigger's read come in that order (LWLocks are full barriers), so the
 * trigger sees the counter moved, reads the registry again, and logs t for
 * G.  A tuple in a block the scan's block count did not include was
 * written after the count was read, which came after step 2: logged too.
 * A writer whose trigger has not fired by step 4 (its statement still
 * runs) logs to G later; until then its tuples are uncommitted, visible to
 * itself alone, and a transaction with pending sync events never uses the
 * cache (gl_cache_usable).
 *
 * A TID's latest row is its current tuple (column.h: superseded).  The
 * tuples that occupy x over time follow one another: each is dead and
 * pruned before x is reused, and its trigger fired before its transaction
 * ended.  So once one version of x was logged for G, every later one is
 * too (its trigger reads the counter later still), in order.  Replaying
 * G's entries after the scanned rows therefore makes x's latest row the
 * newest version of x whose trigger has fired -- logged for G, or, when
 * none was, the scanned tuple.  A scanned tuple newer than that has its
 * trigger pending, so only its own writer can see it (above), and its
 * entry supersedes the older row when it comes.  A tuple both scanned and
 * logged is kept twice, the logged row superseding the scanned one: the
 * same value, one extra superseded row.
 *
 * known_live keeps its meaning (column.h: the executor counts such rows
 * on all-visible pages without reading them).  A scanned row is known live
 * only if its tuple was HEAPTUPLE_LIVE, or on an all-visible page, when
 * the scan read it: no delete or update of it had begun (either sets xmax,
 * and clears the page's all-visible flag, under the page's exclusive
 * lock).  A delete or update that comes later writes the page after the
 * scan read it, so its trigger logs ENDED x for G, and the replay takes
 * the claim back.  Rows from the log are never known live.
 *
 * This transaction's snapshot is held for the whole load, so the oldest
 * xmin taken at the start stays valid: nothing shipped as recently dead
 * is pruned, nor its TOAST removed, before we read it.
 *
 * Values are detoasted (they may be megabytes long) and shipped as stored:
 * char(n) stays blank-padded, exactly what the LIKE functions see.
 *
 * Each row also says whether its tuple is known live: HEAPTUPLE_LIVE
 * (inserted by a committed transaction, not deleted by one), or on an
 * all-visible page.  From then on only a logged delete or update can end
 * it (the sync trigger logs those), which is what lets the executor count
 * such rows on all-visible pages without reading them.  Recently dead and
 * in-progress versions are shipped as not known live; recently dead ones,
 * and those being deleted, as ending (column.h): their delete was logged,
 * if at all, before this load, so only the flag tells the server's
 * garbage count about them.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <sys/resource.h>

#include "access/detoast.h"
#include "access/heapam.h"
#include "access/htup_details.h"
#include "miscadmin.h"
#include "portability/instr_time.h"
#include "storage/bufmgr.h"
#include "storage/procarray.h"
#include "utils/rel.h"

#include "cache/loader.h"
#include "client/load_stream.h"
#include "column/column.h"
#include "registry/registry.h"

/* Update the progress shown in gpulike.caches every this many pages. */
#define PROGRESS_EVERY_PAGES 128

/* A guess at rows per page when the table was never analyzed. */
#define UNANALYZED_ROWS_PER_PAGE 50

static uint64
estimated_rows(Relation rel, BlockNumber nblocks)
{
	if (rel->rd_rel->reltuples >= 0 && rel->rd_rel->relpages > 0)
		return (uint64) (rel->rd_rel->reltuples / rel->rd_rel->relpages * nblocks);
	return (uint64) nblocks * UNANALYZED_ROWS_PER_PAGE;
}

/* A tuple of a page that some snapshot may see, and its GL_ROW_* flags. */
typedef struct Keeper
{
	OffsetNumber offset;
	uint32		flags;
} Keeper;

/* Ship the value of attnum in one tuple version. */
static void
ship_tuple(GlLoadStream *stream, HeapTuple tuple, TupleDesc desc,
		   AttrNumber attnum, uint32 flags, GlLoadResult *result)
{
	bool		isnull;
	Datum		datum = heap_getattr(tuple, attnum, desc, &isnull);

	if (isnull)
		gl_load_row(stream, &tuple->t_self, NULL, 0, flags | GL_ROW_IS_NULL);
	else
	{
		struct varlena *stored = (struct varlena *) DatumGetPointer(datum);
		struct varlena *value = pg_detoast_datum_packed(stored);
		uint32		len = VARSIZE_ANY_EXHDR(value);

		gl_load_row(stream, &tuple->t_self, VARDATA_ANY(value), len, flags);
		result->bytes += len;
		if (value != stored)
			pfree(value);
	}
	result->rows++;
}

/*
 * The tuples of one page that some snapshot may see, decided under the
 * content lock.  On an all-visible page (VACUUM set the flag, and any
 * change clears it first) every tuple is visible to everyone, so the
 * per-tuple check is skipped: most pages of a vacuumed table.
 */
static int
page_keepers(Relation rel, Buffer buffer, BlockNumber block,
			 TransactionId oldest_xmin, Keeper *keep)
{
	Page		page;
	OffsetNumber maxoff;
	bool		all_visible;
	int			nkeep = 0;

	LockBuffer(buffer, BUFFER_LOCK_SHARE);
	page = BufferGetPage(buffer);
	maxoff = PageGetMaxOffsetNumber(page);
	all_visible = PageIsAllVisible(page);
	for (OffsetNumber off = FirstOffsetNumber; off <= maxoff; off++)
	{
		ItemId		itemid = PageGetItemId(page, off);
		HeapTupleData tuple;

		HTSV_Result status;

		if (!ItemIdIsNormal(itemid))
			continue;
		if (all_visible)
		{
			keep[nkeep].offset = off;
			keep[nkeep++].flags = GL_ROW_KNOWN_LIVE;
			continue;
		}
		tuple.t_data = (HeapTupleHeader) PageGetItem(page, itemid);
		tuple.t_len = ItemIdGetLength(itemid);
		tuple.t_tableOid = RelationGetRelid(rel);
		ItemPointerSet(&tuple.t_self, block, off);
		status = HeapTupleSatisfiesVacuum(&tuple, oldest_xmin, buffer);
		if (status == HEAPTUPLE_DEAD)
			continue;
		keep[nkeep].offset = off;
		if (status == HEAPTUPLE_LIVE)
			keep[nkeep++].flags = GL_ROW_KNOWN_LIVE;
		else if (status == HEAPTUPLE_RECENTLY_DEAD ||
				 status == HEAPTUPLE_DELETE_IN_PROGRESS)
			keep[nkeep++].flags = GL_ROW_ENDING;
		else
			keep[nkeep++].flags = 0;
	}
	LockBuffer(buffer, BUFFER_LOCK_UNLOCK);
	return nkeep;
}

static double
cpu_seconds_used(void)
{
	struct rusage usage;

	getrusage(RUSAGE_SELF, &usage);
	return usage.ru_utime.tv_sec + usage.ru_stime.tv_sec +
		(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

GlLoadResult
gl_cache_load(Relation rel, AttrNumber attnum, int slot, uint64 generation,
			  Oid sync_function, uint64 byte_limit)
{
	TupleDesc	desc = RelationGetDescr(rel);
	BlockNumber nblocks = RelationGetNumberOfBlocks(rel);
	uint64		rows_hint = estimated_rows(rel, nblocks);
	BufferAccessStrategy strategy;
	TransactionId oldest_xmin;
	Keeper		keep[MaxHeapTuplesPerPage];
	GlLoadResult result = {0};
	GlLoadStream *stream;
	instr_time	start;
	instr_time	elapsed;
	double		cpu_start = cpu_seconds_used();

	INSTR_TIME_SET_CURRENT(start);
	stream = gl_load_begin(slot, generation, rows_hint,
						   (uint64) nblocks * BLCKSZ, byte_limit);
	gl_registry_begin_load(slot, generation, rel->rd_node.relNode,
						   sync_function, rel->rd_rel->relowner, rows_hint);

	/* after the announcement: see "No row is missed" above */
	nblocks = RelationGetNumberOfBlocks(rel);
	oldest_xmin = GetOldestNonRemovableTransactionId(rel);
	strategy = GetAccessStrategy(BAS_BULKREAD);
	for (BlockNumber block = 0; block < nblocks; block++)
	{
		Buffer		buffer;
		Page		page;
		int			nkeep;

		CHECK_FOR_INTERRUPTS();
		buffer = ReadBufferExtended(rel, MAIN_FORKNUM, block, RBM_NORMAL,
									strategy);
		nkeep = page_keepers(rel, buffer, block, oldest_xmin, keep);
		page = BufferGetPage(buffer);
		for (int i = 0; i < nkeep; i++)
		{
			ItemId		itemid = PageGetItemId(page, keep[i].offset);
			HeapTupleData tuple;

			tuple.t_data = (HeapTupleHeader) PageGetItem(page, itemid);
			tuple.t_len = ItemIdGetLength(itemid);
			tuple.t_tableOid = RelationGetRelid(rel);
			ItemPointerSet(&tuple.t_self, block, keep[i].offset);
			ship_tuple(stream, &tuple, desc, attnum, keep[i].flags, &result);
		}
		ReleaseBuffer(buffer);

		if ((block + 1) % PROGRESS_EVERY_PAGES == 0)
			gl_registry_load_progress(slot, generation, result.rows);
	}
	FreeAccessStrategy(strategy);
	gl_registry_load_progress(slot, generation, result.rows);

	result.installed = gl_load_end(stream, &result.why_not);

	INSTR_TIME_SET_CURRENT(elapsed);
	INSTR_TIME_SUBTRACT(elapsed, start);
	result.seconds = INSTR_TIME_GET_DOUBLE(elapsed);
	result.cpu_seconds = cpu_seconds_used() - cpu_start;
	return result;
}
