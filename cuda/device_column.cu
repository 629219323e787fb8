/*-------------------------------------------------------------------------
 *
 * device_column.cu
 *	  Probing the GPU, and building, growing and freeing the device copy of
 *	  a column (layout: device_column.h).
 *
 * Upload is an append onto an empty device column, so the base load and the
 * delta rows take one path.  A column can be split into parts of
 * consecutive rows, placed on the visible devices in turn
 * (device_column.h); delta rows go to the last part.  Values are packed on the host into a staging
 * buffer and copied in large pieces; the separators need no copying at all,
 * because every byte past the used end of the device stream is kept zero
 * (the invariant that also makes read-ahead past the last row harmless).
 * The chunk index entries for the chunk borders that fall inside the new
 * bytes are computed while packing; their zero-byte counts are counted
 * afterwards on the device, from the stream itself, because the chunk the
 * append began inside has new bytes under an old entry.  An upload also
 * counts the byte pairs of up to GL_PAIR_SAMPLE_ROWS rows spread over the
 * column (kernel_prep/byte_pairs.h: a few milliseconds), for the
 * preparation of the programs run on it; the rows appended later leave the
 * counts as they are.
 *
 *-------------------------------------------------------------------------
 */
#include <stdlib.h>
#include <string.h>

#include "device_column.h"
#include "cuda_check.h"
#include "program_cache.h"
#include "kernels_common.cuh"

/* Host staging buffer for uploads. */
static const size_t STAGING_BYTES = 64 << 20;

bool
gl_cuda_probe(GlCudaDeviceInfo *info, int assumed_capability, char *errbuf, size_t errlen)
{
	cudaDeviceProp prop;
	int			count = 0;
	int			capability;

	memset(info, 0, sizeof(*info));
	if (!gl_cuda_ok(cudaGetDeviceCount(&count), "cudaGetDeviceCount", errbuf, errlen))
		return false;
	if (count == 0)
		return gl_cuda_fail("no CUDA device is present", errbuf, errlen);
	if (!gl_cuda_ok(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties",
					errbuf, errlen))
		return false;
	/* the fat binary starts at sm_80 (cuda/archs.mk) */
	capability = assumed_capability > 0 ? assumed_capability : 10 * prop.major + prop.minor;
	if (capability < GL_CUDA_MIN_CAPABILITY)
	{
		snprintf(errbuf, errlen, "GPU \"%s\" has compute capability %d.%d; "
				 "gpulike's kernels need %d.%d (Ampere) or newer", prop.name,
				 capability / 10, capability % 10, GL_CUDA_MIN_CAPABILITY / 10,
				 GL_CUDA_MIN_CAPABILITY % 10);
		return false;
	}
	if (!gl_cuda_ok(cudaSetDevice(0), "cudaSetDevice", errbuf, errlen) ||
		!gl_cuda_ok(cudaMemGetInfo(&info->free_memory, &info->total_memory),
					"cudaMemGetInfo", errbuf, errlen))
		return false;
	info->device_count = count;
	snprintf(info->name, sizeof(info->name), "%s", prop.name);
	info->sm_count = prop.multiProcessorCount;
	info->cc_major = prop.major;
	info->cc_minor = prop.minor;
	return true;
}

bool
gl_cuda_device_memory(int device, GlCudaDeviceMemory *memory, char *errbuf, size_t errlen)
{
	cudaDeviceProp prop;
	int			current;
	bool		ok;

	memset(memory, 0, sizeof(*memory));
	if (!gl_cuda_ok(cudaGetDevice(&current), "cudaGetDevice", errbuf, errlen))
		return false;
	ok = gl_cuda_ok(cudaGetDeviceProperties(&prop, device), "cudaGetDeviceProperties",
					errbuf, errlen) &&
		gl_cuda_ok(cudaSetDevice(device), "cudaSetDevice", errbuf, errlen) &&
		gl_cuda_ok(cudaMemGetInfo(&memory->free_memory, &memory->total_memory),
				   "cudaMemGetInfo", errbuf, errlen);
	if (ok)
		snprintf(memory->name, sizeof(memory->name), "%s", prop.name);
	cudaSetDevice(current);
	return ok;
}

/*
 * Replace the device array *array by a zeroed one of new_bytes that begins
 * with its first used_bytes; what names the array in errors.
 */
static bool
grow_array(void **array, uint64_t used_bytes, uint64_t new_bytes, const char *what,
		   char *errbuf, size_t errlen)
{
	void	   *grown;
	char		step[80];

	snprintf(step, sizeof(step), "cudaMalloc (%s)", what);
	if (!gl_cuda_ok(cudaMalloc(&grown, new_bytes), step, errbuf, errlen))
		return false;
	snprintf(step, sizeof(step), "growing the %s", what);
	if (!gl_cuda_ok(cudaMemset(grown, 0, new_bytes), step, errbuf, errlen) ||
		(used_bytes > 0 &&
		 !gl_cuda_ok(cudaMemcpy(grown, *array, used_bytes, cudaMemcpyDeviceToDevice), step,
					 errbuf, errlen)))
	{
		cudaFree(grown);
		return false;
	}
	cudaFree(*array);
	*array = grown;
	return true;
}

/*
 * Make room for nbytes of stream (plus the zero tail) and nrows rows.
 * Growth is geometric so a stream of small appends costs O(n) copying.
 */
static bool
reserve(GlDeviceColumn *dcol, uint64_t nbytes, uint64_t nrows,
		char *errbuf, size_t errlen)
{
	uint64_t	need_bytes = gl_round_up(nbytes, GL_DEV_CHUNK_BYTES) + GL_DEV_TAIL_PAD;
	uint64_t	need_chunks = gl_round_up(nbytes, GL_DEV_CHUNK_BYTES) / GL_DEV_CHUNK_BYTES;

	if (need_bytes > dcol->capacity_bytes)
	{
		uint64_t	cap = dcol->capacity_bytes + dcol->capacity_bytes / 4;

		cap = gl_round_up(cap > need_bytes ? cap : need_bytes, GL_DEV_CHUNK_BYTES);
		if (!grow_array((void **) &dcol->data, dcol->nbytes, cap, "column data", errbuf, errlen))
			return false;
		dcol->capacity_bytes = cap;
	}
	if (need_chunks > dcol->capacity_chunks)
	{
		uint64_t	cap = dcol->capacity_chunks + dcol->capacity_chunks / 4;

		cap = cap > need_chunks ? cap : need_chunks;
		if (!grow_array((void **) &dcol->chunks, dcol->nchunks * sizeof(GlChunkIndex),
						cap * sizeof(GlChunkIndex), "chunk index", errbuf, errlen))
			return false;
		dcol->capacity_chunks = cap;
	}
	if (nrows > dcol->capacity_rows)
	{
		uint64_t	cap = gl_round_up(nrows + dcol->capacity_rows / 4, 64);

		if (!grow_array((void **) &dcol->nulls, dcol->capacity_rows / 8, cap / 8, "null bitmap",
						errbuf, errlen))
			return false;
		dcol->capacity_rows = cap;
	}
	return true;
}

/* Staging for one append: packed value bytes and the new chunk entries. */
typedef struct Packer
{
	GlDeviceColumn *dcol;
	char	   *buf;
	uint64_t	buf_start;		/* stream offset of buf[0] */
	uint64_t	buf_used;
	GlChunkIndex *chunks;		/* entries for chunks first_chunk.. */
	uint64_t	first_chunk;
	char	   *errbuf;
	size_t		errlen;
} Packer;

static bool
packer_flush(Packer *pk)
{
	bool		ok = true;

	if (pk->buf_used > 0)
		ok = gl_cuda_ok(cudaMemcpy(pk->dcol->data + pk->buf_start, pk->buf, pk->buf_used,
								   cudaMemcpyHostToDevice),
						"cudaMemcpy (column upload)", pk->errbuf, pk->errlen);
	pk->buf_start += pk->buf_used;
	pk->buf_used = 0;
	return ok;
}

/* Place one value (NULL rows have len 0) at stream offset pk->buf_start + used. */
static bool
packer_add(Packer *pk, const char *value, uint32_t len)
{
	uint64_t	span = (uint64_t) len + 1;	/* the separator */

	if (pk->buf_used + span > STAGING_BYTES && !packer_flush(pk))
		return false;
	if (span > STAGING_BYTES)
	{
		/* A huge value goes straight from the host column. */
		if (!gl_cuda_ok(cudaMemcpy(pk->dcol->data + pk->buf_start, value, len,
								   cudaMemcpyHostToDevice),
						"cudaMemcpy (long value upload)", pk->errbuf, pk->errlen))
			return false;
		pk->buf_start += span;
		return true;
	}
	memcpy(pk->buf + pk->buf_used, value, len);
	pk->buf[pk->buf_used + len] = '\0';
	pk->buf_used += span;
	return true;
}

/* Index entries for every chunk border inside [start, start + span). */
static void
index_row(Packer *pk, uint64_t row, uint64_t start, uint64_t span)
{
	uint64_t	c = gl_round_up(start, GL_DEV_CHUNK_BYTES) / GL_DEV_CHUNK_BYTES;

	for (; c * GL_DEV_CHUNK_BYTES < start + span; c++)
	{
		GlChunkIndex *entry = &pk->chunks[c - pk->first_chunk];

		entry->row = (uint32_t) row;
		entry->back = (uint32_t) (c * GL_DEV_CHUNK_BYTES - start);
	}
}

/*
 * The zero bytes before each word of chunks [first, last), written into
 * their index entries.  A thread counts one 32-byte word; the eight words
 * of a chunk are eight neighbouring lanes, which sum their counts with
 * shuffles.
 */
__global__ static void
index_zero_bytes_kernel(const uint8_t *__restrict__ data, GlChunkIndex *chunks,
						uint64_t first, uint64_t last)
{
	uint64_t	word = first * GL_DEV_CHUNK_WORDS + blockIdx.x * (uint64_t) blockDim.x +
		threadIdx.x;
	bool		inside = word < last * GL_DEV_CHUNK_WORDS;
	uint32_t	zeros = 0;
	uint32_t	before;

	if (inside)
	{
		const uint4 *w = reinterpret_cast<const uint4 *>(data + word * 32);
		uint4		a = w[0];
		uint4		b = w[1];
		uint32_t	parts[8] = {a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w};

		for (int i = 0; i < 8; i++)
			zeros += __popc(gl_zero_byte_flags(parts[i]));
	}
	before = gl_warp_inclusive_sum<GL_DEV_CHUNK_WORDS>(zeros) - zeros;
	if (inside)
		chunks[word / GL_DEV_CHUNK_WORDS].zeros_before[word % GL_DEV_CHUNK_WORDS] = before;
}

static bool
index_zero_bytes(GlDeviceColumn *part, uint64_t first, uint64_t last, char *errbuf,
				 size_t errlen)
{
	uint64_t	threads = (last - first) * GL_DEV_CHUNK_WORDS;

	if (last <= first)
		return true;
	index_zero_bytes_kernel<<<(unsigned) ((threads + 255) / 256), 256>>>
		(part->data, part->chunks, first, last);
	return gl_cuda_ok(cudaGetLastError(), "launching the chunk index count", errbuf, errlen) &&
		gl_cuda_ok(cudaStreamSynchronize(0), "counting the chunk index's zero bytes", errbuf,
				   errlen);
}

/*
 * Append rows [from, to) of col to part, whose row 0 is col's row
 * part->first_row (a multiple of 64, so NULL bitmap words line up).
 */
static bool
append_rows(GlDeviceColumn *part, const GlColumn *col, uint64_t from, uint64_t to,
			char *errbuf, size_t errlen)
{
	uint64_t	base = part->first_row;
	Packer		pk;
	uint64_t	add_bytes = 0;
	uint64_t	add_raw;
	uint64_t	new_nbytes;
	uint64_t	new_nchunks;
	uint64_t	first_word;
	uint64_t	row;
	uint64_t	stream_pos;
	bool		ok = true;

	if (from != base + part->nrows || from > to || to > col->nrows)
		return gl_cuda_fail("gl_cuda_append: rows must continue where the device column ends",
							errbuf, errlen);
	if (to - base > GL_DEV_MAX_ROWS)
		return gl_cuda_fail("column has too many rows for the GPU engine", errbuf, errlen);
	if (from == to)
		return true;
	if (!gl_cuda_ok(cudaSetDevice(part->device), "cudaSetDevice", errbuf, errlen))
		return false;

	add_raw = gl_column_offset(col, to) - gl_column_offset(col, from);
	add_bytes = add_raw + (to - from);
	new_nbytes = part->nbytes + add_bytes;
	new_nchunks = gl_round_up(new_nbytes, GL_DEV_CHUNK_BYTES) / GL_DEV_CHUNK_BYTES;
	if (!reserve(part, new_nbytes, to - base, errbuf, errlen))
		return false;

	memset(&pk, 0, sizeof(pk));
	pk.dcol = part;
	pk.errbuf = errbuf;
	pk.errlen = errlen;
	pk.buf_start = part->nbytes;
	pk.first_chunk = gl_round_up(part->nbytes, GL_DEV_CHUNK_BYTES) / GL_DEV_CHUNK_BYTES;
	pk.buf = (char *) malloc(STAGING_BYTES);
	pk.chunks = (GlChunkIndex *) calloc(new_nchunks - pk.first_chunk + 1, sizeof(GlChunkIndex));
	if (pk.buf == NULL || pk.chunks == NULL)
	{
		free(pk.buf);
		free(pk.chunks);
		return gl_cuda_fail("out of host memory staging a column upload", errbuf, errlen);
	}

	stream_pos = part->nbytes;
	for (row = from; ok && row < to; row++)
	{
		uint32_t	len;
		const char *value = gl_column_value(col, row, &len);

		if (memchr(value, '\0', len) != NULL)
		{
			ok = gl_cuda_fail("value contains a NUL byte", errbuf, errlen);
			break;
		}
		index_row(&pk, row - base, stream_pos, (uint64_t) len + 1);
		ok = packer_add(&pk, value, len);
		stream_pos += (uint64_t) len + 1;
	}
	if (ok)
		ok = packer_flush(&pk);
	if (ok && new_nchunks > pk.first_chunk)
		ok = gl_cuda_ok(cudaMemcpy(part->chunks + pk.first_chunk, pk.chunks,
								   (new_nchunks - pk.first_chunk) * sizeof(GlChunkIndex),
								   cudaMemcpyHostToDevice),
						"cudaMemcpy (chunk index)", errbuf, errlen);
	/* from the chunk holding the old end, whose bytes after it are new */
	if (ok)
		ok = index_zero_bytes(part, part->nbytes / GL_DEV_CHUNK_BYTES, new_nchunks, errbuf,
							  errlen);
	/*
	 * NULL flags: whole host words from the one holding from on (a part
	 * other than the last ends on a word border).
	 */
	first_word = from / 64;
	if (ok)
		ok = gl_cuda_ok(cudaMemcpy(part->nulls + (first_word - base / 64) * 2,
								   col->nulls + first_word,
								   (gl_bitmap_words(to) - first_word) * sizeof(uint64_t),
								   cudaMemcpyHostToDevice),
						"cudaMemcpy (null bitmap)", errbuf, errlen);
	free(pk.buf);
	free(pk.chunks);
	if (!ok)
	{
		char		ignored[8];

		/*
		 * Bytes past the old end may be dirty now: restore the zero tail,
		 * and the counts of the chunk holding the old end.
		 */
		cudaMemset(part->data + part->nbytes, 0, part->capacity_bytes - part->nbytes);
		index_zero_bytes(part, part->nbytes / GL_DEV_CHUNK_BYTES, part->nchunks, ignored,
						 sizeof(ignored));
		return false;
	}
	part->nrows = to - base;
	part->nbytes = new_nbytes;
	part->nchunks = new_nchunks;
	return true;
}

/* Delta rows go to the last part. */
bool
gl_cuda_append(GlDeviceColumn *dcol, const GlColumn *col, uint64_t first_row,
			   char *errbuf, size_t errlen)
{
	while (dcol->next != NULL)
		dcol = dcol->next;
	return append_rows(dcol, col, first_row, col->nrows, errbuf, errlen);
}

/*
 * Where part k of nparts begins: the first row whose stream position
 * reaches k / nparts of the stream, rounded up to a multiple of 64 rows.
 */
static uint64_t
part_start(const GlColumn *col, int k, int nparts)
{
	uint64_t	total = gl_column_offset(col, col->nrows) + col->nrows;
	uint64_t	target = total / nparts * k;
	uint64_t	lo = 0,
				hi = col->nrows;

	if (k == 0)
		return 0;
	while (lo < hi)
	{
		uint64_t	mid = lo + (hi - lo) / 2;

		if (gl_column_offset(col, mid) + mid < target)
			lo = mid + 1;
		else
			hi = mid;
	}
	lo = gl_round_up(lo, 64);
	return lo < col->nrows ? lo : col->nrows;
}

GlDeviceColumn *
gl_cuda_upload(const GlColumn *col, int nparts, int first_device, char *errbuf,
			   size_t errlen)
{
	GlDeviceColumn *head = NULL;
	GlDeviceColumn **link = &head;
	int			ndevices;
	int			current;

	if (!gl_cuda_ok(cudaGetDeviceCount(&ndevices), "cudaGetDeviceCount", errbuf, errlen) ||
		!gl_cuda_ok(cudaGetDevice(&current), "cudaGetDevice", errbuf, errlen))
		return NULL;
	if (nparts < 1)
		nparts = 1;
	for (int k = 0; k < nparts; k++)
	{
		GlDeviceColumn *part = (GlDeviceColumn *) calloc(1, sizeof(GlDeviceColumn));
		uint64_t	from = part_start(col, k, nparts);
		uint64_t	to = part_start(col, k + 1, nparts);

		if (k + 1 == nparts)
			to = col->nrows;
		if (part == NULL)
		{
			gl_cuda_fail("out of host memory", errbuf, errlen);
			gl_cuda_free(head);
			return NULL;
		}
		*link = part;
		link = &part->next;
		part->device = (first_device + k) % ndevices;
		part->first_row = from;
		if (!append_rows(part, col, from, to, errbuf, errlen))
		{
			gl_cuda_free(head);
			cudaSetDevice(current);
			return NULL;
		}
	}
	cudaSetDevice(current);
	head->pairs = gl_count_byte_pairs(col);
	return head;
}

static size_t
part_bytes(const GlDeviceColumn *part)
{
	return part->capacity_bytes + part->capacity_chunks * sizeof(GlChunkIndex) +
		part->capacity_rows / 8 + part->counting.capacity;
}

int
gl_cuda_parts(const GlDeviceColumn *dcol, GlCudaPart *parts, int max)
{
	int			n = 0;

	for (; dcol != NULL; dcol = dcol->next, n++)
		if (n < max)
		{
			parts[n].device = dcol->device;
			parts[n].first_row = dcol->first_row;
			parts[n].nrows = dcol->nrows;
			parts[n].bytes = part_bytes(dcol);
		}
	return n;
}

size_t
gl_cuda_device_bytes(const GlDeviceColumn *dcol)
{
	size_t		bytes = 0;

	for (; dcol != NULL; dcol = dcol->next)
		bytes += part_bytes(dcol);
	return bytes;
}

void
gl_cuda_free(GlDeviceColumn *dcol)
{
	while (dcol != NULL)
	{
		GlDeviceColumn *next = dcol->next;

		cudaSetDevice(dcol->device);
		cudaFree(dcol->data);
		cudaFree(dcol->chunks);
		cudaFree(dcol->nulls);
		cudaFree(dcol->counting.memory);
		for (GlMatchResources *r : dcol->match)
		{
			if (r == NULL)
				continue;
			cudaStreamDestroy(r->stream);
			cudaEventDestroy(r->start);
			cudaEventDestroy(r->stop);
			cudaFree(r->scratch);
			cudaFreeHost(r->host_result);
			cudaFreeHost(r->host_listing);
			free(r);
		}
		free(dcol->pairs);
		gl_prepared_cache_free(dcol->programs);
		free(dcol);
		dcol = next;
	}
}
