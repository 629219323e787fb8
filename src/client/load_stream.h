/*-------------------------------------------------------------------------
 *
 * load_stream.h
 *	  Backend side of loading a column into the gpulike server.
 *
 * The loader (src/cache/) scans the heap in the backend (only a backend can
 * read a relation) and streams (TID, value) rows to the server, which appends
 * them to a new GlColumn for that registry slot and generation.  Rows go in
 * large batched messages over one shm_mq; gl_load_end() returns once the
 * server has the whole column in place (and, with a GPU, uploaded), or
 * false, with the reason, when the registry gave the load up meanwhile
 * (the table changed in a way no copy follows).  Any error (server gone,
 * budget or quota exceeded, out of memory on its side) is ereport(ERROR)ed
 * with a clear message; the server discards a half-loaded column.
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_LOAD_STREAM_H
#define GPULIKE_LOAD_STREAM_H

#include "storage/itemptr.h"

typedef struct GlLoadStream GlLoadStream;

/* byte_limit: host bytes the column may take (0: any) */
extern GlLoadStream *gl_load_begin(int slot, uint64 generation,
								   uint64 rows_hint, uint64 bytes_hint,
								   uint64 byte_limit);
/* flags: GL_ROW_IS_NULL, GL_ROW_KNOWN_LIVE, GL_ROW_ENDING (column.h) */
extern void gl_load_row(GlLoadStream *stream, ItemPointer tid,
						const char *value, uint32 len, uint32 flags);
extern bool gl_load_end(GlLoadStream *stream, const char **why_not);

#endif							/* GPULIKE_LOAD_STREAM_H */
