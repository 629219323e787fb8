/*-------------------------------------------------------------------------
 *
 * match.cu
 *	  gl_cuda_match(): one program over one device column, result back on
 *	  the host: its bitmap, or only its nonzero words when they are few
 *	  (result_words.cu).
 *
 * The plan depends on the program: gl_prepared_plan() decides it when the
 * program is prepared (kernel_prep/program_prep.h tabulates the plans);
 * NULL rows are taken out as the result comes back.  The sieve and the
 * stream are single streaming passes; the others remain for automata too
 * large for shared memory.  A program is prepared once for all parts
 * and kept with the column for the next time (program_cache.cu).  Each
 * part runs on its own stream with its own scratch (GlMatchResources,
 * device_column.h), so the parts of a split column match at once from
 * several threads; and each part has a set of them per lane, so matches
 * on different lanes run at once too (gpulike_cuda.h).  The kernel time
 * reported is measured with events around the kernels (the program's
 * copy and the result's way back are not included).
 *
 *-------------------------------------------------------------------------
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <thread>
#include <vector>

#include "kernels.h"
#include "match.h"
#include "program_cache.h"
#include "cuda_check.h"

/* One match's view of its lane's device scratch (GlMatchResources). */
typedef struct MatchScratch
{
	GlMatchResources *lane;		/* whose scratch this is */
	uint64_t   *blob;
	void	   *stream_table;	/* the stream kernel's table */
	void	   *replaced_table; /* the table a factored one replaced */
	uint32_t   *result;
	uint32_t   *tickets;		/* the stream kernel's, after the result */
	uint32_t   *replaced_tickets;	/* the replaced table's walk's, after those */
	uint32_t   *replaced_tickets_back;	/* pinned host: those, after the match */
	uint64_t   *visible_back;	/* pinned host: counting's visible bits, staged */
	uint8_t    *chunk_flags;
	uint32_t   *chunk_list;
	uint32_t   *list_len;
	uint32_t   *word_index;		/* listing: every nonzero word's index */
	uint32_t   *word_count;
	void	   *list_temp;		/* listing: CUB's temporary storage */
	size_t		list_temp_bytes;
	uint64_t   *visible;		/* counting: the asker's all-visible blocks */
	unsigned long long *counted;	/* counting: the count, after the tickets */
} MatchScratch;

/* Grow-only pinned host memory. */
static bool
reserve_host(void **buffer, size_t *have, size_t need, char *errbuf, size_t errlen)
{
	if (need <= *have)
		return true;
	cudaFreeHost(*buffer);
	*buffer = NULL;
	*have = 0;
	if (!gl_cuda_ok(cudaMallocHost(buffer, need + need / 4), "cudaMallocHost (match result)",
					errbuf, errlen))
		return false;
	*have = need + need / 4;
	return true;
}

/*
 * The match resources of the part's lane (device_column.h), made at the
 * lane's first match, scratch and host buffers grown to this match's
 * needs: by a quarter more than needed, so that a column growing by delta
 * rows reallocates rarely.  capacity: words a listing may bring back (0:
 * no listing); visible_words: a counting match's all-visible bits (0: not
 * counting), which go to the device through the end of the host listing.
 * The caller has made the part's device current.
 */
static bool
prepare_resources(GlDeviceColumn *dcol, int lane, uint32_t blob_bytes,
				  size_t stream_table_bytes, size_t replaced_table_bytes, uint32_t capacity,
				  uint32_t visible_words, MatchScratch *s, GlHostListing *h, char *errbuf,
				  size_t errlen)
{
	GlMatchResources *r = dcol->match[lane];
	uint64_t	nwords = gl_bitmap_words(dcol->nrows);
	size_t		blob = gl_round_up(blob_bytes, 256) + gl_round_up(stream_table_bytes, 256) +
		gl_round_up(replaced_table_bytes, 256);
	size_t		result = gl_round_up(nwords * sizeof(uint64_t), 256) + 256;
	size_t		flags = gl_round_up(dcol->nchunks, 256);
	size_t		list = gl_round_up(dcol->nchunks * sizeof(uint32_t), 256) + 256;
	size_t		listing = 0;
	size_t		list_temp = 0;
	size_t		visible = gl_round_up((size_t) visible_words * sizeof(uint64_t), 256);
	/* host listing: a 16-byte head, words, indices, then the visible bits */
	size_t		host_index_end = 16 + (size_t) capacity * (sizeof(uint64_t) + sizeof(uint32_t));
	size_t		host_visible = (host_index_end + 7) & ~(size_t) 7;
	size_t		need;
	char	   *p;

	if (capacity > 0)
	{
		if (!gl_list_words_temp_bytes(nwords, &list_temp, errbuf, errlen))
			return false;
		listing = gl_round_up(nwords * sizeof(uint32_t), 256) + 256 +
			gl_round_up(list_temp, 256);
	}
	need = blob + result + flags + list + listing + visible;
	if (r == NULL)
	{
		r = (GlMatchResources *) calloc(1, sizeof(GlMatchResources));
		if (r == NULL)
			return gl_cuda_fail("out of host memory for a part's match resources",
								errbuf, errlen);
		if (!gl_cuda_ok(cudaStreamCreateWithFlags(&r->stream, cudaStreamNonBlocking),
						"cudaStreamCreate", errbuf, errlen) ||
			!gl_cuda_ok(cudaEventCreate(&r->start), "cudaEventCreate", errbuf, errlen) ||
			!gl_cuda_ok(cudaEventCreate(&r->stop), "cudaEventCreate", errbuf, errlen))
		{
			if (r->stream != NULL)
				cudaStreamDestroy(r->stream);
			if (r->start != NULL)
				cudaEventDestroy(r->start);
			free(r);
			return false;
		}
		dcol->match[lane] = r;
	}
	if (need > r->scratch_bytes)
	{
		cudaFree(r->scratch);
		r->scratch = NULL;
		r->scratch_bytes = 0;
		r->resident_stamp = 0;
		if (!gl_cuda_ok(cudaMalloc(&r->scratch, need + need / 4),
						"cudaMalloc (match scratch)", errbuf, errlen))
			return false;
		r->scratch_bytes = need + need / 4;
	}
	if (!reserve_host((void **) &r->host_result, &r->host_result_bytes,
					  nwords * sizeof(uint64_t), errbuf, errlen) ||
		!reserve_host((void **) &r->host_listing, &r->host_listing_bytes,
					  host_visible + (size_t) visible_words * sizeof(uint64_t), errbuf, errlen))
		return false;

	p = (char *) r->scratch;
	s->lane = r;
	s->blob = (uint64_t *) p;
	s->stream_table = p + gl_round_up(blob_bytes, 256);
	s->replaced_table = (char *) s->stream_table + gl_round_up(stream_table_bytes, 256);
	p += blob;
	s->result = (uint32_t *) p;
	s->tickets = (uint32_t *) (p + result - 256);
	s->replaced_tickets = s->tickets + 1;
	s->counted = (unsigned long long *) (s->tickets + 2);
	p += result;
	s->chunk_flags = (uint8_t *) p;
	p += flags;
	s->chunk_list = (uint32_t *) p;
	s->list_len = (uint32_t *) (p + list - 256);
	p += list;
	s->word_index = (uint32_t *) p;
	s->word_count = (uint32_t *) (p + gl_round_up(nwords * sizeof(uint32_t), 256));
	s->list_temp = p + gl_round_up(nwords * sizeof(uint32_t), 256) + 256;
	s->list_temp_bytes = list_temp;
	p += listing;
	s->visible = (uint64_t *) p;

	/*
	 * host listing: the count and the replaced walk's tickets, the
	 * counted rows, then words, indices, and the visible bits on their way
	 * to the device
	 */
	h->count = (uint32_t *) r->host_listing;
	s->replaced_tickets_back = h->count + 1;
	h->counted = (uint64_t *) (h->count + 2);
	h->words = (uint64_t *) ((char *) r->host_listing + 16);
	h->index = (uint32_t *) (h->words + capacity);
	s->visible_back = (uint64_t *) ((char *) r->host_listing + host_visible);
	return true;
}

/*
 * Past one in this many chunks listed for the factored automaton's
 * candidates, the table it replaced walks the whole column instead of the
 * per-row kernel reading theirs: about where the two cost alike, from
 * their rates in kernel_bench (kernels_rows.cu, kernels_stream.cu;
 * figures in test/bench/results/h200-kernels/README.md).  It is the
 * list's capacity: there the factored walk gives up (stream_automata.cuh).
 */
static const uint32_t MAX_CANDIDATE_CHUNK_SHARE = 8;

static uint32_t
candidate_list_capacity(const GlDeviceColumn *dcol)
{
	return (uint32_t) (dcol->nchunks / MAX_CANDIDATE_CHUNK_SHARE);
}

/*
 * The factored automaton (kernel_prep/literal_factors.h) over the column, then the
 * rows of its candidates: the per-row kernel on the chunks its walk
 * listed, or, where the column's sample missed the factors and they
 * filled the list, the walk of the table it replaced over every chunk
 * (both exact alone; the factored walk's bits are rows that match).  Both
 * are launched, and each knows on the device whether it runs (the list's
 * length; the ticket counter the factored walk zeroes where it gives up):
 * bringing the length to the host first, to launch one, left the device
 * idle microseconds a match (kernel_bench's "AC 200").  Where the sample
 * missed (kernel_bench's missed column) the whole walk takes longer than
 * the column's usual time, and longer still when the skim decided the
 * filled list's rows.  The next matches, while the column's cache keeps
 * the program, walk the replaced table alone: gl_cuda_match_with() has
 * it prepared again without the factors.
 */
static bool
walk_factored(const GlLaunch *l, const GlPreparedProgram *pp, const GlKernelProgram *kp,
			  const MatchScratch *s, GlStreamTable *table)
{
	uint32_t	most = candidate_list_capacity(l->dcol);
	GlStreamTable replaced;

	table->candidate_list = s->chunk_list;
	table->candidate_count = s->list_len;
	table->candidate_capacity = most;
	table->replaced_tickets = s->replaced_tickets;
	gl_replaced_table_host(pp, &replaced);
	replaced.table = s->replaced_table;	/* the device copy */
	replaced.shape = s->lane->replaced_shape;
	return gl_cuda_ok(cudaMemsetAsync(s->list_len, 0, sizeof(uint32_t), l->stream),
					  "cudaMemsetAsync (list length)", l->errbuf, l->errlen) &&
		gl_cuda_ok(cudaMemsetAsync(s->replaced_tickets, 0x7F, sizeof(uint32_t), l->stream),
				   "cudaMemsetAsync (tickets)", l->errbuf, l->errlen) &&
		gl_launch_stream(l, table, s->tickets, s->result) &&
		gl_launch_rows(l, GL_PROG_MULTI, kp, s->chunk_list, s->list_len, most, s->result) &&
		gl_launch_stream(l, &replaced, s->replaced_tickets, s->result);
}

/*
 * Whether a factored walk gave up, and the replaced table walked: its
 * ticket counter back on the host (queued after the kernels' time is
 * taken), read once the stream is synchronized.
 */
static bool
queue_walk_report(const GlLaunch *l, const GlPreparedProgram *pp, const MatchScratch *s)
{
	return pp->factored == 0 ||
		gl_cuda_ok(cudaMemcpyAsync(s->replaced_tickets_back, s->replaced_tickets,
								   sizeof(uint32_t), cudaMemcpyDeviceToHost, l->stream),
				   "cudaMemcpyAsync (tickets)", l->errbuf, l->errlen);
}

static bool
walk_gave_up(const GlPreparedProgram *pp, const MatchScratch *s)
{
	return pp->factored > 0 && *s->replaced_tickets_back < GL_STREAM_NO_TICKETS;
}

/* The kernels of one plan, in stream order. */
static bool
run_plan(const GlLaunch *l, const GlPreparedProgram *pp, const GlKernelProgram *kp,
		 const MatchScratch *s)
{
	const GlDeviceColumn *dcol = l->dcol;
	bool		ok;

	/* the result and, after it, the stream kernel's tickets and the count: one memset */
	if (!gl_cuda_ok(cudaMemsetAsync(s->result, 0, (char *) (s->counted + 1) - (char *) s->result,
									l->stream), "cudaMemsetAsync (result)", l->errbuf, l->errlen))
		return false;
	switch (gl_prepared_plan(pp))
	{
		case GL_PLAN_SIEVE:
			ok = gl_launch_sieve(l, &pp->sieve, true, NULL, s->result);
			break;
		case GL_PLAN_STREAM:
			{
				GlStreamTable table;

				gl_stream_table_host(pp, &table);
				table.table = s->stream_table;	/* the device copy */
				table.shape = s->lane->stream_shape;
				/* the set sieve first; the stream kernel's tickets past its last unless it gives up */
				ok = pp->literal_set == NULL ||
					(gl_cuda_ok(cudaMemsetAsync(s->tickets, 0x7F, sizeof(uint32_t), l->stream),
								"cudaMemsetAsync (tickets)", l->errbuf, l->errlen) &&
					 gl_launch_set_sieve(l, pp->literal_set, s->tickets, s->result));
				if (pp->factored == 0)
					ok = ok && gl_launch_stream(l, &table, s->tickets, s->result);
				else
					ok = ok && walk_factored(l, pp, kp, s, &table);
				break;
			}
		case GL_PLAN_SKIM:
			ok = gl_launch_skim_multi(l, kp, s->result);
			break;
		case GL_PLAN_SIEVE_ROWS:
			ok = gl_cuda_ok(cudaMemsetAsync(s->chunk_flags, 0, dcol->nchunks, l->stream),
							"cudaMemsetAsync (chunk flags)", l->errbuf, l->errlen) &&
				gl_cuda_ok(cudaMemsetAsync(s->list_len, 0, sizeof(uint32_t), l->stream),
						   "cudaMemsetAsync (list length)", l->errbuf, l->errlen) &&
				gl_launch_sieve(l, &pp->sieve, false, s->chunk_flags, NULL) &&
				gl_launch_compact(l, s->chunk_flags, s->chunk_list, s->list_len) &&
				gl_launch_rows(l, pp->kind, kp, s->chunk_list, s->list_len, dcol->nchunks,
							   s->result);
			break;
		case GL_PLAN_ROWS:
		default:
			ok = gl_launch_rows(l, pp->kind, kp, NULL, s->list_len, dcol->nchunks, s->result);
			break;
	}
	return ok;
}

/*
 * Bring the part's result, its NULL rows taken out, back to the host:
 * listed (out->listed) when out->capacity > 0 and at most that many words
 * are nonzero -- the listing then waits on one synchronization and no
 * copies -- else the whole bitmap into out->bits; and a counting match's
 * count into out->counted.
 */
static bool
fetch_result(GlDeviceColumn *dcol, const GlLaunch *l, const MatchScratch *scratch,
			 const GlHostListing *host, GlCudaResult *out)
{
	GlMatchResources *r = scratch->lane;
	size_t		result_bytes = gl_bitmap_words(dcol->nrows) * sizeof(uint64_t);

	out->listed = false;
	out->nwords = 0;
	if (out->capacity > 0)
	{
		uint32_t	n;

		if (!gl_launch_list_words(l, scratch->result, scratch->list_temp,
								  scratch->list_temp_bytes, scratch->word_index,
								  scratch->word_count, (uint32_t) out->capacity,
								  out->count != NULL ? scratch->counted : NULL, host) ||
			!gl_cuda_ok(cudaStreamSynchronize(l->stream), "listing the result's words",
						l->errbuf, l->errlen))
			return false;
		n = *host->count;
		out->counted = out->count != NULL ? *host->counted : 0;
		if (n <= out->capacity)
		{
			memcpy(out->word_index, host->index, n * sizeof(uint32_t));
			memcpy(out->words, host->words, n * sizeof(uint64_t));
			out->listed = true;
			out->nwords = n;
			return true;
		}
	}
	if (!gl_launch_mask_nulls(l, scratch->result) ||
		!gl_cuda_ok(cudaMemcpyAsync(r->host_result, scratch->result, result_bytes,
									cudaMemcpyDeviceToHost, l->stream),
					"cudaMemcpyAsync (result)", l->errbuf, l->errlen) ||
		(out->count != NULL &&
		 !gl_cuda_ok(cudaMemcpyAsync(host->counted, scratch->counted, sizeof(uint64_t),
									 cudaMemcpyDeviceToHost, l->stream),
					 "cudaMemcpyAsync (count)", l->errbuf, l->errlen)) ||
		!gl_cuda_ok(cudaStreamSynchronize(l->stream), "copying the result", l->errbuf,
					l->errlen))
		return false;
	memcpy(out->bits, r->host_result, result_bytes);
	out->counted = out->count != NULL ? *host->counted : 0;
	return true;
}

/* What a part's match says of itself, beside its result. */
typedef struct PartReport
{
	double		kernel_ms;
	bool		gave_up;		/* a factored walk gave up (walk_factored()) */
} PartReport;

/*
 * One part of a column (device_column.h) on lane: its rows' slice of the
 * result, in out (whose bits point at the part's slice).  The program's
 * blob and byte DFA go to the lane's scratch unless it holds them from
 * its last match.  fail: report a device error without running (tests of
 * the fallback).
 */
static bool
match_part(GlDeviceColumn *dcol, int lane, const GlCachedProgram *cp, bool fail,
		   GlCudaResult *out, PartReport *report, char *errbuf, size_t errlen)
{
	const GlPreparedProgram *pp = cp->pp;
	GlKernelProgram kp;
	GlLaunch	launch;
	MatchScratch scratch;
	GlHostListing host;
	cudaStream_t stream;
	GlStreamTable stream_table;
	GlStreamTable replaced_table;
	GlMatchResources *r;
	uint32_t	visible_words = out->count != NULL ?
		(uint32_t) gl_bitmap_words(out->count->visible.nblocks) : 0;
	float		ms = 0;
	bool		ok;

	report->kernel_ms = 0;
	report->gave_up = false;
	out->listed = false;
	out->nwords = 0;
	if (fail)
	{
		snprintf(errbuf, errlen, "simulated failure of the part on device %d "
				 "(gpulike.debug_gpu_fail_part)", dcol->device);
		return false;
	}
	out->counted = 0;
	if (dcol->nrows == 0)
		return true;
	gl_stream_table_host(pp, &stream_table);
	gl_replaced_table_host(pp, &replaced_table);
	if (!gl_cuda_ok(cudaSetDevice(dcol->device), "cudaSetDevice", errbuf, errlen) ||
		!prepare_resources(dcol, lane, pp->blob_bytes, stream_table.bytes,
						   replaced_table.bytes, (uint32_t) out->capacity, visible_words,
						   &scratch, &host, errbuf, errlen))
		return false;
	r = scratch.lane;
	stream = r->stream;
	launch.dcol = dcol;
	launch.stream = stream;
	launch.shared_limit = cp->shared_limit;
	launch.errbuf = errbuf;
	launch.errlen = errlen;
	if (r->resident_stamp != cp->stamp)
	{
		r->resident_stamp = 0;
		if (!gl_cuda_ok(cudaMemcpyAsync(scratch.blob, pp->blob, pp->blob_bytes,
										cudaMemcpyHostToDevice, stream),
						"cudaMemcpyAsync (program)", errbuf, errlen) ||
			(stream_table.bytes > 0 &&
			 (!gl_cuda_ok(cudaMemcpyAsync(scratch.stream_table, stream_table.table,
										  stream_table.bytes, cudaMemcpyHostToDevice, stream),
						  "cudaMemcpyAsync (stream table)", errbuf, errlen) ||
			  !gl_stream_shape(&launch, &stream_table, &r->stream_shape))) ||
			(replaced_table.bytes > 0 &&
			 (!gl_cuda_ok(cudaMemcpyAsync(scratch.replaced_table, replaced_table.table,
										  replaced_table.bytes, cudaMemcpyHostToDevice, stream),
						  "cudaMemcpyAsync (replaced table)", errbuf, errlen) ||
			  !gl_stream_shape(&launch, &replaced_table, &r->replaced_shape))))
			return false;
	}
	if (visible_words > 0)
	{
		memcpy(scratch.visible_back, out->count->visible.bits, visible_words * sizeof(uint64_t));
		if (!gl_cuda_ok(cudaMemcpyAsync(scratch.visible, scratch.visible_back,
										visible_words * sizeof(uint64_t),
										cudaMemcpyHostToDevice, stream),
						"cudaMemcpyAsync (visible blocks)", errbuf, errlen))
			return false;
	}

	kp.blob = scratch.blob;
	kp.blob_bytes = pp->blob_bytes;
	kp.aux_off = pp->aux_off;
	kp.warmup_bytes = pp->warmup_bytes;
	kp.in_shared = pp->in_shared;
	kp.shared_limit = (uint32_t) cp->shared_limit;
	ok = gl_cuda_ok(cudaEventRecord(r->start, stream), "cudaEventRecord",
					errbuf, errlen) &&
		run_plan(&launch, pp, &kp, &scratch) &&
		(out->count == NULL ||
		 gl_launch_count(&launch, scratch.result, scratch.visible, out->count->visible.nblocks,
						 out->count->negate, scratch.counted)) &&
		gl_cuda_ok(cudaEventRecord(r->stop, stream), "cudaEventRecord",
				   errbuf, errlen) &&
		queue_walk_report(&launch, pp, &scratch) &&
		fetch_result(dcol, &launch, &scratch, &host, out) &&
		gl_cuda_ok(cudaEventElapsedTime(&ms, r->start, r->stop),
				   "cudaEventElapsedTime", errbuf, errlen);
	if (ok)
	{
		report->kernel_ms = ms;
		report->gave_up = walk_gave_up(pp, &scratch);
		r->resident_stamp = cp->stamp;
	}
	return ok;
}

/*
 * Several parts: every part on a thread of its own, so the GPUs work at
 * once; each writes its own whole words of the result, which comes back
 * whole (no listing).  The kernel time is the slowest part's; a factored
 * walk gave up if it did in any part.
 */
static bool
match_parts(GlDeviceColumn *dcol, int lane, const GlCachedProgram *cp, int fail_part,
			uint64_t *result, PartReport *report, char *errbuf, size_t errlen)
{
	struct PartRun
	{
		GlDeviceColumn *part;
		bool		fail;
		PartReport	report;
		bool		ok;
		char		err[256];
	};
	std::vector<PartRun> runs;
	std::vector<std::thread> threads;
	bool		ok = true;
	int			k = 0;

	for (GlDeviceColumn *part = dcol; part != NULL; part = part->next, k++)
		runs.push_back(PartRun{part, k == fail_part, {0, false}, false, ""});
	for (PartRun &r : runs)
	{
		auto		run = [&r, lane, cp, result]() {
			GlCudaResult slice = {result + r.part->first_row / 64};

			r.ok = match_part(r.part, lane, cp, r.fail, &slice, &r.report, r.err,
							  sizeof(r.err));
		};

		/* without a thread, run here */
		try
		{
			threads.emplace_back(run);
		}
		catch (...)
		{
			run();
		}
	}
	for (std::thread &t : threads)
		t.join();
	report->kernel_ms = 0;
	report->gave_up = false;
	for (PartRun &r : runs)
	{
		if (!r.ok && ok)
			snprintf(errbuf, errlen, "%s", r.err);
		ok = ok && r.ok;
		report->kernel_ms = std::max(report->kernel_ms, r.report.kernel_ms);
		report->gave_up = report->gave_up || r.report.gave_up;
	}
	return ok;
}

/*
 * prog prepared once (or found prepared) for every part of dcol, then
 * matched on lane; where a factored walk gave up, the column's cache
 * prepares prog again without it, for the next match.
 */
bool
gl_cuda_match_with(GlDeviceColumn *dcol, const GlProgram *prog, const GlPrepareChoices *choices,
				   int lane, int fail_part, GlCudaResult *result, double *kernel_ms,
				   char *errbuf, size_t errlen)
{
	GlCachedProgram cp;
	PartReport	report = {0, false};
	bool		ok;

	*kernel_ms = 0;
	result->listed = false;
	result->nwords = 0;
	if (lane < 0 || lane >= GL_CUDA_LANES)
		return gl_cuda_fail("no such match lane", errbuf, errlen);
	if (result->count != NULL && !gl_cuda_can_count(dcol))
		return gl_cuda_fail("counting on a column without its counting arrays", errbuf,
							errlen);
	if (!gl_program_cache_lookup(dcol, prog, choices, &cp, errbuf, errlen))
		return false;
	/* no exception may reach the server's C code (the parts' vectors, threads) */
	try
	{
		if (dcol->next == NULL)
			ok = match_part(dcol, lane, &cp, fail_part == 0, result, &report, errbuf, errlen);
		else
			ok = match_parts(dcol, lane, &cp, fail_part, result->bits, &report, errbuf,
							 errlen);
	}
	catch (...)
	{
		ok = gl_cuda_fail("out of host memory matching a split column", errbuf, errlen);
	}
	gl_program_cache_release(dcol, &cp, ok && report.gave_up);
	*kernel_ms = report.kernel_ms;
	return ok;
}

bool
gl_cuda_match(GlDeviceColumn *dcol, const GlProgram *prog, bool sieve_first, int lane,
			  int fail_part, GlCudaResult *result, double *kernel_ms, char *errbuf,
			  size_t errlen)
{
	GlPrepareChoices choices = {UINT32_MAX, true, sieve_first, NULL};

	return gl_cuda_match_with(dcol, prog, &choices, lane, fail_part, result, kernel_ms, errbuf,
							  errlen);
}
