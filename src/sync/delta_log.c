/*-------------------------------------------------------------------------
 *
 * delta_log.c
 *	  The shared-memory log of row changes of cached relations.
 *
 * A byte ring buffer of gpulike.delta_log_size bytes.  Each entry is a
 * fixed header (slot, generation, TID, kind, length, NULL flag) followed,
 * for a new tuple version, by the value bytes inline, padded to 8 bytes; an
 * entry may wrap around the end of the buffer (it is copied in two pieces).  Positions `head` (next byte
 * to write) and `tail` (oldest byte not yet drained) only ever grow; a
 * position's place in the buffer is position % size, and head - tail is
 * the number of bytes in use.
 *
 * Writers (the sync trigger, in any backend) append under the log lock.
 * When an entry does not fit, the writer does not wait: it reports failure
 * and the trigger marks the relation's caches stale, so nothing is lost
 * (the cache will be rebuilt from the heap) and no writer ever blocks on
 * the server.
 *
 * The drainer (the server, before it answers a request) reads `head` under
 * the lock, then applies entries tail..head WITHOUT holding the log lock:
 * writers only write into free space, and that range stays in use until
 * the drainer advances `tail` afterwards, so nobody overwrites it.  A
 * second lock serialises drainers.  If the apply callback raises an error
 * half way, tail is not advanced and the same entries are applied again by
 * the next drain, in the same order: a version applied twice supersedes
 * its own first copy, and a tuple marked ended twice stays ended, so a
 * duplicate costs space, never correctness.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "miscadmin.h"
#include "storage/ipc.h"
#include "storage/lwlock.h"
#include "storage/shmem.h"
#include "utils/memutils.h"

#include "registry/registry.h"
#include "settings.h"
#include "sync/delta_log.h"

#define GL_DELTA_TRANCHE "gpulike delta log"

/* Header of one entry in the ring; the value bytes follow. */
typedef struct GlDeltaHeader
{
	uint32		entry_bytes;	/* header + value, padded to 8 */
	int32		slot;
	uint64		generation;
	GlTid		tid;
	uint32		len;
	uint8		kind;			/* GlDeltaKind */
	bool		isnull;
} GlDeltaHeader;

#define DELTA_ENTRY_BYTES(len) \
	TYPEALIGN(8, sizeof(GlDeltaHeader) + (len))

typedef struct GlDeltaLogShared
{
	uint64		size;			/* bytes in ring */
	uint64		head;			/* under the log lock */
	uint64		tail;			/* under the log lock */
	pg_atomic_uint64 slot_pending[GL_REGISTRY_SLOTS];
	char		ring[FLEXIBLE_ARRAY_MEMBER];
} GlDeltaLogShared;

static GlDeltaLogShared *delta_log = NULL;
static LWLock *log_lock = NULL;		/* head, tail, ring writes */
static LWLock *drain_lock = NULL;	/* one drainer at a time */

static shmem_request_hook_type prev_shmem_request_hook = NULL;
static shmem_startup_hook_type prev_shmem_startup_hook = NULL;

static uint64
ring_bytes(void)
{
	return TYPEALIGN(8, (uint64) gl_delta_log_kb * 1024);
}

static Size
delta_log_shmem_size(void)
{
	return add_size(offsetof(GlDeltaLogShared, ring), ring_bytes());
}

static void
delta_log_shmem_request(void)
{
	if (prev_shmem_request_hook)
		prev_shmem_request_hook();
	RequestAddinShmemSpace(delta_log_shmem_size());
	RequestNamedLWLockTranche(GL_DELTA_TRANCHE, 2);
}

static void
delta_log_shmem_startup(void)
{
	bool		found;
	LWLockPadded *locks;

	if (prev_shmem_startup_hook)
		prev_shmem_startup_hook();

	LWLockAcquire(AddinShmemInitLock, LW_EXCLUSIVE);
	delta_log = ShmemInitStruct("gpulike delta log",
								delta_log_shmem_size(), &found);
	locks = GetNamedLWLockTranche(GL_DELTA_TRANCHE);
	log_lock = &locks[0].lock;
	drain_lock = &locks[1].lock;
	if (!found)
	{
		delta_log->size = ring_bytes();
		delta_log->head = 0;
		delta_log->tail = 0;
		for (int i = 0; i < GL_REGISTRY_SLOTS; i++)
			pg_atomic_init_u64(&delta_log->slot_pending[i], 0);
	}
	LWLockRelease(AddinShmemInitLock);
}

/*
 * Since PostgreSQL 15 shared memory and LWLock tranches may only be
 * requested from shmem_request_hook, and attached from shmem_startup_hook;
 * both are chained.
 */
void
gl_delta_log_shmem_register(void)
{
	prev_shmem_request_hook = shmem_request_hook;
	shmem_request_hook = delta_log_shmem_request;
	prev_shmem_startup_hook = shmem_startup_hook;
	shmem_startup_hook = delta_log_shmem_startup;
}

/* Copy n bytes into the ring at position pos, wrapping at the end. */
static void
ring_write(uint64 pos, const void *src, uint64 n)
{
	uint64		at = pos % delta_log->size;
	uint64		first = Min(n, delta_log->size - at);

	memcpy(delta_log->ring + at, src, first);
	if (first < n)
		memcpy(delta_log->ring, (const char *) src + first, n - first);
}

/* Copy n bytes out of the ring at position pos, wrapping at the end. */
static void
ring_read(uint64 pos, void *dst, uint64 n)
{
	uint64		at = pos % delta_log->size;
	uint64		first = Min(n, delta_log->size - at);

	memcpy(dst, delta_log->ring + at, first);
	if (first < n)
		memcpy((char *) dst + first, delta_log->ring, n - first);
}

/* Value bytes an entry carries. */
static uint32
entry_value_len(const GlDeltaRow *row)
{
	return row->kind == GL_DELTA_VERSION && !row->isnull ? row->len : 0;
}

bool
gl_delta_log_append(const GlDeltaRow *rows, int nrows)
{
	uint64		needed = 0;
	bool		fits;

	if (delta_log == NULL)
		return false;
	for (int i = 0; i < nrows; i++)
		needed += DELTA_ENTRY_BYTES(entry_value_len(&rows[i]));

	LWLockAcquire(log_lock, LW_EXCLUSIVE);
	fits = needed <= delta_log->size - (delta_log->head - delta_log->tail);
	if (fits)
	{
		for (int i = 0; i < nrows; i++)
		{
			const GlDeltaRow *row = &rows[i];
			uint32		len = entry_value_len(row);
			GlDeltaHeader header;

			memset(&header, 0, sizeof(header));
			header.entry_bytes = DELTA_ENTRY_BYTES(len);
			header.slot = row->slot;
			header.generation = row->generation;
			header.tid = row->tid;
			header.len = len;
			header.kind = (uint8) row->kind;
			header.isnull = row->isnull;
			ring_write(delta_log->head, &header, sizeof(header));
			if (len > 0)
				ring_write(delta_log->head + sizeof(header), row->value, len);
			delta_log->head += header.entry_bytes;
			pg_atomic_fetch_add_u64(&delta_log->slot_pending[row->slot], 1);
		}
	}
	LWLockRelease(log_lock);
	return fits;
}

/*
 * The drainer's copy of one value (values may wrap around the ring end, and
 * the apply callback wants contiguous bytes).  Kept for the life of the
 * process: the server drains before every request.
 */
static char *value_buffer = NULL;
static uint32 value_buffer_size = 0;

static void
value_buffer_reserve(uint32 len)
{
	if (len <= value_buffer_size)
		return;
	len = Max(len, 2 * value_buffer_size);
	if (value_buffer)
		pfree(value_buffer);
	/* forget the old buffer first: the allocation below may fail */
	value_buffer = NULL;
	value_buffer_size = 0;
	/* huge: doubling a buffer for values of up to 1 GB can pass MaxAllocSize */
	value_buffer = MemoryContextAllocHuge(TopMemoryContext, len);
	value_buffer_size = len;
}

/*
 * Runs in the server's main thread (it may allocate); entries are applied
 * oldest first.
 */
void
gl_delta_log_drain(GlDeltaApply apply, void *arg)
{
	uint64		start;
	uint64		end;
	uint64		pos;

	if (delta_log == NULL)
		return;

	LWLockAcquire(drain_lock, LW_EXCLUSIVE);
	LWLockAcquire(log_lock, LW_SHARED);
	start = delta_log->tail;
	end = delta_log->head;
	LWLockRelease(log_lock);

	for (pos = start; pos < end;)
	{
		GlDeltaHeader header;
		GlDeltaRow	row;

		ring_read(pos, &header, sizeof(header));
		if (header.len > 0)
		{
			value_buffer_reserve(header.len);
			ring_read(pos + sizeof(header), value_buffer, header.len);
		}
		row.kind = (GlDeltaKind) header.kind;
		row.slot = header.slot;
		row.generation = header.generation;
		row.tid = header.tid;
		row.value = header.len > 0 ? value_buffer : "";
		row.len = header.len;
		row.isnull = header.isnull;
		apply(&row, arg);
		pos += header.entry_bytes;
	}

	if (end > start)
	{
		/* count down per slot only now that the entries are applied */
		for (pos = start; pos < end;)
		{
			GlDeltaHeader header;

			ring_read(pos, &header, sizeof(header));
			pg_atomic_fetch_sub_u64(&delta_log->slot_pending[header.slot], 1);
			pos += header.entry_bytes;
		}
		LWLockAcquire(log_lock, LW_EXCLUSIVE);
		delta_log->tail = end;
		LWLockRelease(log_lock);
	}
	LWLockRelease(drain_lock);
}

uint64
gl_delta_log_pending_slot(int slot)
{
	if (delta_log == NULL || slot < 0 || slot >= GL_REGISTRY_SLOTS)
		return 0;
	return pg_atomic_read_u64(&delta_log->slot_pending[slot]);
}
