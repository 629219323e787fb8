/*-------------------------------------------------------------------------
 *
 * column.c
 *	  Growing the host copy of a cached column (see column.h).
 *
 * Plain malloc/realloc: the server's worker threads and the unit tests use
 * this outside any PostgreSQL memory context.  (The values, where the
 * server asks, grow in a mapped file instead: value_file.h.)  Arrays grow geometrically so
 * appending n rows costs O(n) amortized: doubling while small, by a quarter
 * once large, so that rows trickling in from the delta log after a big load
 * do not double a column's memory.
 *
 * Finding a TID's latest row (to supersede it, or to mark it ended) costs a
 * binary search over the loader's sorted rows (row_tids.c: over their
 * groups' first TIDs, then a group's rows), or one probe of the hash index
 * that holds every row appended out of TID order.  The loader's own
 * appends, in increasing TID order, only compare with the previous TID.
 *
 *-------------------------------------------------------------------------
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "column/column.h"
#include "column/resize_array.h"
#include "column/value_file.h"

#define LARGE_ARRAY_ELEMENTS	(UINT64_C(1) << 24)
#define MAX_SUMMARIZE_THREADS	64

/* The capacity an array of capacity elements grows to, to hold needed. */
static uint64_t
grown_capacity(uint64_t capacity, uint64_t needed)
{
	uint64_t	newcap = capacity ? capacity : 1024;

	while (newcap < needed)
		newcap += newcap < LARGE_ARRAY_ELEMENTS ? newcap : newcap / 4;
	return newcap;
}

static bool
grow(void **array, uint64_t *capacity, uint64_t needed, size_t elem_size)
{
	uint64_t	newcap;

	if (needed <= *capacity)
		return true;
	newcap = grown_capacity(*capacity, needed);
	if (!gl_resize_array(array, newcap, elem_size))
		return false;
	*capacity = newcap;
	return true;
}

/* Grow a row bitmap from old_words to new_words words, zeroing the new ones. */
static bool
grow_bitmap(uint64_t **bits, uint64_t old_words, uint64_t new_words)
{
	uint64_t	cap = old_words;

	if (!grow((void **) bits, &cap, new_words, sizeof(uint64_t)))
		return false;
	memset(*bits + old_words, 0, (cap - old_words) * sizeof(uint64_t));
	return true;
}

static bool
reserve_rows(GlColumn *col, uint64_t rows)
{
	uint64_t	cap = col->capacity_rows;
	uint64_t	old_words = gl_bitmap_words(cap);

	if (rows <= cap)
		return true;
	/* an offset a row and the values' end */
	cap = grown_capacity(cap + 1, rows + 1) - 1;
	if (!gl_row_offsets_resize(&col->offsets, cap + 1) ||
		!gl_row_tids_resize(&col->tids, cap) ||
		!grow_bitmap(&col->nulls, old_words, gl_bitmap_words(cap)) ||
		!grow_bitmap(&col->superseded, old_words, gl_bitmap_words(cap)) ||
		!grow_bitmap(&col->known_live, old_words, gl_bitmap_words(cap)))
		return false;
	col->capacity_rows = cap;
	return true;
}

/* Room in data for needed bytes of values, in memory or in the file. */
static bool
reserve_values(GlColumn *col, uint64_t needed)
{
	uint64_t	cap;

	if (!col->values_in_file)
		return grow((void **) &col->data, &col->capacity_bytes, needed, 1);
	if (needed <= col->capacity_bytes)
		return true;
	cap = grown_capacity(col->capacity_bytes, needed);
	if (!gl_value_file_resize(col->values_fd, &col->data, col->capacity_bytes, cap))
		return false;
	col->capacity_bytes = cap;
	return true;
}

/* ------------------------------------------------------------ TID index */

static uint64_t
index_place(const GlTidIndex *index, GlTid tid)
{
	/* Fibonacci hashing: TIDs of one page differ in the low bits only */
	return (tid * UINT64_C(0x9E3779B97F4A7C15)) >> 20 & (index->capacity - 1);
}

static bool
index_find(const GlTidIndex *index, GlTid tid, uint64_t *row)
{
	uint64_t	at;

	if (index->used == 0)
		return false;
	for (at = index_place(index, tid); index->tids[at] != 0;
		 at = (at + 1) & (index->capacity - 1))
	{
		if (index->tids[at] == tid)
		{
			*row = index->rows[at];
			return true;
		}
	}
	return false;
}

/* Insert or replace; the table is kept at most half full. */
static bool
index_put(GlTidIndex *index, GlTid tid, uint64_t row)
{
	uint64_t	at;

	if (2 * (index->used + 1) > index->capacity)
	{
		GlTidIndex	bigger;

		bigger.capacity = index->capacity ? 2 * index->capacity : 1024;
		bigger.used = 0;
		bigger.tids = calloc(bigger.capacity, sizeof(GlTid));
		bigger.rows = malloc(bigger.capacity * sizeof(uint64_t));
		if (bigger.tids == NULL || bigger.rows == NULL)
		{
			free(bigger.tids);
			free(bigger.rows);
			return false;
		}
		for (uint64_t i = 0; i < index->capacity; i++)
		{
			if (index->tids[i] != 0)
				(void) index_put(&bigger, index->tids[i], index->rows[i]);
		}
		free(index->tids);
		free(index->rows);
		*index = bigger;
	}
	for (at = index_place(index, tid); index->tids[at] != 0;
		 at = (at + 1) & (index->capacity - 1))
	{
		if (index->tids[at] == tid)
		{
			index->rows[at] = row;
			return true;
		}
	}
	index->tids[at] = tid;
	index->rows[at] = row;
	index->used++;
	return true;
}

bool
gl_column_latest_row(const GlColumn *col, GlTid tid, uint64_t *row)
{
	return index_find(&col->later_rows, tid, row) ||
		gl_row_tids_find(&col->tids, col->sorted_rows, tid, row);
}

GL_POPCOUNT_LOOP uint64_t
gl_bitmap_count(const uint64_t *bits, size_t nwords)
{
	uint64_t	n = 0;

	for (size_t w = 0; w < nwords; w++)
		n += (uint64_t) __builtin_popcountll(bits[w]);
	return n;
}

static void
clear_bit(uint64_t *bits, uint64_t row)
{
	bits[row / 64] &= ~(UINT64_C(1) << (row % 64));
}

static void
set_bit(uint64_t *bits, uint64_t row)
{
	bits[row / 64] |= UINT64_C(1) << (row % 64);
}

void
gl_column_mark_ended(GlColumn *col, GlTid tid)
{
	uint64_t	row;

	if (gl_column_latest_row(col, tid, &row))
	{
		clear_bit(col->known_live, row);
		col->ngarbage++;
	}
}

bool
gl_column_init(GlColumn *col, uint64_t rows_hint, uint64_t bytes_hint)
{
	memset(col, 0, sizeof(*col));
	if (!reserve_rows(col, rows_hint > 0 ? rows_hint : 1024))
		return false;
	if (!reserve_values(col, bytes_hint > 0 ? bytes_hint : 65536))
		return false;
	gl_row_offsets_set(&col->offsets, 0, 0);
	return true;
}

bool
gl_column_append(GlColumn *col, GlTid tid, const char *value, uint32_t len,
				 uint32_t flags)
{
	uint64_t	row = col->nrows;
	bool		extends_sorted = row == col->sorted_rows &&
		(row == 0 || tid > gl_column_tid(col, row - 1));
	uint64_t	earlier;

	if (flags & GL_ROW_IS_NULL)
		len = 0;
	if (!reserve_rows(col, row + 1))
		return false;
	if (!reserve_values(col, col->nbytes + len) ||
		!gl_row_offsets_reserve(&col->offsets, row + 1, col->nbytes + len,
								col->capacity_rows + 1) ||
		!gl_row_tids_reserve(&col->tids, row, tid))
		return false;

	/*
	 * A row that extends the sorted prefix has a TID above every row's (the
	 * index is empty while the prefix is the whole column): nothing to
	 * supersede.  Any other row is indexed, replacing its TID's earlier row.
	 */
	if (!extends_sorted)
	{
		bool		has_earlier = gl_column_latest_row(col, tid, &earlier);

		if (!index_put(&col->later_rows, tid, row))
			return false;
		if (has_earlier)
		{
			set_bit(col->superseded, earlier);
			clear_bit(col->known_live, earlier);
			col->ngarbage++;
		}
	}
	if (len > 0)
		memcpy(col->data + col->nbytes, value, len);
	col->nbytes += len;
	gl_row_tids_set(&col->tids, row, tid);
	gl_row_offsets_set(&col->offsets, row + 1, col->nbytes);
	if (flags & GL_ROW_IS_NULL)
		set_bit(col->nulls, row);
	if (flags & GL_ROW_KNOWN_LIVE)
		set_bit(col->known_live, row);
	if (flags & GL_ROW_ENDING)
		col->ngarbage++;
	if (len > col->max_len)
		col->max_len = len;
	col->nrows = row + 1;
	if (extends_sorted)
		col->sorted_rows = row + 1;
	return true;
}

/*
 * Shrink the arrays to what the rows use.  Loads reserve room from upper
 * bounds; trimming after the load makes gl_column_host_bytes() honest.  A
 * shrinking realloc() (or mremap()) that fails leaves the larger block in
 * place, which is still big enough, so failures need no handling.
 */
void
gl_column_trim(GlColumn *col)
{
	uint64_t	rows = col->nrows > 0 ? col->nrows : 1;
	uint64_t	bytes = col->nbytes > 0 ? col->nbytes : 1;

	if (bytes < col->capacity_bytes &&
		(col->values_in_file ?
		 gl_value_file_resize(col->values_fd, &col->data, col->capacity_bytes, bytes) :
		 gl_resize_array((void **) &col->data, bytes, 1)))
		col->capacity_bytes = bytes;
	gl_row_tids_trim(&col->tids);
	if (rows >= col->capacity_rows)
		return;
	(void) gl_row_tids_resize(&col->tids, rows);
	(void) gl_row_offsets_resize(&col->offsets, rows + 1);
	(void) gl_resize_array((void **) &col->nulls, gl_bitmap_words(rows), sizeof(uint64_t));
	(void) gl_resize_array((void **) &col->superseded, gl_bitmap_words(rows), sizeof(uint64_t));
	(void) gl_resize_array((void **) &col->known_live, gl_bitmap_words(rows), sizeof(uint64_t));
	col->capacity_rows = rows;
}

bool
gl_column_values_to_file(GlColumn *col, const char *directory)
{
	uint64_t	bytes = col->capacity_bytes > 0 ? col->capacity_bytes : 65536;
	char	   *mapped;
	int			fd;

	if (col->values_in_file)
		return true;
	if (!gl_value_file_create(directory, bytes, &fd, &mapped))
		return false;
	if (col->nbytes > 0)
		memcpy(mapped, col->data, col->nbytes);
	free(col->data);
	col->data = mapped;
	col->capacity_bytes = bytes;
	col->values_fd = fd;
	col->values_in_file = true;
	return true;
}

bool
gl_column_index_pages(GlColumn *col)
{
	GlPageIndex *index = &col->pages;
	uint64_t	row = index->indexed_rows;

	for (; row < col->sorted_rows; row++)
	{
		uint32_t	block = gl_tid_block(gl_column_tid(col, row));

		/* the prefix's TIDs increase, so a page's rows are contiguous */
		if (index->npages > 0 && index->blocks[index->npages - 1] == block)
			continue;
		if (index->npages == index->capacity)
		{
			uint64_t	cap = index->capacity;
			uint64_t	cap_rows = cap;

			if (!grow((void **) &index->blocks, &cap, cap + 1, sizeof(uint32_t)) ||
				!grow((void **) &index->first_rows, &cap_rows, cap, sizeof(uint64_t)))
			{
				index->indexed_rows = row;
				return false;
			}
			index->capacity = cap;
		}
		index->blocks[index->npages] = block;
		index->first_rows[index->npages++] = row;
	}
	index->indexed_rows = col->sorted_rows;
	return true;
}

void
gl_column_free(GlColumn *col)
{
	gl_row_offsets_free(&col->offsets);
	free(col->nulls);
	free(col->superseded);
	free(col->known_live);
	gl_row_tids_free(&col->tids);
	if (col->values_in_file)
		gl_value_file_close(col->values_fd, col->data, col->capacity_bytes);
	else
		free(col->data);
	free(col->later_rows.tids);
	free(col->later_rows.rows);
	free(col->pages.blocks);
	free(col->pages.first_rows);
	gl_chunk_pairs_free(&col->pairs);
	memset(col, 0, sizeof(*col));
}

/* Rows [first, end) of a column to add to its pair summary. */
typedef struct SummarizeJob
{
	GlColumn   *col;
	uint64_t	first;
	uint64_t	end;
} SummarizeJob;

static void *
summarize_rows(void *arg)
{
	SummarizeJob *job = arg;

	for (uint64_t row = job->first; row < job->end; row++)
	{
		uint32_t	len;
		const char *value = gl_column_value(job->col, row, &len);

		gl_chunk_pairs_add(&job->col->pairs, row, value, len);
	}
	return NULL;
}

/*
 * The new rows are cut at chunk borders, so that no two threads set bits
 * of one chunk.  The caller may be a process's main thread (the gpulike
 * server's store): its threads start with every signal blocked, so that
 * signals still reach that thread alone, as the server's request threads
 * do (request_threads.c).
 */
bool
gl_column_summarize_pairs(GlColumn *col, int nthreads)
{
	SummarizeJob jobs[MAX_SUMMARIZE_THREADS];
	pthread_t	threads[MAX_SUMMARIZE_THREADS];
	bool		started[MAX_SUMMARIZE_THREADS] = {false};
	uint64_t	from = col->pairs.summarized_rows;
	uint64_t	first_chunk = from / GL_PAIR_CHUNK_ROWS;
	uint64_t	end_chunk = gl_chunk_count(col->nrows);
	sigset_t	all;
	sigset_t	saved;

	if (from >= col->nrows)
		return true;
	if (!gl_chunk_pairs_reserve(&col->pairs, end_chunk))
		return false;
	if (nthreads < 1)
		nthreads = 1;
	if (nthreads > MAX_SUMMARIZE_THREADS)
		nthreads = MAX_SUMMARIZE_THREADS;
	if ((uint64_t) nthreads > end_chunk - first_chunk)
		nthreads = (int) (end_chunk - first_chunk);
	for (int i = 0; i < nthreads; i++)
	{
		uint64_t	chunk = first_chunk + (end_chunk - first_chunk) * i / nthreads;
		uint64_t	next = first_chunk + (end_chunk - first_chunk) * (i + 1) / nthreads;

		jobs[i].col = col;
		jobs[i].first = i == 0 ? from : chunk * GL_PAIR_CHUNK_ROWS;
		jobs[i].end = i == nthreads - 1 ? col->nrows : next * GL_PAIR_CHUNK_ROWS;
	}
	/* the calling thread does the first job; one whose thread did not start, too */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &saved);
	for (int i = 1; i < nthreads; i++)
		started[i] = pthread_create(&threads[i], NULL, summarize_rows, &jobs[i]) == 0;
	pthread_sigmask(SIG_SETMASK, &saved, NULL);
	summarize_rows(&jobs[0]);
	for (int i = 1; i < nthreads; i++)
	{
		if (started[i])
			pthread_join(threads[i], NULL);
		else
			summarize_rows(&jobs[i]);
	}
	col->pairs.summarized_rows = col->nrows;
	return true;
}

size_t
gl_column_host_bytes(const GlColumn *col)
{
	return (col->values_in_file ? 0 : col->capacity_bytes) +
		gl_row_offsets_bytes(&col->offsets, col->capacity_rows + 1) +
		gl_row_tids_bytes(&col->tids, col->capacity_rows) +
		3 * gl_bitmap_words(col->capacity_rows) * sizeof(uint64_t) +
		col->later_rows.capacity * (sizeof(GlTid) + sizeof(uint64_t)) +
		col->pages.capacity * (sizeof(uint32_t) + sizeof(uint64_t)) +
		gl_chunk_pairs_bytes(&col->pairs);
}

bool
gl_column_append_failed_in_file(const GlColumn *col, int why)
{
	/* the rest of a column is in memory, whose failures are ENOMEM */
	return col->values_in_file && why != ENOMEM;
}

uint64_t
gl_column_file_bytes(const GlColumn *col)
{
	return col->values_in_file ? col->capacity_bytes : 0;
}

static int
compare_blocks(const void *a, const void *b)
{
	uint32_t	x = *(const uint32_t *) a;
	uint32_t	y = *(const uint32_t *) b;

	return x < y ? -1 : x > y;
}

uint32_t *
gl_column_delta_blocks(const GlColumn *col, uint64_t *n)
{
	uint32_t   *blocks = malloc(((col->nrows - col->sorted_rows) + 1) * sizeof(uint32_t));
	uint64_t	count = 0;
	uint64_t	kept = 0;

	if (blocks == NULL)
		return NULL;
	for (uint64_t row = col->sorted_rows; row < col->nrows; row++)
	{
		if (!gl_bitmap_test(col->superseded, row))
			blocks[count++] = gl_tid_block(gl_column_tid(col, row));
	}
	qsort(blocks, count, sizeof(uint32_t), compare_blocks);
	for (uint64_t i = 0; i < count; i++)
	{
		if (kept == 0 || blocks[kept - 1] != blocks[i])
			blocks[kept++] = blocks[i];
	}
	*n = kept;
	return blocks;
}
