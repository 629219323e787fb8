/*-------------------------------------------------------------------------
 *
 * value_file.c
 *	  A column's values in an unnamed, mapped file (see value_file.h).
 *
 *-------------------------------------------------------------------------
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE				/* O_TMPFILE, mremap() */
#endif

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "column/value_file.h"

/* A file in directory that has no name; -1, errno set, on failure. */
static int
open_unnamed(const char *directory)
{
	char	   *path;
	int			fd;
	int			saved;

	fd = open(directory, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd >= 0 || (errno != EOPNOTSUPP && errno != EISDIR))
		return fd;

	/* a file system without O_TMPFILE: a name for a moment */
	if (asprintf(&path, "%s/gpulike-values-XXXXXX", directory) < 0)
		return -1;
	fd = mkostemp(path, O_CLOEXEC);
	saved = errno;
	if (fd >= 0 && unlink(path) != 0)
	{
		saved = errno;
		close(fd);
		fd = -1;
	}
	free(path);
	errno = saved;
	return fd;
}

/* Make the file new_bytes long, its blocks allocated; errno set on failure. */
static bool
extend(int fd, uint64_t old_bytes, uint64_t new_bytes)
{
	int			rc = posix_fallocate(fd, (off_t) old_bytes, (off_t) (new_bytes - old_bytes));

	if (rc != 0)
	{
		errno = rc;
		return false;
	}
	return true;
}

/*
 * Shorten the file to bytes.  A failure is left alone: a file longer than
 * its mapping wastes disk, nothing else, and goes with its descriptor.
 */
static void
truncate_to(int fd, uint64_t bytes)
{
	if (ftruncate(fd, (off_t) bytes) != 0)
		return;
}

bool
gl_value_file_create(const char *directory, uint64_t bytes, int *fd, char **data)
{
	void	   *p;
	int			saved;

	*fd = open_unnamed(directory);
	if (*fd < 0)
		return false;
	if (extend(*fd, 0, bytes))
	{
		p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, *fd, 0);
		if (p != MAP_FAILED)
		{
			*data = p;
			return true;
		}
	}
	saved = errno;
	close(*fd);
	*fd = -1;
	errno = saved;
	return false;
}

bool
gl_value_file_resize(int fd, char **data, uint64_t old_bytes, uint64_t new_bytes)
{
	void	   *p;
	int			saved;

	if (new_bytes < old_bytes)
	{
		/* the mapping first: no page of it may lie past the file's end */
		p = mremap(*data, old_bytes, new_bytes, 0);
		if (p == MAP_FAILED)
			return false;
		*data = p;
		truncate_to(fd, new_bytes);
		return true;
	}
	if (!extend(fd, old_bytes, new_bytes))
		return false;
	p = mremap(*data, old_bytes, new_bytes, MREMAP_MAYMOVE);
	if (p == MAP_FAILED)
	{
		saved = errno;
		truncate_to(fd, old_bytes);
		errno = saved;
		return false;
	}
	*data = p;
	return true;
}

void
gl_value_file_close(int fd, char *data, uint64_t bytes)
{
	munmap(data, bytes);
	close(fd);
}
