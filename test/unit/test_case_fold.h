/*-------------------------------------------------------------------------
 *
 * test_case_fold.h
 *	  The unit tests' ILIKE case folding: a made-up lower() that, like real
 *	  ones, maps several code points to one (K, k and the Kelvin sign U+212A
 *	  all lower to k; I, i and the dotted capital I U+0130 to i) and changes
 *	  a character's byte length, and its inverse as the builders' case-class
 *	  callback, as the backend gives them PostgreSQL's own.
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_TEST_CASE_FOLD_H
#define GPULIKE_TEST_CASE_FOLD_H

#include <stddef.h>
#include <stdint.h>

/* The test's lower(): ASCII, plus a few non-ASCII pairs. */
static inline uint32_t
test_lower(uint32_t cp)
{
	if (cp >= 'A' && cp <= 'Z')
		return cp + 32;
	if (cp == 0x212A)			/* KELVIN SIGN */
		return 'k';
	if (cp == 0xC9)				/* É */
		return 0xE9;
	if (cp == 0x130)			/* İ */
		return 'i';
	if (cp == 0x1E9E)			/* capital sharp s */
		return 0xDF;
	return cp;
}

/* The inverse of test_lower() over every code point that it moves. */
static inline int
test_case_class(void *arg, uint32_t cp, uint32_t *members, int max)
{
	static const uint32_t moved[] = {0x212A, 0xC9, 0x130, 0x1E9E};
	int			n = 0;
	uint32_t	c;
	size_t		i;

	for (c = 'A'; c <= 'Z'; c++)
		if (test_lower(c) == cp && n < max)
			members[n++] = c;
	for (i = 0; i < sizeof(moved) / sizeof(moved[0]); i++)
		if (test_lower(moved[i]) == cp && n < max)
			members[n++] = moved[i];
	if (test_lower(cp) == cp && n < max)
		members[n++] = cp;
	return n;
}

#endif							/* GPULIKE_TEST_CASE_FOLD_H */
