/*
 * value_file_test.c
 *	  A column's values in a mapped file (src/column/value_file.c and
 *	  gl_column_values_to_file()): the values moved there keep their bytes,
 *	  the column grows through several remappings and trims, the file has
 *	  no name in its directory, the memory figure leaves the values out and
 *	  the file's figure has them, a directory that cannot hold the file
 *	  leaves the values in memory, and a file that cannot grow (a file
 *	  size limit, as a full disk would) fails the append that needed it
 *	  with every earlier row intact -- not a SIGBUS on a later write --
 *	  and the failure is told from running out of memory
 *	  (gl_column_append_failed_in_file(), whose answer picks the server's
 *	  message).
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "column/column.h"
#include "tap.h"

/* Row r's value: its number and a tail of r % 97 letters. */
static uint32_t
value_of(uint64_t r, char *buf)
{
	int			n = snprintf(buf, 160, "row %llu:", (unsigned long long) r);

	for (uint64_t i = 0; i < r % 97; i++)
		buf[n++] = 'a' + (r + i) % 26;
	return (uint32_t) n;
}

static bool
append_rows(GlColumn *col, uint64_t from, uint64_t to)
{
	char		buf[160];

	for (uint64_t r = from; r < to; r++)
	{
		uint32_t	len = value_of(r, buf);

		if (!gl_column_append(col, (GlTid) ((r / 100 + 1) << 16 | (r % 100 + 1)), buf, len,
							  GL_ROW_KNOWN_LIVE))
			return false;
	}
	return true;
}

/* Rows [0, n) read back as appended. */
static bool
rows_intact(const GlColumn *col, uint64_t n)
{
	char		buf[160];

	if (col->nrows != n)
		return false;
	for (uint64_t r = 0; r < n; r++)
	{
		uint32_t	want = value_of(r, buf);
		uint32_t	len;
		const char *v = gl_column_value(col, r, &len);

		if (len != want || memcmp(v, buf, len) != 0)
			return false;
	}
	return true;
}

/* Entries of directory besides . and .. */
static int
entries(const char *directory)
{
	DIR		   *d = opendir(directory);
	struct dirent *e;
	int			n = 0;

	if (d == NULL)
		return -1;
	while ((e = readdir(d)) != NULL)
		n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
	closedir(d);
	return n;
}

int
main(void)
{
	char		directory[] = "/tmp/gl_value_file_test.XXXXXX";
	GlColumn	in_memory;
	GlColumn	col;
	uint64_t	n = 200000;
	size_t		memory_bytes;
	struct rlimit limit;
	bool		failed;

	if (mkdtemp(directory) == NULL)
	{
		perror("mkdtemp");
		return 1;
	}

	/* the same rows in memory, for the figures */
	tap_ok(gl_column_init(&in_memory, 0, 0) && append_rows(&in_memory, 0, n),
		   "a column in memory takes %llu rows", (unsigned long long) n);

	/* rows in memory first, then moved: their bytes go with them */
	tap_ok(gl_column_init(&col, 0, 0) && append_rows(&col, 0, 1000), "1000 rows in memory");
	tap_ok(gl_column_values_to_file(&col, directory) && col.values_in_file,
		   "the values move to a file");
	tap_ok(rows_intact(&col, 1000), "the moved rows read back");
	tap_ok(entries(directory) == 0, "the file has no name in its directory");

	/* growing: 64 kB to several MB, remapped each time */
	tap_ok(append_rows(&col, 1000, n) && rows_intact(&col, n),
		   "%llu rows through the file's growth read back", (unsigned long long) n);
	tap_ok(gl_column_file_bytes(&col) >= col.nbytes && col.capacity_bytes == gl_column_file_bytes(&col),
		   "the file's figure holds the values (%llu bytes for %llu)",
		   (unsigned long long) gl_column_file_bytes(&col), (unsigned long long) col.nbytes);
	gl_column_trim(&col);
	gl_column_trim(&in_memory);
	memory_bytes = gl_column_host_bytes(&col);
	tap_ok(gl_column_file_bytes(&col) == col.nbytes && rows_intact(&col, n),
		   "trimmed, the file is the values' bytes and they read back");
	tap_ok(memory_bytes + in_memory.capacity_bytes == gl_column_host_bytes(&in_memory) &&
		   gl_column_file_bytes(&in_memory) == 0,
		   "memory: %zu bytes with the values in the file, %zu with them in memory",
		   memory_bytes, gl_column_host_bytes(&in_memory));
	tap_ok(append_rows(&col, n, n + 5000) && rows_intact(&col, n + 5000),
		   "appending after the trim grows the file again");
	gl_column_free(&col);
	gl_column_free(&in_memory);

	/* a directory that cannot hold it: the values stay in memory */
	tap_ok(gl_column_init(&col, 0, 0) && append_rows(&col, 0, 100), "100 rows in memory");
	errno = 0;
	tap_ok(!gl_column_values_to_file(&col, "/nonexistent/gpulike") && errno == ENOENT &&
		   !col.values_in_file,
		   "no such directory: false, ENOENT, the values in memory");
	tap_ok(!gl_column_append_failed_in_file(&col, EFBIG),
		   "a column in memory never takes a failure for its file's");
	tap_ok(append_rows(&col, 100, 2000) && rows_intact(&col, 2000),
		   "and the column goes on in memory");
	gl_column_free(&col);

	/*
	 * A file that cannot grow past 4 MB: the append that needs more fails,
	 * the rows before it intact, and the column takes no half row.
	 */
	signal(SIGXFSZ, SIG_IGN);
	getrlimit(RLIMIT_FSIZE, &limit);
	tap_ok(gl_column_init(&col, 0, 0) && gl_column_values_to_file(&col, directory),
		   "a new column in a file");
	{
		struct rlimit small = limit;
		uint64_t	r;
		char		buf[160];
		int			why = 0;

		small.rlim_cur = 4 << 20;
		setrlimit(RLIMIT_FSIZE, &small);
		failed = false;
		for (r = 0; r < 1000000 && !failed; r++)
		{
			uint32_t	len = value_of(r, buf);

			failed = !gl_column_append(&col, (GlTid) ((r / 100 + 1) << 16 | (r % 100 + 1)),
									   buf, len, 0);
			why = errno;
		}
		setrlimit(RLIMIT_FSIZE, &limit);
		tap_ok(failed && col.nrows == r - 1 && col.nbytes <= (4u << 20),
			   "past the file size limit an append fails (after %llu rows, %llu bytes)",
			   (unsigned long long) col.nrows, (unsigned long long) col.nbytes);
		tap_ok(gl_column_append_failed_in_file(&col, why) &&
			   !gl_column_append_failed_in_file(&col, ENOMEM),
			   "the failure is the file's (%s), and out of memory would not be",
			   strerror(why));
		tap_ok(rows_intact(&col, col.nrows), "every row before it reads back");
		tap_ok(append_rows(&col, col.nrows, col.nrows + 1000) && rows_intact(&col, r + 999),
			   "with the limit lifted the column grows again");
	}
	gl_column_free(&col);
	tap_ok(entries(directory) == 0 && rmdir(directory) == 0, "nothing left in the directory");
	return tap_done();
}
