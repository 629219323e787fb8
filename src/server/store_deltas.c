/*-------------------------------------------------------------------------
 *
 * store_deltas.c
 *	  The queue of changes to a column being loaded (see store_deltas.h).
 *
 * Plain malloc, like the column itself: the queue lives in the server's
 * main thread between a load's first and last message, and its bytes count
 * towards gpulike.host_memory like the column's (store.c).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "server/store_deltas.h"

/* One queued change; a new version's value bytes follow. */
typedef struct DeferredEntry
{
	GlTid		tid;
	uint32		len;
	uint8		kind;			/* GlDeltaKind */
	bool		isnull;
} DeferredEntry;

static size_t
entry_bytes(uint32 len)
{
	return TYPEALIGN(8, sizeof(DeferredEntry) + len);
}

bool
gl_deferred_add(GlDeferredDeltas *deltas, const GlDeltaRow *row)
{
	uint32		len = row->kind == GL_DELTA_VERSION && !row->isnull ? row->len : 0;
	size_t		needed = deltas->used + entry_bytes(len);
	DeferredEntry entry;

	if (needed > deltas->capacity)
	{
		size_t		capacity = Max(deltas->capacity * 2, 65536);
		char	   *data;

		while (capacity < needed)
			capacity *= 2;
		data = realloc(deltas->data, capacity);
		if (data == NULL)
			return false;
		deltas->data = data;
		deltas->capacity = capacity;
	}
	memset(&entry, 0, sizeof(entry));
	entry.tid = row->tid;
	entry.len = len;
	entry.kind = (uint8) row->kind;
	entry.isnull = row->isnull;
	memcpy(deltas->data + deltas->used, &entry, sizeof(entry));
	if (len > 0)
		memcpy(deltas->data + deltas->used + sizeof(entry), row->value, len);
	deltas->used = needed;
	return true;
}

/*
 * A new version is appended as not known live (its writer may yet abort),
 * superseding the row its TID had, scanned or queued; an ended tuple stops
 * being known live.  Exactly what the server does with changes to a
 * serving column (store.c).
 */
bool
gl_deferred_replay(const GlDeferredDeltas *deltas, GlColumn *col)
{
	size_t		pos = 0;

	while (pos < deltas->used)
	{
		DeferredEntry entry;

		memcpy(&entry, deltas->data + pos, sizeof(entry));
		if (entry.kind == GL_DELTA_ENDED)
			gl_column_mark_ended(col, entry.tid);
		else if (!gl_column_append(col, entry.tid,
								   deltas->data + pos + sizeof(entry), entry.len,
								   entry.isnull ? GL_ROW_IS_NULL : 0))
			return false;
		pos += entry_bytes(entry.len);
	}
	return true;
}

size_t
gl_deferred_bytes(const GlDeferredDeltas *deltas)
{
	return deltas->capacity;
}

void
gl_deferred_free(GlDeferredDeltas *deltas)
{
	free(deltas->data);
	memset(deltas, 0, sizeof(*deltas));
}
