/*-------------------------------------------------------------------------
 *
 * bench_adv.c
 *	  The adversarial table of the pattern zoo: bench_adv(id, kind, t).
 *
 * TPC-H text is friendly to matchers: short rows of common words.  This
 * table holds the inputs that break naive ones, each row one of these kinds
 * (the `kind` column says which, so a query can aim at one):
 *
 *	0 repeats	'aaaa...a' of 40-400 bytes, half of them ending in 'b': the
 *				classic worst case for a naive or backtracking matcher of
 *				'%aaaaaaaaaaaaaaaab%' (every position is a partial match);
 *	1 near		'Customer ' repeated, then 'Complaint' (no final s) and, in
 *				one row of 64, 'Complaints': many starts of a two-segment
 *				pattern, almost never a finish;
 *	2 utf8		words with 2-, 3- and 4-byte UTF-8 characters, in both cases
 *				(for '_' = one character, and ILIKE case folding);
 *	3 long		2-20 KB of pool text (TOASTed, longer than any tile word);
 *	4 null		NULL (matches neither LIKE nor NOT LIKE);
 *	5 empty		the empty string;
 *	6 mixed		pool text with random letter case (ILIKE vs LIKE);
 *	7 special	pool text with '%', '_' and '\' inserted (escaped patterns);
 *	8 plain		ordinary pool text of 10-120 bytes (the rest of the rows).
 *
 * Rows are ~10% of the orders count (at least 2,000), kinds in fixed
 * proportions drawn from each row's own random stream.
 *
 *-------------------------------------------------------------------------
 */
#include "tpch_gen.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define SALT_BENCH_ADV 101

enum AdvKind
{
	ADV_REPEATS, ADV_NEAR, ADV_UTF8, ADV_LONG, ADV_NULL, ADV_EMPTY,
	ADV_MIXED, ADV_SPECIAL, ADV_PLAIN
};

static const char *const utf8_words[] = {
	"naïve", "café", "Straße", "STRASSE", "Σίσυφος", "ΣΊΣΥΦΟΣ", "σίσυφος",
	"日本語", "テキスト", "😀", "Ärger", "ärger", "İstanbul", "istanbul",
	"Привет", "ПРИВЕТ", "привет", "Ωmega", "crème brûlée", "ꙮ", "deposits",
	"ÉLAN", "élan", "Ångström", "ångström", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢"
};

int64_t
bench_adv_rows(double scale)
{
	int64_t		rows = llround(150000 * scale);

	return rows > 2000 ? rows : 2000;
}

/*
 * COPY text format gives backslash, tab and newline a meaning; pool text has
 * no tabs or newlines, so only the inserted backslashes need doubling.
 */
static void
put_copy_escaped(const char *text, int len)
{
	for (int i = 0; i < len; i++)
	{
		if (text[i] == '\\')
			fputs("\\\\", stdout);
		else
			putchar(text[i]);
	}
}

static enum AdvKind
choose_kind(RowRandom *r)
{
	/* Percentages: repeats 8, near 8, utf8 8, long 1, null 3, empty 2, mixed 8, special 4. */
	static const int cumulative[] = {8, 16, 24, 25, 28, 30, 38, 42};
	int			roll = (int) row_random_range(r, 0, 99);

	for (int k = 0; k < (int) (sizeof(cumulative) / sizeof(cumulative[0])); k++)
		if (roll < cumulative[k])
			return (enum AdvKind) k;
	return ADV_PLAIN;
}

static void
put_repeats(RowRandom *r)
{
	int			n = (int) row_random_range(r, 40, 400);

	for (int i = 0; i < n; i++)
		putchar('a');
	if (row_random_range(r, 0, 1))
		putchar('b');
}

static void
put_near_misses(RowRandom *r)
{
	char		buf[256];
	int			repeats = (int) row_random_range(r, 1, 12);
	int			len;

	for (int i = 0; i < repeats; i++)
		fputs("Customer ", stdout);
	len = text_pool_substring(r, 5, 40, buf);
	fwrite(buf, 1, len, stdout);
	fputs(row_random_range(r, 0, 63) == 0 ? " Complaints" : " Complaint", stdout);
}

static void
put_utf8_words(RowRandom *r)
{
	int			words = (int) row_random_range(r, 3, 20);
	int			nwords = (int) (sizeof(utf8_words) / sizeof(utf8_words[0]));

	for (int i = 0; i < words; i++)
	{
		if (i > 0)
			putchar(' ');
		fputs(utf8_words[row_random_range(r, 0, nwords - 1)], stdout);
	}
}

static void
put_long_text(RowRandom *r)
{
	size_t		pool_bytes;
	const char *pool = text_pool_data(&pool_bytes);
	int			len = (int) row_random_range(r, 2000, 20000);
	size_t		offset = (size_t) row_random_range(r, 0, (int64_t) (pool_bytes - len));

	fwrite(pool + offset, 1, len, stdout);
}

static void
put_mixed_case(RowRandom *r)
{
	char		buf[256];
	int			len = text_pool_substring(r, 20, 80, buf);

	for (int i = 0; i < len; i++)
		if (row_random_range(r, 0, 1))
			buf[i] = (char) toupper((unsigned char) buf[i]);
	fwrite(buf, 1, len, stdout);
}

static void
put_special_chars(RowRandom *r)
{
	static const char specials[] = {'%', '_', '\\'};
	char		buf[256];
	int			len = text_pool_substring(r, 20, 80, buf);
	int			inserts = (int) row_random_range(r, 1, 4);

	for (int i = 0; i < inserts; i++)
		buf[row_random_range(r, 0, len - 1)] = specials[row_random_range(r, 0, 2)];
	put_copy_escaped(buf, len);
}

void
gen_bench_adv(int64_t id)
{
	RowRandom	r;
	enum AdvKind kind;
	char		buf[256];

	row_random_seed(&r, SALT_BENCH_ADV, id);
	kind = choose_kind(&r);
	printf("%lld\t%d\t", (long long) id, (int) kind);
	switch (kind)
	{
		case ADV_REPEATS:
			put_repeats(&r);
			break;
		case ADV_NEAR:
			put_near_misses(&r);
			break;
		case ADV_UTF8:
			put_utf8_words(&r);
			break;
		case ADV_LONG:
			put_long_text(&r);
			break;
		case ADV_NULL:
			fputs("\\N", stdout);
			break;
		case ADV_EMPTY:
			break;
		case ADV_MIXED:
			put_mixed_case(&r);
			break;
		case ADV_SPECIAL:
			put_special_chars(&r);
			break;
		case ADV_PLAIN:
			fwrite(buf, 1, text_pool_substring(&r, 10, 120, buf), stdout);
			break;
	}
	putchar('\n');
}
