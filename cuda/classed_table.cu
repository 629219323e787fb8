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

/*
 * The program class of each column of a windowed table of this flip
 * (classed_table.h), GL_CLASSED_MAX_CLASSES for the separator's; false
 * where some byte outside the window but the separator has a class of its
 * own.  (Byte 0x01 is outside either window.)
 */
static bool
window_classes(const uint8_t *byte_class, uint32_t flip, uint32_t column_class[])
{
	for (uint32_t b = 1; b < 256; b++)
	{
		uint32_t	column = gl_classed_window_column(b, flip);

		if (column < flip || b == 1)
			column_class[column] = byte_class[b];
		else if (byte_class[b] != column_class[column])
			return false;
	}
	column_class[gl_classed_window_column(0, flip)] = GL_CLASSED_MAX_CLASSES;
	return true;
}

/* The first windowed form's flip that prog's bytes allow and that fits max_bytes; 0: none. */
static uint32_t
choose_window(const uint8_t *byte_class, uint64_t nstates, uint32_t max_bytes,
			  uint32_t column_class[])
{
	for (uint32_t flip : GL_CLASSED_WINDOW_FLIPS)
		if ((nstates * (flip + 2) * sizeof(uint16_t) + 15) / 16 * 16 <= max_bytes &&
			window_classes(byte_class, flip, column_class))
			return flip;
	return 0;
}

bool
gl_build_classed_table(const GlProgram *prog, uint32_t max_bytes, bool windowed_ok,
					   GlClassedTable *out)
{
	const GlMultiProgram *multi = &prog->u.multi;
	const uint8_t *byte_class = (const uint8_t *) gl_program_section(prog, multi->byte_class_off);
	const uint16_t *next = (const uint16_t *) gl_program_section(prog, multi->next_off);
	const uint8_t *accept = (const uint8_t *) gl_program_section(prog, multi->accept_off);
	uint32_t	column_class[GL_CLASSED_MAX_CLASSES];
	uint32_t	nclasses = multi->nclasses + 1;
	uint64_t	nstates = (uint64_t) multi->nstates + 2;
	uint32_t	skip = (uint32_t) nstates - 1;
	uint32_t	header;
	uint64_t	bytes;
	uint16_t   *entries;

	memset(out, 0, sizeof(*out));
	if (nclasses > GL_CLASSED_MAX_CLASSES)
		return false;
	if (windowed_ok)
		out->window_flip = choose_window(byte_class, nstates, max_bytes, column_class);
	if (out->window_flip != 0)
	{
		nclasses = out->window_flip + 2;
		header = 0;
	}
	else
	{
		/* each column a class: the program's, then the separator's */
		for (uint32_t c = 0; c < multi->nclasses; c++)
			column_class[c] = c;
		column_class[multi->nclasses] = GL_CLASSED_MAX_CLASSES;
		header = 256;
	}
	bytes = (header + nstates * nclasses * sizeof(uint16_t) + 15) / 16 * 16;
	if ((out->window_flip == 0 && nstates * nclasses > GL_CLASSED_MAX_ENTRIES) || bytes > max_bytes)
		return false;
	out->table = (uint8_t *) calloc(bytes, 1);
	if (out->table == NULL)
		return false;
	if (out->window_flip == 0)
		for (uint32_t b = 0; b < 256; b++)
			out->table[b] = (uint8_t) (2 * (b == 0 ? multi->nclasses : byte_class[b]));
	entries = (uint16_t *) (out->table + header);
	out->nclasses = nclasses;	/* gl_classed_value() needs it */

	for (uint32_t s = 0; s < nstates; s++)
	{
		uint16_t   *row = entries + (size_t) s * nclasses;

		for (uint32_t col = 0; col < nclasses; col++)
		{
			uint32_t	c = column_class[col];
			uint32_t	to;

			if (c == GL_CLASSED_MAX_CLASSES)
			{
				/* the separator: back to the root, flagged after a matching row */
				row[col] = (uint16_t) (s == GL_CLASSED_MATCHED ? GL_CLASSED_FLAG : GL_CLASSED_ROOT);
				continue;
			}
			if (s == GL_CLASSED_MATCHED || s == skip)
				to = s;			/* both keep to the separator */
			else
			{
				/* the program's state: its root, or s - 1 */
				size_t		from = s == GL_CLASSED_ROOT ? 0 : s - 1;
				uint32_t	t = next[from * multi->nclasses + c];

				to = accept[t] ? GL_CLASSED_MATCHED : t == 0 ? GL_CLASSED_ROOT : t + 1;
			}
			row[col] = (uint16_t) gl_classed_value(out, to);
		}
	}
	out->nstates = (uint32_t) nstates;
	out->bytes = (uint32_t) bytes;
	return true;
}

void
gl_classed_table_free(GlClassedTable *t)
{
	free(t->table);
	memset(t, 0, sizeof(*t));
}
