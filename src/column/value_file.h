/*-------------------------------------------------------------------------
 *
 * value_file.h
 *	  A column's values in a file instead of in memory (a leaf, like
 *	  column.h; column.c is its one user).
 *
 * A cached column's host copy is mostly its values (a 60 GB column: 60
 * GB of values beside about 9 of offsets, TIDs and bitmaps), and the
 * server reads them only to upload the device copy and when the CPU
 * engine answers.  Where gpulike.values_directory names a directory, a
 * load's values go to a file created there, mapped into the server's
 * address space shared: the kernel writes them back and drops them from
 * memory under pressure instead of the host having to hold them, and
 * the values are still one contiguous range, so no reader changes.
 *
 * The file has no name: it is created with O_TMPFILE, or, where the file
 * system does not support that, created and unlinked at once, so nothing
 * is left behind by a crash (but a file between the two steps).  It grows
 * by posix_fallocate() before the mapping does (mremap()), so that a full
 * disk fails the growth with ENOSPC -- and the append that asked for it,
 * as when memory runs out -- instead of raising SIGBUS at a later write
 * into a page the file system cannot back.
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_VALUE_FILE_H
#define GPULIKE_VALUE_FILE_H

#include <stdbool.h>
#include <stdint.h>

/*
 * A new file in directory, mapped at bytes (more than 0): its descriptor
 * in *fd and the mapping in *data.  False, errno set, on failure.
 */
extern bool gl_value_file_create(const char *directory, uint64_t bytes, int *fd,
								 char **data);

/*
 * Resize the file and its mapping from old_bytes to new_bytes (both more
 * than 0); *data may move.  False, errno set, leaves both as they were.
 */
extern bool gl_value_file_resize(int fd, char **data, uint64_t old_bytes,
								 uint64_t new_bytes);

/* Unmap and close. */
extern void gl_value_file_close(int fd, char *data, uint64_t bytes);

#endif							/* GPULIKE_VALUE_FILE_H */
