/*-------------------------------------------------------------------------
 *
 * deferred.c
 *	  The queue of changes to a column being loaded (see deferred.h).
 *
 * Plain malloc, like the column itself: the queue lives in the server's
 * main thread between a load's first and last message, and its bytes
 * count towards gpulike.host_memory like the column's.
 *
 *-------------------------------------------------------------------------
 */
#include <stdlib.h>
#include <string.h>

#include "column/deferred.h"

/* One queued change; a new version's value bytes follow. */
typedef struct DeferredEntry
{
	GlTid		tid;
	uint32_t	len;
	bool		ended;
	bool		isnull;
} DeferredEntry;

static size_t
entry_bytes(uint32_t len)
{
	return (sizeof(DeferredEntry) + len + 7) & ~(size_t) 7;
}

static bool
add_entry(GlDeferred *deferred, const DeferredEntry *entry, const char *value)
{
	size_t		needed = deferred->used + entry_bytes(entry->len);

	if (needed > deferred->capacity)
	{
		size_t		capacity = deferred->capacity > 0 ? 2 * deferred->capacity : 65536;
		char	   *data;

		while (capacity < needed)
			capacity *= 2;
		data = realloc(deferred->data, capacity);
		if (data == NULL)
			return false;
		deferred->data = data;
		deferred->capacity = capacity;
	}
	memcpy(deferred->data + deferred->used, entry, sizeof(DeferredEntry));
	if (entry->len > 0)
		memcpy(deferred->data + deferred->used + sizeof(DeferredEntry), value,
			   entry->len);
	deferred->used = needed;
	return true;
}

bool
gl_deferred_add_version(GlDeferred *deferred, GlTid tid, const char *value,
						uint32_t len, bool isnull)
{
	DeferredEntry entry;

	memset(&entry, 0, sizeof(entry));
	entry.tid = tid;
	entry.len = isnull ? 0 : len;
	entry.isnull = isnull;
	return add_entry(deferred, &entry, value);
}

bool
gl_deferred_add_ended(GlDeferred *deferred, GlTid tid)
{
	DeferredEntry entry;

	memset(&entry, 0, sizeof(entry));
	entry.tid = tid;
	entry.ended = true;
	return add_entry(deferred, &entry, NULL);
}

bool
gl_deferred_replay(const GlDeferred *deferred, GlColumn *col)
{
	size_t		pos = 0;

	while (pos < deferred->used)
	{
		DeferredEntry entry;

		memcpy(&entry, deferred->data + pos, sizeof(entry));
		if (entry.ended)
			gl_column_mark_ended(col, entry.tid);
		else if (!gl_column_append(col, entry.tid,
								   deferred->data + pos + sizeof(entry), entry.len,
								   entry.isnull ? GL_ROW_IS_NULL : 0))
			return false;
		pos += entry_bytes(entry.len);
	}
	return true;
}

size_t
gl_deferred_bytes(const GlDeferred *deferred)
{
	return deferred->capacity;
}

void
gl_deferred_free(GlDeferred *deferred)
{
	free(deferred->data);
	memset(deferred, 0, sizeof(*deferred));
}
