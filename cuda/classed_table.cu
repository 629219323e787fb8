/*-------------------------------------------------------------------------
 *
 * classed_table.cu
 *	  Build the stream kernel's classed table of an Aho–Corasick program
 *	  (classed_table.h has the layout and why).
 *
 *-------------------------------------------------------------------------
 */
#include <stdlib.h>
#include <string.h>

#include "classed_table.h"

bool
gl_build_classed_table(const GlProgram *prog, uint32_t max_bytes, GlClassedTable *out)
{
	const GlMultiProgram *multi = &prog->u.multi;
	const uint8_t *byte_class = (const uint8_t *) gl_program_section(prog, multi->byte_class_off);
	const uint16_t *next = (const uint16_t *) gl_program_section(prog, multi->next_off);
	const uint8_t *accept = (const uint8_t *) gl_program_section(prog, multi->accept_off);
	uint32_t	separator = multi->nclasses;
	uint32_t	nclasses = multi->nclasses + 1;
	uint64_t	nstates = (uint64_t) multi->nstates + 2;
	uint32_t	skip = (uint32_t) nstates - 1;
	uint64_t	bytes = (256 + nstates * nclasses * sizeof(uint16_t) + 15) / 16 * 16;
	uint16_t   *entries;

	memset(out, 0, sizeof(*out));
	if (nclasses > GL_CLASSED_MAX_CLASSES || nstates * nclasses > GL_CLASSED_MAX_ENTRIES ||
		bytes > max_bytes)
		return false;
	out->table = (uint8_t *) calloc(bytes, 1);
	if (out->table == NULL)
		return false;
	for (uint32_t b = 0; b < 256; b++)
		out->table[b] = (uint8_t) (2 * (b == 0 ? separator : byte_class[b]));
	entries = (uint16_t *) (out->table + 256);

	for (uint32_t s = 0; s < nstates; s++)
	{
		uint16_t   *row = entries + (size_t) s * nclasses;

		for (uint32_t c = 0; c < multi->nclasses; c++)
		{
			uint32_t	to;

			if (s == GL_CLASSED_MATCHED || s == skip)
				to = s;			/* both keep to the separator */
			else
			{
				/* the program's state: its root, or s - 1 */
				size_t		from = s == GL_CLASSED_ROOT ? 0 : s - 1;
				uint32_t	t = next[from * multi->nclasses + c];

				to = accept[t] ? GL_CLASSED_MATCHED : t == 0 ? GL_CLASSED_ROOT : t + 1;
			}
			row[c] = (uint16_t) (2 * to * nclasses);
		}
		/* the separator: back to the root, flagged after a matching row */
		row[separator] = (uint16_t) (s == GL_CLASSED_MATCHED ? GL_CLASSED_FLAG : GL_CLASSED_ROOT);
	}
	out->nstates = (uint32_t) nstates;
	out->nclasses = nclasses;
	out->bytes = (uint32_t) bytes;
	return true;
}

void
gl_classed_table_free(GlClassedTable *t)
{
	free(t->table);
	memset(t, 0, sizeof(*t));
}
