/*-------------------------------------------------------------------------
 *
 * candidates.c
 *	  Page records: reading a record's offsets, and writing records into a
 *	  growing buffer (see candidates.h).
 *
 *-------------------------------------------------------------------------
 */
#include <stdlib.h>
#include <string.h>

#include "column/candidates.h"

int
gl_candidate_page_offsets(const GlCandidatePage *page, uint16_t *offsets)
{
	const char *payload = (const char *) (page + 1);
	int			n = 0;

	if (page->bitmap_words == 0)
	{
		memcpy(offsets, payload, (size_t) page->ncandidates * sizeof(uint16_t));
		return page->ncandidates;
	}
	for (uint32_t w = 0; w < page->bitmap_words; w++)
	{
		uint32_t	bits;
		uint32_t	uncertain = 0;

		memcpy(&bits, payload + 4 * w, 4);
		if (page->nuncertain > 0)
			memcpy(&uncertain, payload + 4 * (page->bitmap_words + w), 4);
		while (bits != 0)
		{
			int			b = __builtin_ctz(bits);

			offsets[n++] = (uint16_t) (w * 32 + b) |
				((uncertain >> b) & 1 ? GL_OFFSET_UNCERTAIN : 0);
			bits &= bits - 1;
		}
	}
	return n;
}

static bool
reserve(GlAnswerBuffer *buf, size_t more)
{
	size_t		cap = buf->capacity ? buf->capacity : 4096;
	char	   *p;

	if (buf->len + more <= buf->capacity)
		return true;
	while (cap < buf->len + more)
		cap *= 2;
	p = realloc(buf->data, cap);
	if (p == NULL)
		return false;
	buf->data = p;
	buf->capacity = cap;
	return true;
}

bool
gl_answer_add_page(GlAnswerBuffer *buf, uint32_t block,
				   const uint16_t *offsets, int n)
{
	GlCandidatePage page;
	int			nuncertain = 0;
	uint32_t	words = (uint32_t) (offsets[n - 1] & GL_OFFSET_MASK) / 32 + 1;
	size_t		list_bytes = ((size_t) n * 2 + 3) & ~(size_t) 3;
	size_t		bitmap_bytes;
	char	   *payload;

	for (int i = 0; i < n; i++)
		nuncertain += (offsets[i] & GL_OFFSET_UNCERTAIN) != 0;
	bitmap_bytes = (size_t) words * 4 * (nuncertain > 0 ? 2 : 1);

	page.block = block;
	page.ncandidates = (uint16_t) n;
	page.nuncertain = (uint16_t) nuncertain;
	page.bitmap_words = bitmap_bytes < list_bytes ? (uint16_t) words : 0;
	page.flags = 0;
	if (!reserve(buf, gl_candidate_page_size(&page)))
		return false;

	memcpy(buf->data + buf->len, &page, sizeof(page));
	payload = buf->data + buf->len + sizeof(page);
	if (page.bitmap_words == 0)
	{
		memcpy(payload, offsets, (size_t) n * 2);
		memset(payload + n * 2, 0, list_bytes - (size_t) n * 2);
	}
	else
	{
		uint32_t   *bits = (uint32_t *) payload;
		uint32_t   *uncertain = bits + words;

		memset(payload, 0, bitmap_bytes);
		for (int i = 0; i < n; i++)
		{
			uint32_t	o = offsets[i] & GL_OFFSET_MASK;

			bits[o / 32] |= UINT32_C(1) << (o % 32);
			if (offsets[i] & GL_OFFSET_UNCERTAIN)
				uncertain[o / 32] |= UINT32_C(1) << (o % 32);
		}
	}
	buf->len += gl_candidate_page_size(&page);
	buf->npages++;
	buf->ncandidates += n;
	return true;
}

bool
gl_answer_add_every_row(GlAnswerBuffer *buf, uint32_t block, int ncandidates,
						int nuncertain)
{
	GlCandidatePage page;

	if (!reserve(buf, sizeof(page)))
		return false;
	page.block = block;
	page.ncandidates = (uint16_t) ncandidates;
	page.nuncertain = (uint16_t) nuncertain;
	page.bitmap_words = 0;
	page.flags = GL_PAGE_EVERY_ROW;
	memcpy(buf->data + buf->len, &page, sizeof(page));
	buf->len += sizeof(page);
	buf->npages++;
	buf->ncandidates += ncandidates;
	return true;
}

bool
gl_answer_add_copy(GlAnswerBuffer *out, const GlCandidatePage *page)
{
	size_t		size = gl_candidate_page_size(page);

	if (!reserve(out, size))
		return false;
	memcpy(out->data + out->len, page, size);
	out->len += size;
	out->npages++;
	out->ncandidates += page->ncandidates;
	return true;
}

