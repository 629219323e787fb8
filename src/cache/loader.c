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
 * Locking: the caller holds ShareRowExclusiveLock, which conflicts with
 * every writer (RowExclusiveLock) and with itself, so nothing is inserted
 * or updated while we scan, and two loads of a table never overlap.  Rows
 * written before the lock was granted are committed or aborted by then and
 * are in the heap; rows written after it is released are logged by the sync
 * trigger under the generation this load created.  Per page we hold the
 * content lock only for the visibility checks, then read the values with
 * the pin alone: pruning needs a cleanup lock (no other pins), and
 * SELECT FOR UPDATE only touches tuple headers, never data.
 *
 * Values are detoasted (they may be megabytes long) and shipped as stored:
 * char(n) stays blank-padded, exactly what the LIKE functions see.
 *
 * Each row also says whether its tuple is known live: HEAPTUPLE_LIVE
 * (inserted by a committed transaction, not deleted by one), or on an
 * all-visible page.  From then on only a logged delete or update can end
 * it (the sync trigger logs those), which is what lets the executor count
 * such rows on all-visible pages without reading them.  Recently dead and
 * in-progress versions are shipped as not known live.
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
#include "cache/registry_internal.h"
#include "column/column.h"
#include "server/loader_api.h"

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

/* A tuple of a page that some snapshot may see. */
typedef struct Keeper
{
	OffsetNumber offset;
	bool		known_live;
} Keeper;

/* Ship the value of attnum in one tuple version. */
static void
ship_tuple(GlLoadStream *stream, HeapTuple tuple, TupleDesc desc,
		   AttrNumber attnum, bool known_live, GlLoadResult *result)
{
	bool		isnull;
	Datum		datum = heap_getattr(tuple, attnum, desc, &isnull);
	uint32		flags = known_live ? GL_ROW_KNOWN_LIVE : 0;

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
			keep[nkeep++].known_live = true;
			continue;
		}
		tuple.t_data = (HeapTupleHeader) PageGetItem(page, itemid);
		tuple.t_len = ItemIdGetLength(itemid);
		tuple.t_tableOid = RelationGetRelid(rel);
		ItemPointerSet(&tuple.t_self, block, off);
		status = HeapTupleSatisfiesVacuum(&tuple, oldest_xmin, buffer);
		if (status != HEAPTUPLE_DEAD)
		{
			keep[nkeep].offset = off;
			keep[nkeep++].known_live = status == HEAPTUPLE_LIVE;
		}
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
gl_cache_load(Relation rel, AttrNumber attnum, int slot, Oid sync_function)
{
	TupleDesc	desc = RelationGetDescr(rel);
	BlockNumber nblocks = RelationGetNumberOfBlocks(rel);
	uint64		rows_hint = estimated_rows(rel, nblocks);
	BufferAccessStrategy strategy = GetAccessStrategy(BAS_BULKREAD);
	TransactionId oldest_xmin = GetOldestNonRemovableTransactionId(rel);
	Keeper		keep[MaxHeapTuplesPerPage];
	GlLoadResult result = {0};
	GlLoadStream *stream;
	uint64		generation;
	instr_time	start;
	instr_time	elapsed;
	double		cpu_start = cpu_seconds_used();

	INSTR_TIME_SET_CURRENT(start);
	generation = gl_registry_begin_load(slot, rel->rd_node.relNode,
										sync_function, rows_hint);
	stream = gl_load_begin(slot, generation, rows_hint,
						   (uint64) nblocks * BLCKSZ);

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
			ship_tuple(stream, &tuple, desc, attnum, keep[i].known_live, &result);
		}
		ReleaseBuffer(buffer);

		if ((block + 1) % PROGRESS_EVERY_PAGES == 0)
			gl_registry_load_progress(slot, generation, result.rows);
	}

	gl_load_end(stream);
	FreeAccessStrategy(strategy);
	gl_registry_load_progress(slot, generation, result.rows);
	gl_registry_finish_load(slot, generation);

	INSTR_TIME_SET_CURRENT(elapsed);
	INSTR_TIME_SUBTRACT(elapsed, start);
	result.seconds = INSTR_TIME_GET_DOUBLE(elapsed);
	result.cpu_seconds = cpu_seconds_used() - cpu_start;
	return result;
}
