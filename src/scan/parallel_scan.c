/*-------------------------------------------------------------------------
 *
 * parallel_scan.c
 *	  State shared by the participants of a parallel-aware GpuLike scan.
 *
 * A parallel GpuLike scan sends one request per pass, not one per
 * participant, and splits the answer's pages among the participants, in
 * the manner of Parallel Bitmap Heap Scan sharing its bitmap:
 *
 *	1. The first participant to start a pass moves it from INITIAL to
 *	   ASKING and asks the server; the others sleep on a condition
 *	   variable.  Every participant evaluates the same patterns (Params
 *	   reach the workers with their values), so whoever asks, asks the
 *	   same question.
 *	2. The asker receives the page records into the query's dynamic
 *	   shared area, indexes where each record starts, and publishes the
 *	   pass (READY): the candidate pages, no rows at all, or -- when the
 *	   server cannot answer -- a parallel sequential scan of the heap,
 *	   whose shared descriptor lives here too.
 *	3. Participants claim runs of GL_RUN_PAGES records with one atomic
 *	   add, so each heap page is read by one participant, once.
 *
 * A rescan (a Gather inside a nested loop, with new Params) resets the
 * state in the leader before new workers start.  Workers add their EXPLAIN
 * counters here as they shut down; the leader reads the sums at its own
 * shutdown, while the segment still exists.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/tableam.h"
#include "pgstat.h"

#include "scan/parallel_scan.h"

Size
gl_shared_scan_size(Relation rel, Snapshot snapshot)
{
	return add_size(offsetof(GlSharedScan, heap_scan),
					table_parallelscan_estimate(rel, snapshot));
}

static void
forget_pass(GlSharedScan *shared)
{
	shared->pass_state = GL_PASS_INITIAL;
	memset(&shared->pass, 0, sizeof(GlPassResult));
	shared->pass.pages = InvalidDsaPointer;
	shared->page_starts = InvalidDsaPointer;
	pg_atomic_write_u64(&shared->next_page, 0);
}

void
gl_shared_scan_init(GlSharedScan *shared, Relation rel, Snapshot snapshot)
{
	SpinLockInit(&shared->mutex);
	ConditionVariableInit(&shared->pass_ready);
	pg_atomic_init_u64(&shared->next_page, 0);
	forget_pass(shared);
	memset(&shared->worker_counters, 0, sizeof(GlScanCounters));
	table_parallelscan_initialize(rel, &shared->heap_scan, snapshot);
}

void
gl_shared_scan_reset(GlSharedScan *shared, Relation rel, dsa_area *dsa)
{
	if (DsaPointerIsValid(shared->pass.pages))
		dsa_free(dsa, shared->pass.pages);
	if (DsaPointerIsValid(shared->page_starts))
		dsa_free(dsa, shared->page_starts);
	forget_pass(shared);
	table_parallelscan_reinitialize(rel, &shared->heap_scan);
}

bool
gl_shared_scan_start(GlSharedScan *shared)
{
	bool		ask = false;

	SpinLockAcquire(&shared->mutex);
	if (shared->pass_state == GL_PASS_INITIAL)
	{
		shared->pass_state = GL_PASS_ASKING;
		ask = true;
	}
	SpinLockRelease(&shared->mutex);
	if (ask)
		return true;

	ConditionVariablePrepareToSleep(&shared->pass_ready);
	for (;;)
	{
		GlSharedPassState state;

		SpinLockAcquire(&shared->mutex);
		state = shared->pass_state;
		SpinLockRelease(&shared->mutex);
		if (state == GL_PASS_READY)
			break;
		ConditionVariableSleep(&shared->pass_ready, PG_WAIT_EXTENSION);
	}
	ConditionVariableCancelSleep();
	return false;
}

void
gl_shared_scan_publish(GlSharedScan *shared, dsa_area *dsa,
					   const GlPassResult *pass)
{
	shared->pass = *pass;
	if (pass->npages > 0)
	{
		const char *pages = dsa_get_address(dsa, pass->pages);
		uint64	   *starts;
		uint64		pos = 0;

		shared->page_starts = dsa_allocate_extended(dsa,
													pass->npages * sizeof(uint64),
													DSA_ALLOC_HUGE);
		starts = dsa_get_address(dsa, shared->page_starts);
		for (uint64 i = 0; i < pass->npages; i++)
		{
			if (pos >= pass->pages_bytes)
				elog(ERROR, "gpulike: malformed answer from the gpulike server");
			starts[i] = pos;
			pos += gl_candidate_page_size((const GlCandidatePage *) (pages + pos));
		}
		if (pos != pass->pages_bytes)
			elog(ERROR, "gpulike: malformed answer from the gpulike server");
	}

	SpinLockAcquire(&shared->mutex);
	shared->pass_state = GL_PASS_READY;
	SpinLockRelease(&shared->mutex);
	ConditionVariableBroadcast(&shared->pass_ready);
}

const GlPassResult *
gl_shared_scan_pass(GlSharedScan *shared)
{
	Assert(shared->pass_state == GL_PASS_READY);
	return &shared->pass;
}

const GlPassResult *
gl_shared_scan_ready_pass(GlSharedScan *shared)
{
	GlSharedPassState state;

	SpinLockAcquire(&shared->mutex);
	state = shared->pass_state;
	SpinLockRelease(&shared->mutex);
	return state == GL_PASS_READY ? &shared->pass : NULL;
}

bool
gl_shared_scan_claim(GlSharedScan *shared, dsa_area *dsa, GlPageRun *run)
{
	uint64		first;
	const char *pages;
	const uint64 *starts;

	run->npages = 0;
	run->next = 0;
	if (shared->pass.npages == 0)
		return false;
	first = pg_atomic_fetch_add_u64(&shared->next_page, GL_RUN_PAGES);
	if (first >= shared->pass.npages)
		return false;
	pages = dsa_get_address(dsa, shared->pass.pages);
	starts = dsa_get_address(dsa, shared->page_starts);
	for (uint64 i = first; i < shared->pass.npages && run->npages < GL_RUN_PAGES; i++)
		run->records[run->npages++] = (const GlCandidatePage *) (pages + starts[i]);
	return true;
}

void
gl_shared_scan_add_counters(GlSharedScan *shared,
							const GlScanCounters *counters)
{
	SpinLockAcquire(&shared->mutex);
	gl_scan_counters_add(&shared->worker_counters, counters);
	SpinLockRelease(&shared->mutex);
}

void
gl_shared_scan_worker_counters(GlSharedScan *shared, GlScanCounters *sums)
{
	SpinLockAcquire(&shared->mutex);
	*sums = shared->worker_counters;
	SpinLockRelease(&shared->mutex);
}
