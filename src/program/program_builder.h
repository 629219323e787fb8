/*-------------------------------------------------------------------------
 *
 * program_builder.h
 *	  Assembling a GlProgram blob (program.h) section by section.
 *
 * A leaf like program.h itself (malloc-based, no PostgreSQL calls) so the
 * unit tests can build programs without a backend.  Usage:
 *
 *		GlProgramBuilder b;
 *		gl_builder_init(&b, GL_PROG_LIKE);
 *		off = gl_builder_add(&b, data, len);	-- returns the section offset
 *		gl_builder_header(&b)->u.like.nsegments = n;	-- header is in place
 *		prog = gl_builder_finish(&b);			-- malloc'd; caller frees
 *
 * gl_builder_header() may move between calls to gl_builder_add(): take it
 * again after adding sections.
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_PROGRAM_BUILDER_H
#define GPULIKE_PROGRAM_BUILDER_H

#include "program/program.h"

typedef struct GlProgramBuilder
{
	char	   *buf;
	size_t		len;
	size_t		capacity;
	int			failed;			/* out of memory somewhere along the way */
} GlProgramBuilder;

extern void gl_builder_init(GlProgramBuilder *b, GlProgramKind kind);
extern uint32_t gl_builder_add(GlProgramBuilder *b, const void *data, size_t len);
extern GlProgram *gl_builder_header(GlProgramBuilder *b);
/* Returns the finished blob (malloc'd), or NULL if memory ran out. */
extern GlProgram *gl_builder_finish(GlProgramBuilder *b);

#endif							/* GPULIKE_PROGRAM_BUILDER_H */
