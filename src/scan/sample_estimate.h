/*-------------------------------------------------------------------------
 *
 * sample_estimate.h
 *	  How many candidates an offloaded expression will have, counted on a
 *	  sample of the cached column (sample_estimate.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_SCAN_SAMPLE_ESTIMATE_H
#define GPULIKE_SCAN_SAMPLE_ESTIMATE_H

#include "nodes/pathnodes.h"
#include "utils/relcache.h"

#include "program/program.h"

/*
 * The share of rel's rows that the offloaded expressions (implicitly
 * ANDed) make candidates, counted on a sample of the cache; false when
 * there is no estimate to give (a small table, a pattern not known at
 * planning, several columns, no sample), and PostgreSQL's must do.
 */
extern bool gl_sample_selectivity(RelOptInfo *rel, Relation relation,
								  List *offloaded, Selectivity *selectivity);

#endif							/* GPULIKE_SCAN_SAMPLE_ESTIMATE_H */
