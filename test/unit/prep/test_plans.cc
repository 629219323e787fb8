/*-------------------------------------------------------------------------
 *
 * test_plans.cc
 *	  A preparation as the test and benchmark programs ask for it and name
 *	  it (test_plans.h).
 *
 *-------------------------------------------------------------------------
 */
#include "test_plans.h"

bool
gl_prepare_program(const GlProgram *prog, size_t shared_limit, uint32_t max_stream_states,
				   GlPreparedProgram *pp, char *errbuf, size_t errlen)
{
	GlPrepareChoices choices = {max_stream_states, true, false, NULL};

	return gl_prepare_program_with(prog, shared_limit, &choices, pp, errbuf, errlen);
}

const char *
gl_plan_name(const GlPreparedProgram *pp)
{
	bool		set = pp->literal_set != NULL;

	switch (gl_prepared_plan(pp))
	{
		case GL_PLAN_SIEVE:
			return "sieve";
		case GL_PLAN_STREAM:
			if (pp->classed.nstates > 0 && pp->classed.window_flip != 0)
				return set ? "set-sieve+stream-windowed" : "stream-windowed";
			if (pp->classed.nstates > 0)
				return set ? "set-sieve+stream-classed" : "stream-classed";
			if (pp->factored > 0)
				return "factored-stream+rows";
			if (pp->compact)
				return set ? "set-sieve+stream" : "stream";
			return set ? "set-sieve+stream-wide" : "stream-wide";
		case GL_PLAN_SKIM:
			return "skim";
		case GL_PLAN_SIEVE_ROWS:
			return "sieve+rows";
		case GL_PLAN_ROWS:
			break;
	}
	return "rows";
}
