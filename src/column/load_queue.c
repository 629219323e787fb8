/*-------------------------------------------------------------------------
 *
 * load_queue.c
 *	  The queue of changes to a column being loaded (see load_queue.h).
 *
 * Plain malloc, like the column itself: the queue lives in the server's
 * main thread between a load's first and last message, and its bytes
 * count towards gpulike.host_memory like the column's.
 *
 *-------------------------------------------------------------------------
 */
#include <stdlib.h>
#include <string.h>

#include "column/load_queue.h"

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
add_entry(GlLoadQueue *queue, const DeferredEntry *entry, const char *value)
{
	size_t		needed = queue->used + entry_bytes(entry->len);

	if (needed > queue->capacity)
	{
		size_t		capacity = queue->capacity > 0 ? 2 * queue->capacity : 65536;
		char	   *data;

		while (capacity < needed)
			capacity *= 2;
		data = realloc(queue->data, capacity);
		if (data == NULL)
			return false;
		queue->data = data;
		queue->capacity = capacity;
	}
	memcpy(queue->data + queue->used, entry, sizeof(DeferredEntry));
	if (entry->len > 0)
		memcpy(queue->data + queue->used + sizeof(DeferredEntry), value,
			   entry->len);
	queue->used = needed;
	return true;
}

bool
gl_load_queue_add_version(GlLoadQueue *queue, GlTid tid, const char *value,
						uint32_t len, bool isnull)
{
	DeferredEntry entry;

	memset(&entry, 0, sizeof(entry));
	entry.tid = tid;
	entry.len = isnull ? 0 : len;
	entry.isnull = isnull;
	return add_entry(queue, &entry, value);
}

bool
gl_load_queue_add_ended(GlLoadQueue *queue, GlTid tid)
{
	DeferredEntry entry;

	memset(&entry, 0, sizeof(entry));
	entry.tid = tid;
	entry.ended = true;
	return add_entry(queue, &entry, NULL);
}

bool
gl_load_queue_replay(const GlLoadQueue *queue, GlColumn *col)
{
	size_t		pos = 0;

	while (pos < queue->used)
	{
		DeferredEntry entry;

		memcpy(&entry, queue->data + pos, sizeof(entry));
		if (entry.ended)
			gl_column_mark_ended(col, entry.tid);
		else if (!gl_column_append(col, entry.tid,
								   queue->data + pos + sizeof(entry), entry.len,
								   entry.isnull ? GL_ROW_IS_NULL : 0))
			return false;
		pos += entry_bytes(entry.len);
	}
	return true;
}

size_t
gl_load_queue_bytes(const GlLoadQueue *queue)
{
	return queue->capacity;
}

void
gl_load_queue_free(GlLoadQueue *queue)
{
	free(queue->data);
	memset(queue, 0, sizeof(*queue));
}
