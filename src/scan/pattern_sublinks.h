/*-------------------------------------------------------------------------
 *
 * pattern_sublinks.h
 *	  Subqueries that match a cached column against a table of patterns,
 *	  said as a LIKE ANY over an array of them (pattern_sublinks.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_SCAN_PATTERN_SUBLINKS_H
#define GPULIKE_SCAN_PATTERN_SUBLINKS_H

/* Hook the planner (_PG_init). */
extern void gl_pattern_sublinks_init(void);

#endif							/* GPULIKE_SCAN_PATTERN_SUBLINKS_H */
