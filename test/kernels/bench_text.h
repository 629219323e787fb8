/*-------------------------------------------------------------------------
 *
 * bench_text.h
 *	  The comment-like text of the kernel programs' benchmarks
 *	  (kernel_bench.cu, bank_sim.cu): words of the TPC-H text grammar, rows
 *	  of 19-78 bytes.
 *
 *-------------------------------------------------------------------------
 */
#ifndef GPULIKE_BENCH_TEXT_H
#define GPULIKE_BENCH_TEXT_H

#include <string.h>

#include "test_random.h"

static const char *const gl_bench_words[] = {
	"furiously", "carefully", "quickly", "blithely", "slyly", "fluffily", "ruthlessly",
	"regular", "express", "final", "pending", "special", "ironic", "even", "bold",
	"silent", "unusual", "daring", "idle", "close", "permanent", "quiet", "busy",
	"packages", "requests", "accounts", "deposits", "foxes", "ideas", "theodolites",
	"pinto", "beans", "instructions", "dependencies", "excuses", "platelets",
	"asymptotes", "courts", "dolphins", "multipliers", "sauternes", "warthogs",
	"frets", "dinos", "attainments", "somas", "Tiresias", "patterns", "forges",
	"sleep", "wake", "are", "cajole", "haggle", "nag", "use", "boost", "affix",
	"detect", "integrate", "maintain", "nod", "was", "lose", "sublate", "solve",
	"thrash", "promise", "engage", "hinder", "print", "x-ray", "breach", "eat",
	"grow", "impress", "mold", "poach", "serve", "run", "dazzle", "snooze", "doze",
	"about", "above", "across", "after", "against", "along", "among", "around",
	"at", "atop", "before", "behind", "beneath", "beside", "between", "beyond",
	"by", "during", "for", "from", "inside", "into", "near", "of", "on", "over",
	"past", "since", "through", "to", "toward", "under", "until", "upon", "with",
	"the", "the", "the", "Customer", "Complaints", "never", "always", "sometimes",
};
static const int gl_bench_nwords = sizeof(gl_bench_words) / sizeof(gl_bench_words[0]);

/* One comment into out (room for 256 bytes): words until the target length, cut there. */
static inline uint32_t
gl_bench_comment(GlXorshift *rng, char *out)
{
	uint32_t	target = 19 + rng->below(60);
	uint32_t	len = 0;

	while (len < target)
	{
		const char *w = gl_bench_words[rng->below(gl_bench_nwords)];
		size_t		wl = strlen(w);

		if (len > 0)
			out[len++] = ' ';
		memcpy(out + len, w, wl);
		len += (uint32_t) wl;
	}
	return target;
}

#endif							/* GPULIKE_BENCH_TEXT_H */
