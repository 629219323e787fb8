/*-------------------------------------------------------------------------
 *
 * candidates.h
 *	  Candidate tuples grouped by heap page: the records the answer to a
 *	  MATCH request is made of (a leaf: plain C; written on the server's
 *	  threads (answer.h), read in place by the executor, tested alone).
 *
 * The executor visits the heap a page at a time, so that is the shape of
 * an answer: a sequence of page records in increasing block order, each
 * block at most once, each record a header and its candidates' offsets.
 * A candidate is marked "uncertain" unless its row was known live
 * (column.h): the executor may count a certain candidate on an all-visible
 * page without reading the page, never an uncertain one.
 *
 * A record's offsets come in whichever of two forms is smaller:
 *
 *	list	ncandidates uint16 offsets in increasing order, bit 15 set on
 *			uncertain ones, padded to 4 bytes;
 *	bitmap	bitmap_words uint32 words, bit (o % 32) of word (o / 32) set
 *			for offset o; then, if nuncertain > 0, as many words marking
 *			the uncertain ones;
 *
 * or in none: a record flagged GL_PAGE_EVERY_ROW says that every row the
 * cache holds for the page is a candidate.  Every tuple of the page that a
 * snapshot can see has its row in the cache, so every visible tuple of the
 * page is a candidate: the executor reads such a page as a sequential scan
 * would (or, all-visible and all certain, counts ncandidates unread).
 *
 * Sparse answers cost 2 bytes a candidate and 12 a page; dense ones (a
 * NOT LIKE matching nearly every row) mostly 12 bytes a page.  Records are
 * 4-byte aligned; read them in place.
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_CANDIDATES_H
#define GPULIKE_CANDIDATES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>


typedef struct GlCandidatePage
{
	uint32_t	block;
	uint16_t	ncandidates;
	uint16_t	nuncertain;		/* candidates not known live */
	uint16_t	bitmap_words;	/* 0: list form; else bitmap form */
	uint16_t	flags;
} GlCandidatePage;

/* GlCandidatePage.flags: every cached row of the page, no offsets follow */
#define GL_PAGE_EVERY_ROW		0x0001

/* Bit 15 of a "marked" offset: the candidate is uncertain. */
#define GL_OFFSET_UNCERTAIN		0x8000
#define GL_OFFSET_MASK			0x7FFF

/* Most offsets a page can hold in either form (offsets are 15 bits). */
#define GL_PAGE_MAX_CANDIDATES	GL_OFFSET_MASK

static inline size_t
gl_candidate_page_size(const GlCandidatePage *page)
{
	size_t		payload;

	if (page->flags & GL_PAGE_EVERY_ROW)
		payload = 0;
	else if (page->bitmap_words == 0)
		payload = ((size_t) page->ncandidates * 2 + 3) & ~(size_t) 3;
	else
		payload = (size_t) page->bitmap_words * 4 * (page->nuncertain > 0 ? 2 : 1);
	return sizeof(GlCandidatePage) + payload;
}

static inline const GlCandidatePage *
gl_candidate_page_next(const GlCandidatePage *page)
{
	return (const GlCandidatePage *) ((const char *) page +
									  gl_candidate_page_size(page));
}

/*
 * The page's candidates as marked offsets, in increasing order, into
 * offsets[] (room for page->ncandidates).  Returns how many.  Not for
 * GL_PAGE_EVERY_ROW records, which list no offsets.
 */
extern int	gl_candidate_page_offsets(const GlCandidatePage *page,
									  uint16_t *offsets);

/* A growing buffer of page records (malloc'd). */
typedef struct GlAnswerBuffer
{
	char	   *data;
	size_t		len;
	size_t		capacity;
	uint64_t	npages;
	uint64_t	ncandidates;
} GlAnswerBuffer;

/*
 * Append a record for block with n marked offsets (increasing, 1 <= n <=
 * GL_PAGE_MAX_CANDIDATES).  False on out-of-memory.
 */
extern bool gl_answer_add_page(GlAnswerBuffer *buf, uint32_t block,
							   const uint16_t *offsets, int n);

/* Append a GL_PAGE_EVERY_ROW record.  False on out-of-memory. */
extern bool gl_answer_add_every_row(GlAnswerBuffer *buf, uint32_t block,
									int ncandidates, int nuncertain);

/* Append a copy of a record.  False on out-of-memory. */
extern bool gl_answer_add_copy(GlAnswerBuffer *buf, const GlCandidatePage *page);

#endif							/* GPULIKE_CANDIDATES_H */
