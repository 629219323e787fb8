/*-------------------------------------------------------------------------
 *
 * stream_table.cc
 *	  The room the stream kernel leaves its table, and a prepared program's
 *	  table as the kernel takes it (stream_table.h).
 *
 *-------------------------------------------------------------------------
 */
#include <string.h>

#include "kernel_prep/program_prep.h"
#include "kernel_prep/stream_table.h"

uint32_t
gl_stream_table_room(uint32_t shared_limit)
{
	/* a table of this size or less leaves the stage its line */
	return shared_limit > GL_STREAM_SMALLEST_STAGE_BYTES ?
		(shared_limit - GL_STREAM_SMALLEST_STAGE_BYTES) / GL_STREAM_STAGE_ALIGN *
		GL_STREAM_STAGE_ALIGN : 0;
}

uint32_t
gl_stream_max_states(uint32_t shared_limit, bool compact)
{
	uint32_t	room = gl_stream_table_room(shared_limit);

	if (!compact)
	{
		uint32_t	fit = room / gl_byte_dfa_wide_bytes(1);

		return fit < GL_BYTE_DFA_WIDE_STATES ? fit : GL_BYTE_DFA_WIDE_STATES;
	}
	/* the smallest compact table's rows, at least */
	return room < gl_byte_dfa_compact_bytes(1) ? 0 : room / GL_BYTE_DFA_COMPACT_ROW_BYTES;
}

/* The classed table's stream form, else the wide table's, into table. */
static void
classed_or_wide(const GlClassedTable *classed, const uint16_t *wide, uint32_t wide_states,
				GlStreamTable *table)
{
	if (classed->nstates > 0)
	{
		table->form = classed->window_flip != 0 ? GL_STREAM_WINDOWED : GL_STREAM_CLASSED;
		table->window_flip = classed->window_flip;
		table->table = classed->table;
		table->bytes = classed->bytes;
		table->classed_skip = gl_classed_skip(classed);
		table->classed_twin = gl_classed_twin(classed);
	}
	else
	{
		table->form = GL_STREAM_WIDE;
		table->table = wide;
		table->bytes = wide != NULL ? gl_byte_dfa_wide_bytes(wide_states) : 0;
	}
}

void
gl_stream_table_host(const GlPreparedProgram *pp, GlStreamTable *table)
{
	memset(table, 0, sizeof(*table));
	if (pp->classed.nstates == 0 && pp->compact)
	{
		table->form = pp->factored > 0 ? GL_STREAM_FACTORED : GL_STREAM_COMPACT;
		table->table = pp->byte_dfa.compact;
		table->bytes = pp->compact_bytes;
		table->candidate = pp->candidate;
	}
	else
		classed_or_wide(&pp->classed, pp->wide, pp->byte_dfa.nstates, table);
}

void
gl_replaced_table_host(const GlPreparedProgram *pp, GlStreamTable *table)
{
	memset(table, 0, sizeof(*table));
	classed_or_wide(&pp->replaced_classed, pp->replaced_wide, pp->replaced_wide_states, table);
}
