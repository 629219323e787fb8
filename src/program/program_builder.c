/*-------------------------------------------------------------------------
 *
 * program_builder.c
 *	  Assembling a GlProgram blob (see program_builder.h).
 *
 *-------------------------------------------------------------------------
 */
#include <stdlib.h>
#include <string.h>

#include "program/program_builder.h"

static void
reserve(GlProgramBuilder *b, size_t needed)
{
	size_t		newcap;
	char	   *p;

	if (b->failed || needed <= b->capacity)
		return;
	newcap = b->capacity ? b->capacity : 1024;
	while (newcap < needed)
		newcap *= 2;
	p = realloc(b->buf, newcap);
	if (p == NULL)
	{
		b->failed = 1;
		return;
	}
	memset(p + b->capacity, 0, newcap - b->capacity);
	b->buf = p;
	b->capacity = newcap;
}

void
gl_builder_init(GlProgramBuilder *b, GlProgramKind kind)
{
	memset(b, 0, sizeof(*b));
	reserve(b, gl_program_align(sizeof(GlProgram)));
	if (b->failed)
		return;
	b->len = gl_program_align(sizeof(GlProgram));
	gl_builder_header(b)->magic = GL_PROGRAM_MAGIC;
	gl_builder_header(b)->kind = (uint32_t) kind;
	gl_builder_header(b)->exact = 1;
}

uint32_t
gl_builder_add(GlProgramBuilder *b, const void *data, size_t len)
{
	size_t		off = b->len;

	reserve(b, off + gl_program_align(len));
	if (b->failed)
		return 0;
	if (len > 0 && data != NULL)
		memcpy(b->buf + off, data, len);
	b->len = off + gl_program_align(len);
	return (uint32_t) off;
}

GlProgram *
gl_builder_header(GlProgramBuilder *b)
{
	return (GlProgram *) b->buf;
}

GlProgram *
gl_builder_finish(GlProgramBuilder *b)
{
	GlProgram  *prog;

	if (b->failed)
	{
		free(b->buf);
		memset(b, 0, sizeof(*b));
		return NULL;
	}
	prog = (GlProgram *) b->buf;
	prog->total_size = (uint32_t) b->len;
	memset(b, 0, sizeof(*b));
	return prog;
}
