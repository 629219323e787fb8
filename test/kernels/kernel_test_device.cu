/*-------------------------------------------------------------------------
 *
 * kernel_test_device.cu
 *	  kernel_test's cases on the device: every program kind against the
 *	  CPU engine, as planned and with the byte DFA refused, on the columns
 *	  main() builds, and the uploads, appends, refusals and repeated
 *	  programs around them.
 *
 *-------------------------------------------------------------------------
 */
#include "kernel_test.h"
#include "match.h"

/*
 * gl_cuda_match() with the byte DFA limited to max_stream_states states
 * (UINT32_MAX: as many as fit; 0: never, so the skims and per-row kernels
 * run) and its compact table allowed or not.
 */
static bool
match_capped(GlDeviceColumn *dcol, const GlProgram *prog, uint32_t max_stream_states,
			 bool compact_ok, uint64_t *result, double *kernel_ms, char *errbuf, size_t errlen)
{
	GlPrepareChoices choices = {max_stream_states, compact_ok, false, NULL};
	GlCudaResult whole = {result};

	return gl_cuda_match_with(dcol, prog, &choices, 0, -1, &whole, kernel_ms, errbuf, errlen);
}

/*
 * One program as gl_cuda_match() plans it (the stream kernel when the byte
 * DFA fits), with the compact table refused (the stream kernel's wide
 * table), and with the byte DFA refused, so the skims and the per-row
 * kernels that remain for large automata are checked too.
 */
static void
compare_plan(GlDeviceColumn *dcol, const GlColumn *col, const GlProgram *prog,
			 const std::vector<uint64_t> &cpu, uint32_t max_stream_states, bool compact_ok,
			 const std::string &what)
{
	size_t		nwords = gl_bitmap_words(col->nrows);
	std::vector<uint64_t> gpu(nwords + 1, 0xDEADBEEFDEADBEEFULL);
	char		err[256] = "";
	double		ms;
	uint64_t	matches = 0;

	if (!match_capped(dcol, prog, max_stream_states, compact_ok, gpu.data(), &ms, err,
					  sizeof(err)))
	{
		tap(false, what + ": gl_cuda_match failed: " + err);
		return;
	}
	for (size_t w = 0; w < nwords; w++)
	{
		matches += __builtin_popcountll(cpu[w]);
		if (cpu[w] != gpu[w])
		{
			uint64_t	diff = cpu[w] ^ gpu[w];
			uint64_t	row = w * 64 + __builtin_ctzll(diff);
			char		msg[160];

			snprintf(msg, sizeof(msg), ": row %llu: cpu %d gpu %d",
					 (unsigned long long) row, (int) ((cpu[w] >> (row % 64)) & 1),
					 (int) ((gpu[w] >> (row % 64)) & 1));
			tap(false, what + msg);
			return;
		}
	}
	if (gpu[nwords] != 0xDEADBEEFDEADBEEFULL)
	{
		tap(false, what + ": wrote past the end of the result");
		return;
	}
	tap(true, what + " (" + std::to_string(matches) + " rows)");
}

/*
 * The program as the server runs it, the result listed when its nonzero
 * words are few (result_words.cu): with room for all of them, exactly
 * those words, in order, and the bitmap left alone; with room for one
 * fewer, the whole bitmap instead.
 */
static void
compare_listed(GlDeviceColumn *dcol, const GlColumn *col, const GlProgram *prog,
			   const std::vector<uint64_t> &cpu, const std::string &what)
{
	size_t		nwords = gl_bitmap_words(col->nrows);
	std::vector<uint32_t> want;
	bool		ok = true;

	for (size_t w = 0; w < nwords; w++)
		if (cpu[w] != 0)
			want.push_back((uint32_t) w);
	for (uint64_t capacity : {(uint64_t) want.size() + 1, (uint64_t) want.size() - 1})
	{
		if (capacity == 0 || capacity > nwords + 1)
			continue;	/* no room is no listing; want.size() - 1 may wrap */

		std::vector<uint64_t> bits(nwords + 1, 0xDEADBEEFDEADBEEFULL);
		std::vector<uint32_t> index(capacity);
		std::vector<uint64_t> words(capacity);
		GlCudaResult result = {bits.data(), capacity, index.data(), words.data()};
		char		err[256] = "";
		double		ms;
		bool		fits = capacity >= want.size();

		if (!gl_cuda_match(dcol, prog, false, 0, -1, &result, &ms, err, sizeof(err)))
		{
			tap(false, what + " listed: gl_cuda_match failed: " + err);
			return;
		}
		ok = ok && result.listed == fits && bits[nwords] == 0xDEADBEEFDEADBEEFULL;
		if (fits)
		{
			ok = ok && result.nwords == want.size() && bits[0] == 0xDEADBEEFDEADBEEFULL;
			for (size_t i = 0; ok && i < want.size(); i++)
				ok = index[i] == want[i] && words[i] == cpu[want[i]];
		}
		else
		{
			for (size_t w = 0; ok && w < nwords; w++)
				ok = bits[w] == cpu[w];
		}
	}
	tap(ok, what + " listed (" + std::to_string(want.size()) + " nonzero words)");
}

void
compare(GlDeviceColumn *dcol, const GlColumn *col, const GlProgram *prog,
		const std::string &what)
{
	std::vector<uint64_t> cpu(gl_bitmap_words(col->nrows) + 1);
	GlPreparedProgram pp;
	char		err[256];
	const char *plan = "refused";
	bool		compact = false;

	gl_cpu_match_column(prog, col, cpu.data(), 2);
	if (gl_prepare_program(prog, 227 * 1024, UINT32_MAX, &pp, err, sizeof(err)))
	{
		plan = gl_plan_name(&pp);
		compact = pp.compact;
	}
	compare_plan(dcol, col, prog, cpu, UINT32_MAX, true, what + " [" + plan + "]");
	gl_prepared_free(&pp);
	if (compact)
		compare_plan(dcol, col, prog, cpu, UINT32_MAX, false, what + " [compact refused]");
	compare_plan(dcol, col, prog, cpu, 0, true, what + " [skim/rows]");
	if (dcol->next == NULL)
		compare_listed(dcol, col, prog, cpu, what);
}

static void
run_like_cases(GlDeviceColumn *dcol, const GlColumn *col, const char *colname,
			   int n, bool utf8_data)
{
	for (int i = 0; i < n; i++)
	{
		std::string pat = random_like_pattern(utf8_data);
		bool		utf8 = utf8_data || rnd(2);
		int			flavor = rnd(3);	/* LIKE, ILIKE ASCII, ILIKE wide */
		const char *error;
		GlProgram  *prog = gl_build_like(pat.data(), pat.size(), utf8,
										 flavor == 0 ? NULL : flavor == 1 ? gl_ascii_case_class : test_case_class,
										 NULL, &error);

		if (prog == NULL)
			continue;			/* refused (e.g. too long a segment) */
		compare(dcol, col, prog, std::string(colname) + (flavor ? " ILIKE '" : " LIKE '") +
				pat + "'" + (utf8 ? "" : " (single-byte)"));
		free(prog);
	}
}

static void
run_multi_cases(GlDeviceColumn *dcol, const GlColumn *col, const char *colname, int n)
{
	for (int i = 0; i < n; i++)
	{
		int			nlit;
		bool		fold;
		GlProgram  *prog = random_multi(&nlit, &fold);

		if (prog == NULL)
			continue;
		compare(dcol, col, prog, std::string(colname) + " Aho-Corasick " +
				std::to_string(nlit) + " literals" + (fold ? " folded" : ""));
		free(prog);
	}
}

/* classed_size_literals()' lists of each kind in turn, run as planned and otherwise. */
static void
run_classed_cases(GlDeviceColumn *dcol, const GlColumn *col, const char *colname, int n)
{
	for (int i = 0; i < n; i++)
	{
		std::vector<std::string> lits = classed_size_literals(i % 3);
		bool		fold = rnd(2);
		GlProgram  *prog = multi_of(lits, fold);

		if (prog == NULL)
			continue;
		compare(dcol, col, prog, std::string(colname) + " Aho-Corasick " +
				std::to_string(lits.size()) + " literals" + (fold ? " folded" : ""));
		free(prog);
	}
}

static void
run_dfa_cases(GlDeviceColumn *dcol, const GlColumn *col, const char *colname, int n)
{
	for (int i = 0; i < n; i++)
	{
		bool		utf8 = rnd(4) != 0;
		/* now and then one too large for shared memory: read in place */
		GlProgram  *prog = random_dfa(utf8, i % 10 == 9 ? 4000 : 40);

		compare(dcol, col, prog, std::string(colname) + " DFA " +
				std::to_string(prog->u.dfa.nstates) + " states" + (utf8 ? "" : " (single-byte)"));
		free(prog);
	}
	/* with a prefilter: the sieve, then the rows of the chunks it flags */
	for (int i = 0; i < n / 2 + 1; i++)
	{
		std::string w = random_text(3 + rnd(3), false);
		bool		utf8 = rnd(4) != 0;
		GlProgram  *prog = prefiltered_dfa(w, utf8);
		GlPreparedProgram pp;
		char		err[256];
		std::string what = std::string(colname) + " DFA with prefilter '%" + w + "%'";

		if (prog == NULL)
			continue;
		GlPrepareChoices sieve_first = {UINT32_MAX, true, true, NULL};

		if (gl_prepare_program_with(prog, 227 * 1024, &sieve_first, &pp, err, sizeof(err)))
		{
			tap(strcmp(gl_plan_name(&pp), "sieve+rows") == 0,
				what + ": sieve first plans " + gl_plan_name(&pp));
			gl_prepared_free(&pp);
		}
		else
			tap(false, what + ": " + err);
		compare(dcol, col, prog, what);
		free(prog);
	}
}

/* nparts > 1: split as on a host with several GPUs (parts share a device here). */
GlDeviceColumn *
upload(const GlColumn *col, const char *what, int nparts)
{
	char		err[256] = "";
	GlDeviceColumn *dcol = gl_cuda_upload(col, nparts, 0, err, sizeof(err));

	tap(dcol != NULL, std::string("upload ") + what + (dcol ? "" : std::string(": ") + err));
	return dcol;
}

/*
 * Patterns cut from the column's own rows (first, last, random), so the
 * sieve's runs do occur: '%s%', 's%', '%s' and 's' itself, LIKE and
 * ILIKE, with s any piece of a value (escaped) -- hits at row starts and
 * ends, at chunk borders, at the column's first and last bytes.
 */
static void
run_sieve_cases(GlDeviceColumn *dcol, const GlColumn *col, const char *colname, int n)
{
	static const char *const forms[] = {"%%%s%%", "%s%%", "%%%s", "%s"};

	for (int i = 0; i < n; i++)
	{
		/* row 0 as '%s%' and 's%' (no separator before it), the last row as '%s' */
		uint64_t	row = i <= 1 ? 0 : i == 2 ? col->nrows - 1 : rnd((uint32_t) col->nrows);
		uint32_t	len;
		const char *v = gl_column_value(col, row, &len);
		uint32_t	from = len > 0 ? rnd(len) : 0;
		uint32_t	take = (i % 4 >= 2) ? len - from : 1 + rnd(len - from < 40 ? len - from + 1 : 40);
		std::string piece;
		char		pat[512];
		const char *error;
		bool		ilike = rnd(2);
		const char *form = forms[i % 4];
		GlProgram  *prog;

		if (form[0] != '%')
			from = 0;
		if (from + take > len)
			take = len - from;
		for (uint32_t k = from; k < from + take; k++)
		{
			if (v[k] == '%' || v[k] == '_' || v[k] == '\\')
				piece += '\\';
			piece += v[k];
		}
		snprintf(pat, sizeof(pat), form, piece.c_str());
		prog = gl_build_like(pat, strlen(pat), true, ilike ? gl_ascii_case_class : NULL, NULL,
							 &error);
		if (prog == NULL)
			continue;
		compare(dcol, col, prog, std::string(colname) + (ilike ? " ILIKE '" : " LIKE '") +
				pat + "' (cut from row " + std::to_string(row) + ")");
		free(prog);
	}
}

void
run_all_kinds(const GlColumn *col, const char *colname, bool utf8_data, int n, int nparts)
{
	GlDeviceColumn *dcol = upload(col, colname, nparts);

	if (dcol == NULL)
		return;
	run_like_cases(dcol, col, colname, n, utf8_data);
	run_sieve_cases(dcol, col, colname, n / 2);
	run_multi_cases(dcol, col, colname, n / 2);
	run_classed_cases(dcol, col, colname, std::max(3, n / 10));
	run_dfa_cases(dcol, col, colname, n / 2);
	gl_cuda_free(dcol);
}

/*
 * Chunks that open with k empty rows (k = 56..79), then a matching row of
 * 40 bytes whose separator is the only one in the chunk's fourth 32-byte
 * word, then a row of filler to the chunk's end.  The stream kernel sets
 * the row of such a word from the chunk index, all of a chunk's such rows
 * as one 64-row mask from the chunk's first row (gl_words_to_list());
 * a row 64 or more separators into its chunk does not fit the mask and
 * must go the other way, its word read again.
 */
void
run_crowded_chunk_case(void)
{
	GlColumn	col;
	GlDeviceColumn *dcol;
	const std::string hit = "a final row, forty bytes long, matching.";
	const char *error;

	gl_column_init(&col, 3000, 24 * GL_DEV_CHUNK_BYTES);
	for (uint32_t k = 56; k < 80; k++)
	{
		for (uint32_t i = 0; i < k; i++)
			append_row(&col, "", false);
		append_row(&col, hit, false);
		append_row(&col, std::string(GL_DEV_CHUNK_BYTES - k - (hit.size() + 1) - 1, 'z'), false);
	}
	dcol = upload(&col, "crowded chunks");
	if (dcol != NULL)
	{
		GlProgram  *like = gl_build_like("%fin_l%", 7, true, NULL, NULL, &error);
		GlProgram  *multi = multi_of({"final", "qqqq"}, false);

		compare(dcol, &col, like, "crowded chunks LIKE '%fin_l%'");
		compare(dcol, &col, multi, "crowded chunks Aho-Corasick 2 literals");
		free(like);
		free(multi);
		gl_cuda_free(dcol);
	}
	gl_column_free(&col);
}

/*
 * Programs that come again (program_cache.cu): more programs than a
 * column keeps, pairs of them alike in size ('%ab%' and '%ba%'), matched
 * in rounds forwards and backwards, so that
 * some come from the cache with their blob still on the device, some from
 * the cache after another program's copy, and some are prepared again
 * after their eviction; every answer against the CPU engine's.
 */
static void
run_repeated_programs(GlDeviceColumn *dcol, const GlColumn *col, const std::string &colname)
{
	static const char *const patterns[] = {"%ab%", "%ba%", "%a_b%", "%b_a%", "%a%b%", "%abc%"};
	const int	npatterns = sizeof(patterns) / sizeof(patterns[0]);
	std::vector<GlProgram *> progs;
	std::vector<std::vector<uint64_t>> cpu;

	for (const char *pattern : patterns)
	{
		const char *error;

		progs.push_back(gl_build_like(pattern, strlen(pattern), false, NULL, NULL, &error));
		cpu.emplace_back(gl_bitmap_words(col->nrows) + 1);
		gl_cpu_match_column(progs.back(), col, cpu.back().data(), 2);
	}
	for (int round = 0; round < 3; round++)
		for (int k = 0; k < npatterns; k++)
		{
			int			i = round % 2 ? npatterns - 1 - k : k;
			std::string what = colname + " round " + std::to_string(round) + " LIKE '" +
				patterns[i] + "'";

			compare_plan(dcol, col, progs[i], cpu[i], UINT32_MAX, true, what);
			if (dcol->next == NULL)
				compare_listed(dcol, col, progs[i], cpu[i], what);
		}
	for (GlProgram *prog : progs)
		free(prog);
}

/*
 * Upload half (in nparts parts), then append the rest in uneven pieces,
 * programs matched before the appends coming again after them.
 */
void
run_append_case(const GlColumn *col, int nparts)
{
	GlColumn	part;
	char		err[256] = "";
	GlDeviceColumn *dcol;
	uint64_t	row = 0;
	bool		ok = true;

	gl_column_init(&part, col->nrows, col->nbytes);
	for (; row < col->nrows / 2; row++)
	{
		uint32_t	len;
		const char *v = gl_column_value(col, row, &len);

		gl_column_append(&part, gl_column_tid(col, row), v, len,
						 gl_column_is_null(col, row) ? GL_ROW_IS_NULL : 0);
	}
	dcol = upload(&part, "first half for append", nparts);
	if (dcol != NULL)
		run_repeated_programs(dcol, &part, "before appending");
	while (dcol != NULL && ok && row < col->nrows)
	{
		uint64_t	first = row;
		uint64_t	end = row + 1 + rnd(3000);

		for (; row < col->nrows && row < end; row++)
		{
			uint32_t	len;
			const char *v = gl_column_value(col, row, &len);

			gl_column_append(&part, gl_column_tid(col, row), v, len,
							 gl_column_is_null(col, row) ? GL_ROW_IS_NULL : 0);
		}
		ok = gl_cuda_append(dcol, &part, first, err, sizeof(err));
	}
	if (dcol == NULL)
		return;
	tap(ok, std::string("append in pieces") + (ok ? "" : std::string(": ") + err));
	run_repeated_programs(dcol, &part, "appended");
	run_like_cases(dcol, &part, "appended", 30, false);
	run_dfa_cases(dcol, &part, "appended", 10);
	gl_cuda_free(dcol);
	gl_column_free(&part);
}

void
run_refusal_cases(void)
{
	GlColumn	col;
	GlDeviceColumn *dcol;
	const char *error;
	GlProgram  *prog = gl_build_like("%abc%", 5, true, NULL, NULL, &error);
	std::vector<uint64_t> result(2);
	GlCudaResult whole = {result.data()};
	char		err[256] = "";
	double		ms;
	bool		refused;

	gl_column_init(&col, 10, 100);
	append_row(&col, "xabcx", false);
	dcol = upload(&col, "one row");
	if (dcol == NULL)
		return;
	prog->u.like.segments_off = prog->total_size + 64;
	refused = !gl_cuda_match(dcol, prog, false, 0, -1, &whole, &ms, err, sizeof(err));
	tap(refused, std::string("a program with a bad offset is refused: ") + err);
	prog->magic = 0;
	refused = !gl_cuda_match(dcol, prog, false, 0, -1, &whole, &ms, err, sizeof(err));
	tap(refused, std::string("a program with a bad magic is refused: ") + err);
	free(prog);
	gl_cuda_free(dcol);
	gl_column_free(&col);

	gl_column_init(&col, 10, 100);
	dcol = upload(&col, "empty column");
	prog = gl_build_like("%", 1, true, NULL, NULL, &error);
	if (dcol != NULL)
		tap(gl_cuda_match(dcol, prog, false, 0, -1, &whole, &ms, err, sizeof(err)),
			"matching an empty column");
	free(prog);
	gl_cuda_free(dcol);
	gl_column_free(&col);
}

/*
 * Matches on every lane at once (gpulike_cuda.h): one thread per lane,
 * each going through more programs than a column's cache keeps, from its
 * own starting point, whole and listed in turn, so that lanes share
 * cached programs, evict them while other lanes still use others, and
 * prepare the same program at the same time; every answer against the
 * CPU engine's.  nparts > 1: each lane's match runs the parts on threads
 * of its own too.
 */
void
run_lanes_case(const GlColumn *col, int nparts)
{
	static const char *const patterns[] = {
		"%ab%", "%ba%", "%a_b%", "%b_a%", "%a%b%", "%abc%", "%e%", "a%", "%z", "%q%",
		"%the%", "%a%e%i%"
	};
	const int	npatterns = sizeof(patterns) / sizeof(patterns[0]);
	const int	rounds = 4;
	GlDeviceColumn *dcol = upload(col, (std::string("for lanes, ") + std::to_string(nparts) +
										" part(s)").c_str(), nparts);
	size_t		nwords = gl_bitmap_words(col->nrows);
	std::vector<GlProgram *> progs;
	std::vector<std::vector<uint64_t>> cpu;
	std::vector<std::string> failures[GL_CUDA_LANES];
	std::vector<std::thread> threads;

	if (dcol == NULL)
		return;
	for (int i = 0; i < npatterns; i++)
	{
		const char *error;

		/* odd ones ILIKE: byte DFAs prepared at the same time as sieves */
		progs.push_back(gl_build_like(patterns[i], strlen(patterns[i]), false,
									  i % 2 ? gl_ascii_case_class : NULL, NULL, &error));
		cpu.emplace_back(nwords + 1);
		gl_cpu_match_column(progs.back(), col, cpu.back().data(), 2);
	}
	for (int lane = 0; lane < GL_CUDA_LANES; lane++)
		threads.emplace_back([&, lane]() {
			for (int k = 0; k < rounds * npatterns; k++)
			{
				int			i = (k + lane * 5) % npatterns;
				bool		list = dcol->next == NULL && (k + lane) % 2 == 1;
				std::vector<uint64_t> bits(nwords + 1, 0);
				std::vector<uint32_t> index(list ? nwords : 0);
				std::vector<uint64_t> words(list ? nwords : 0);
				GlCudaResult result = {bits.data(), list ? nwords : 0, index.data(),
									   words.data()};
				char		err[256] = "";
				double		ms;

				if (!gl_cuda_match(dcol, progs[i], false, lane, -1, &result, &ms, err,
								   sizeof(err)))
				{
					failures[lane].push_back(std::string(patterns[i]) + ": " + err);
					continue;
				}
				if (result.listed)
					for (uint64_t j = 0; j < result.nwords; j++)
						bits[index[j]] = words[j];
				if (bits != cpu[i])
					failures[lane].push_back(std::string(patterns[i]) +
											 (result.listed ? " (listed)" : "") +
											 ": differs from the CPU engine");
			}
		});
	for (std::thread &t : threads)
		t.join();
	for (int lane = 0; lane < GL_CUDA_LANES; lane++)
		tap(failures[lane].empty(),
			"lane " + std::to_string(lane) + " of " + std::to_string(GL_CUDA_LANES) + ", " +
			std::to_string(nparts) + " part(s): " + std::to_string(rounds * npatterns) +
			" matches beside the other lanes'" +
			(failures[lane].empty() ? "" : ": " + failures[lane][0]));
	for (GlProgram *prog : progs)
		free(prog);
	gl_cuda_free(dcol);
}
