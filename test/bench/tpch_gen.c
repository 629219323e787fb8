/*-------------------------------------------------------------------------
 *
 * tpch_gen.c
 *	  A TPC-H data generator for gpulike's benchmark: writes one table (or
 *	  one chunk of it) as COPY text to stdout.
 *
 *	  tpch_gen -s SCALE -t TABLE [-n CHUNKS -i CHUNK] [-p POOL_MB]
 *
 * TABLE is region, nation, supplier, part, partsupp, customer, orders,
 * lineitem, or bench_adv (adversarial text for the pattern zoo, see
 * bench_adv.c).  Row counts follow the specification (clause 4.2.5):
 * SF x 10,000 suppliers, 200,000 parts (4 partsupp rows each), 150,000
 * customers, 1,500,000 orders with 1..7 lineitems each.
 *
 * The columns follow the specification's rules (clause 4.2.3), which is
 * what makes the TPC-H LIKE predicates select what they select there:
 *
 *	- p_name: five distinct colour words out of 92, so '%green%' matches
 *	  about 5.4% of parts and 'forest%' about 1.1%;
 *	- p_type: one syllable from each of three lists (6 x 5 x 5 types), so
 *	  '%BRASS' is 1/5, 'PROMO%' 1/6, 'MEDIUM POLISHED%' 1/30;
 *	- p_container: 5 x 8 two-syllable words;
 *	- the comment columns: substrings of the grammar text pool
 *	  (tpch_text.c) with the specification's length ranges;
 *	- s_comment: SF x 5 suppliers get "Customer ...Complaints" and another
 *	  SF x 5 "Customer ...Recommends" planted at random positions (Q16
 *	  excludes the first kind).  The planted rows are chosen by a bijection
 *	  of the key, so there are exactly that many (at least one of each,
 *	  also at tiny scale factors, so Q16's predicate is never vacuous);
 *	- one customer in three (custkey divisible by 3) has no orders, which
 *	  is what Q13's outer join counts;
 *	- order keys are sparse (8 used out of every 32), dates, prices,
 *	  priorities and flags derive as the specification says.
 *
 * This is our own implementation of the published rules, not a port of
 * dbgen: its random streams differ, so the values differ from dbgen's
 * while the distributions match.  Each row is generated from its own
 * random stream (tpch_text.c), so chunks can be generated in parallel and
 * concatenate to exactly the single-process output.
 *
 *-------------------------------------------------------------------------
 */
#include "tpch_gen.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Day numbers count from 1992-01-01 (STARTDATE). */
#define END_DAY			2556	/* 1998-12-31 */
#define CURRENT_DAY		1263	/* 1995-06-17 */

static const char *const colors[] = {
	"almond", "antique", "aquamarine", "azure", "beige", "bisque", "black",
	"blanched", "blue", "blush", "brown", "burlywood", "burnished",
	"chartreuse", "chiffon", "chocolate", "coral", "cornflower", "cornsilk",
	"cream", "cyan", "dark", "deep", "dim", "dodger", "drab", "firebrick",
	"floral", "forest", "frosted", "gainsboro", "ghost", "goldenrod",
	"green", "grey", "honeydew", "hot", "indian", "ivory", "khaki", "lace",
	"lavender", "lawn", "lemon", "light", "lime", "linen", "magenta",
	"maroon", "medium", "metallic", "midnight", "mint", "misty", "moccasin",
	"navajo", "navy", "olive", "orange", "orchid", "pale", "papaya", "peach",
	"peru", "pink", "plum", "powder", "puff", "purple", "red", "rose", "rosy",
	"royal", "saddle", "salmon", "sandy", "seashell", "sienna", "sky",
	"slate", "smoke", "snow", "spring", "steel", "tan", "thistle", "tomato",
	"turquoise", "violet", "wheat", "white", "yellow"
};

static const char *const type_syllable1[] = {
	"STANDARD", "SMALL", "MEDIUM", "LARGE", "ECONOMY", "PROMO"
};
static const char *const type_syllable2[] = {
	"ANODIZED", "BURNISHED", "PLATED", "POLISHED", "BRUSHED"
};
static const char *const type_syllable3[] = {
	"TIN", "NICKEL", "BRASS", "STEEL", "COPPER"
};
static const char *const container_syllable1[] = {
	"SM", "LG", "MED", "JUMBO", "WRAP"
};
static const char *const container_syllable2[] = {
	"CASE", "BOX", "BAG", "JAR", "PKG", "PACK", "CAN", "DRUM"
};
static const char *const segments[] = {
	"AUTOMOBILE", "BUILDING", "FURNITURE", "MACHINERY", "HOUSEHOLD"
};
static const char *const priorities[] = {
	"1-URGENT", "2-HIGH", "3-MEDIUM", "4-NOT SPECIFIED", "5-LOW"
};
static const char *const ship_instructions[] = {
	"DELIVER IN PERSON", "COLLECT COD", "NONE", "TAKE BACK RETURN"
};
static const char *const ship_modes[] = {
	"REG AIR", "AIR", "RAIL", "SHIP", "TRUCK", "MAIL", "FOB"
};
static const struct
{
	const char *name;
	int			region;
}			nations[] = {
	{"ALGERIA", 0}, {"ARGENTINA", 1}, {"BRAZIL", 1}, {"CANADA", 1},
	{"EGYPT", 4}, {"ETHIOPIA", 0}, {"FRANCE", 3}, {"GERMANY", 3},
	{"INDIA", 2}, {"INDONESIA", 2}, {"IRAN", 4}, {"IRAQ", 4}, {"JAPAN", 2},
	{"JORDAN", 4}, {"KENYA", 0}, {"MOROCCO", 0}, {"MOZAMBIQUE", 0},
	{"PERU", 1}, {"CHINA", 2}, {"ROMANIA", 3}, {"SAUDI ARABIA", 4},
	{"VIETNAM", 2}, {"RUSSIA", 3}, {"UNITED KINGDOM", 3},
	{"UNITED STATES", 1}
};
static const char *const regions[] = {
	"AFRICA", "AMERICA", "ASIA", "EUROPE", "MIDDLE EAST"
};

#define LENGTH(array) ((int) (sizeof(array) / sizeof(array[0])))

static const char *
pick_word(RowRandom *r, const char *const *words, int count)
{
	return words[row_random_range(r, 0, count - 1)];
}

/* Distinct salts give each table its own family of random streams. */
enum
{
	SALT_REGION = 1, SALT_NATION, SALT_SUPPLIER, SALT_PART, SALT_PARTSUPP,
	SALT_CUSTOMER, SALT_ORDERS
};

/* ------------------------------------------------------------ formatting */

static void
put_money(int64_t cents)
{
	const char *sign = cents < 0 ? "-" : "";
	int64_t		magnitude = cents < 0 ? -cents : cents;

	printf("%s%lld.%02lld", sign, (long long) (magnitude / 100),
		   (long long) (magnitude % 100));
}

static bool
is_leap_year(int year)
{
	return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
}

/* Day number (0 = 1992-01-01) to ISO date. */
static void
put_date(int day)
{
	static const int month_days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
	int			year = 1992;
	int			month = 0;

	while (day >= (is_leap_year(year) ? 366 : 365))
	{
		day -= is_leap_year(year) ? 366 : 365;
		year++;
	}
	for (;;)
	{
		int			len = month_days[month] + (month == 1 && is_leap_year(year));

		if (day < len)
			break;
		day -= len;
		month++;
	}
	printf("%04d-%02d-%02d", year, month + 1, day + 1);
}

static void
put_text(RowRandom *r, int min_len, int max_len)
{
	char		buf[256];
	int			len = text_pool_substring(r, min_len, max_len, buf);

	fwrite(buf, 1, len, stdout);
}

static void
put_phone(RowRandom *r, int nationkey)
{
	int			exchange = (int) row_random_range(r, 100, 999);
	int			block = (int) row_random_range(r, 100, 999);
	int			line = (int) row_random_range(r, 1000, 9999);

	printf("%02d-%03d-%03d-%04d", nationkey + 10, exchange, block, line);
}

static void
put_address(RowRandom *r)
{
	char		buf[64];
	int			len = random_vstring(r, 10, 40, buf);

	fwrite(buf, 1, len, stdout);
}

/* ---------------------------------------------------------------- tables */

int64_t
table_rows(const char *table, double scale)
{
	double		per_sf;

	if (strcmp(table, "region") == 0)
		return 5;
	if (strcmp(table, "nation") == 0)
		return 25;
	if (strcmp(table, "supplier") == 0)
		per_sf = 10000;
	else if (strcmp(table, "part") == 0 || strcmp(table, "partsupp") == 0)
		per_sf = 200000;		/* partsupp: 4 rows per part */
	else if (strcmp(table, "customer") == 0)
		per_sf = 150000;
	else if (strcmp(table, "orders") == 0 || strcmp(table, "lineitem") == 0)
		per_sf = 1500000;		/* lineitem: 1..7 rows per order */
	else if (strcmp(table, "bench_adv") == 0)
		return bench_adv_rows(scale);
	else
		return -1;
	return llround(per_sf * scale) > 0 ? llround(per_sf * scale) : 1;
}

static void
gen_region(int64_t key)
{
	RowRandom	r;

	row_random_seed(&r, SALT_REGION, key);
	printf("%lld\t%s\t", (long long) key, regions[key]);
	put_text(&r, 31, 115);
	putchar('\n');
}

static void
gen_nation(int64_t key)
{
	RowRandom	r;

	row_random_seed(&r, SALT_NATION, key);
	printf("%lld\t%s\t%d\t", (long long) key, nations[key].name, nations[key].region);
	put_text(&r, 31, 114);
	putchar('\n');
}

/*
 * Which planted comment, if any, supplier `suppkey` gets: an affine
 * bijection of the key spreads the planted rows over the table.
 */
static int
supplier_planted_kind(int64_t suppkey, int64_t suppliers, double scale)
{
	int64_t		planted = llround(scale * 5) > 0 ? llround(scale * 5) : 1;
	int64_t		multiplier = (suppliers % 7919 != 0) ? 7919 : 7927;
	int64_t		position = ((suppkey - 1) * multiplier + 13) % suppliers;

	if (position < planted)
		return 1;				/* Complaints */
	if (position < 2 * planted)
		return 2;				/* Recommends */
	return 0;
}

/*
 * The columns suppliers and customers share, in the spec's order: key,
 * "Kind#000000042", address, nation key, phone, account balance.
 */
static void
put_party(RowRandom *r, int64_t key, const char *kind)
{
	int			nationkey;

	printf("%lld\t%s#%09lld\t", (long long) key, kind, (long long) key);
	put_address(r);
	nationkey = (int) row_random_range(r, 0, 24);
	printf("\t%d\t", nationkey);
	put_phone(r, nationkey);
	putchar('\t');
	put_money(row_random_range(r, -99999, 999999));
}

static void
gen_supplier(int64_t key, double scale)
{
	RowRandom	r;
	char		comment[256];
	int			len;
	int			planted;

	row_random_seed(&r, SALT_SUPPLIER, key);
	put_party(&r, key, "Supplier");
	putchar('\t');

	len = text_pool_substring(&r, 25, 100, comment);
	planted = supplier_planted_kind(key, table_rows("supplier", scale), scale);
	if (planted != 0)
	{
		/* "Customer " at a random place, the verdict later in the text. */
		const char *verdict = planted == 1 ? "Complaints" : "Recommends";
		int			gap = (int) row_random_range(&r, 0, len - 19);
		int			start = (int) row_random_range(&r, 0, len - 19 - gap);

		memcpy(comment + start, "Customer ", 9);
		memcpy(comment + start + 9 + gap, verdict, 10);
	}
	fwrite(comment, 1, len, stdout);
	putchar('\n');
}

static int64_t
part_retail_cents(int64_t partkey)
{
	return 90000 + ((partkey / 10) % 20001) + 100 * (partkey % 1000);
}

static void
gen_part(int64_t key)
{
	RowRandom	r;
	int			chosen[5];

	row_random_seed(&r, SALT_PART, key);
	printf("%lld\t", (long long) key);
	/* Five distinct colours. */
	for (int i = 0; i < 5; i++)
	{
		bool		repeated;

		do
		{
			chosen[i] = (int) row_random_range(&r, 0, LENGTH(colors) - 1);
			repeated = false;
			for (int j = 0; j < i; j++)
				repeated |= chosen[j] == chosen[i];
		} while (repeated);
		printf(i == 0 ? "%s" : " %s", colors[chosen[i]]);
	}
	{
		int			mfgr = (int) row_random_range(&r, 1, 5);

		printf("\tManufacturer#%d\tBrand#%d%d\t", mfgr, mfgr,
			   (int) row_random_range(&r, 1, 5));
	}
	/* One statement per draw: argument evaluation order is unspecified. */
	fputs(pick_word(&r, type_syllable1, LENGTH(type_syllable1)), stdout);
	printf(" %s", pick_word(&r, type_syllable2, LENGTH(type_syllable2)));
	printf(" %s\t", pick_word(&r, type_syllable3, LENGTH(type_syllable3)));
	printf("%d\t", (int) row_random_range(&r, 1, 50));
	fputs(pick_word(&r, container_syllable1, LENGTH(container_syllable1)), stdout);
	printf(" %s\t", pick_word(&r, container_syllable2, LENGTH(container_syllable2)));
	put_money(part_retail_cents(key));
	putchar('\t');
	put_text(&r, 5, 22);
	putchar('\n');
}

/* The j-th (0..3) supplier of a part, as the specification defines it. */
static int64_t
part_supplier(int64_t partkey, int j, int64_t suppliers)
{
	return (partkey + (j * (suppliers / 4 + (partkey - 1) / suppliers))) % suppliers + 1;
}

static void
gen_partsupp(int64_t partkey, double scale)
{
	int64_t		suppliers = table_rows("supplier", scale);

	for (int j = 0; j < 4; j++)
	{
		RowRandom	r;

		row_random_seed(&r, SALT_PARTSUPP, partkey * 4 + j);
		printf("%lld\t%lld\t%d\t", (long long) partkey,
			   (long long) part_supplier(partkey, j, suppliers),
			   (int) row_random_range(&r, 1, 9999));
		put_money(row_random_range(&r, 100, 100000));
		putchar('\t');
		put_text(&r, 49, 198);
		putchar('\n');
	}
}

static void
gen_customer(int64_t key)
{
	RowRandom	r;

	row_random_seed(&r, SALT_CUSTOMER, key);
	put_party(&r, key, "Customer");
	printf("\t%s\t", pick_word(&r, segments, LENGTH(segments)));
	put_text(&r, 29, 116);
	putchar('\n');
}

/* ------------------------------------------------------ orders, lineitem */

typedef struct LineRow
{
	int64_t		partkey;
	int64_t		suppkey;
	int			quantity;
	int64_t		extended_cents;
	int			discount_pct;
	int			tax_pct;
	int			ship_day;
	int			commit_day;
	int			receipt_day;
	char		returnflag;
	char		linestatus;
	const char *instruction;
	const char *mode;
	char		comment[64];
	int			comment_len;
} LineRow;

typedef struct OrderRow
{
	int64_t		orderkey;
	int64_t		custkey;
	int			order_day;
	const char *priority;
	int			clerk;
	char		comment[96];
	int			comment_len;
	int			nlines;
	LineRow		lines[7];
} OrderRow;

/* Order number `index` (1-based): its row and its lineitems. */
static void
make_order(int64_t index, double scale, OrderRow *o)
{
	RowRandom	r;
	int64_t		customers = table_rows("customer", scale);
	int64_t		parts = table_rows("part", scale);
	int64_t		suppliers = table_rows("supplier", scale);
	int64_t		clerks = llround(scale * 1000) > 0 ? llround(scale * 1000) : 1;

	row_random_seed(&r, SALT_ORDERS, index);
	/* Sparse keys: 8 used, then 24 skipped. */
	o->orderkey = ((index >> 3) << 5) | (index & 7);
	/* Customers whose key is divisible by 3 never order. */
	do
		o->custkey = row_random_range(&r, 1, customers);
	while (o->custkey % 3 == 0 && customers >= 3);
	o->order_day = (int) row_random_range(&r, 0, END_DAY - 151);
	o->priority = pick_word(&r, priorities, LENGTH(priorities));
	o->clerk = (int) row_random_range(&r, 1, clerks);
	o->comment_len = text_pool_substring(&r, 19, 78, o->comment);
	o->nlines = (int) row_random_range(&r, 1, 7);
	for (int i = 0; i < o->nlines; i++)
	{
		LineRow    *l = &o->lines[i];

		l->partkey = row_random_range(&r, 1, parts);
		l->suppkey = part_supplier(l->partkey, (int) row_random_range(&r, 0, 3), suppliers);
		l->quantity = (int) row_random_range(&r, 1, 50);
		l->extended_cents = l->quantity * part_retail_cents(l->partkey);
		l->discount_pct = (int) row_random_range(&r, 0, 10);
		l->tax_pct = (int) row_random_range(&r, 0, 8);
		l->ship_day = o->order_day + (int) row_random_range(&r, 1, 121);
		l->commit_day = o->order_day + (int) row_random_range(&r, 30, 90);
		l->receipt_day = l->ship_day + (int) row_random_range(&r, 1, 30);
		if (l->receipt_day <= CURRENT_DAY)
			l->returnflag = row_random_range(&r, 0, 1) ? 'R' : 'A';
		else
			l->returnflag = 'N';
		l->linestatus = l->ship_day > CURRENT_DAY ? 'O' : 'F';
		l->instruction = pick_word(&r, ship_instructions, LENGTH(ship_instructions));
		l->mode = pick_word(&r, ship_modes, LENGTH(ship_modes));
		l->comment_len = text_pool_substring(&r, 10, 43, l->comment);
	}
}

static void
gen_orders(int64_t index, double scale)
{
	OrderRow	o;
	int64_t		total_cents = 0;
	int			open_lines = 0;
	char		status;

	make_order(index, scale, &o);
	for (int i = 0; i < o.nlines; i++)
	{
		const LineRow *l = &o.lines[i];

		/* extended x (1 + tax) x (1 - discount), rounded to cents */
		total_cents += (l->extended_cents * (100 + l->tax_pct) * (100 - l->discount_pct) + 5000) / 10000;
		open_lines += l->linestatus == 'O';
	}
	status = open_lines == o.nlines ? 'O' : open_lines == 0 ? 'F' : 'P';
	printf("%lld\t%lld\t%c\t", (long long) o.orderkey, (long long) o.custkey, status);
	put_money(total_cents);
	putchar('\t');
	put_date(o.order_day);
	printf("\t%s\tClerk#%09d\t0\t", o.priority, o.clerk);
	fwrite(o.comment, 1, o.comment_len, stdout);
	putchar('\n');
}

static void
gen_lineitem(int64_t index, double scale)
{
	OrderRow	o;

	make_order(index, scale, &o);
	for (int i = 0; i < o.nlines; i++)
	{
		const LineRow *l = &o.lines[i];

		printf("%lld\t%lld\t%lld\t%d\t%d\t", (long long) o.orderkey,
			   (long long) l->partkey, (long long) l->suppkey, i + 1, l->quantity);
		put_money(l->extended_cents);
		printf("\t0.%02d\t0.%02d\t%c\t%c\t", l->discount_pct, l->tax_pct,
			   l->returnflag, l->linestatus);
		put_date(l->ship_day);
		putchar('\t');
		put_date(l->commit_day);
		putchar('\t');
		put_date(l->receipt_day);
		printf("\t%s\t%s\t", l->instruction, l->mode);
		fwrite(l->comment, 1, l->comment_len, stdout);
		putchar('\n');
	}
}

/* ------------------------------------------------------------------ main */

static void
usage(void)
{
	fprintf(stderr,
			"usage: tpch_gen -s SCALE -t TABLE [-n CHUNKS -i CHUNK] [-p POOL_MB]\n"
			"  TABLE: region nation supplier part partsupp customer orders lineitem bench_adv\n"
			"  writes COPY text format to stdout; chunk CHUNK (0-based) of CHUNKS\n");
	exit(2);
}

int
main(int argc, char **argv)
{
	double		scale = 0;
	const char *table = NULL;
	int			chunks = 1;
	int			chunk = 0;
	int			pool_mb = 0;
	int64_t		rows;
	int64_t		first;
	int64_t		last;
	int			opt;
	static char outbuf[1 << 20];

	while ((opt = getopt(argc, argv, "s:t:n:i:p:")) != -1)
	{
		switch (opt)
		{
			case 's':
				scale = atof(optarg);
				break;
			case 't':
				table = optarg;
				break;
			case 'n':
				chunks = atoi(optarg);
				break;
			case 'i':
				chunk = atoi(optarg);
				break;
			case 'p':
				pool_mb = atoi(optarg);
				break;
			default:
				usage();
		}
	}
	if (scale <= 0 || table == NULL || chunks < 1 || chunk < 0 || chunk >= chunks)
		usage();
	rows = table_rows(table, scale);
	if (rows < 0)
	{
		fprintf(stderr, "tpch_gen: unknown table \"%s\"\n", table);
		usage();
	}

	/* The specification's pool is 300 MB; small runs need not wait for it. */
	if (pool_mb <= 0)
		pool_mb = scale >= 1 ? 300 : 16;
	text_pool_build((size_t) pool_mb << 20);
	setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf));

	/* Keys (or order numbers) 1..rows, split into contiguous chunks. */
	first = rows * chunk / chunks + 1;
	last = rows * (chunk + 1) / chunks;
	for (int64_t key = first; key <= last; key++)
	{
		if (strcmp(table, "region") == 0)
			gen_region(key - 1);
		else if (strcmp(table, "nation") == 0)
			gen_nation(key - 1);
		else if (strcmp(table, "supplier") == 0)
			gen_supplier(key, scale);
		else if (strcmp(table, "part") == 0)
			gen_part(key);
		else if (strcmp(table, "partsupp") == 0)
			gen_partsupp(key, scale);
		else if (strcmp(table, "customer") == 0)
			gen_customer(key);
		else if (strcmp(table, "orders") == 0)
			gen_orders(key, scale);
		else if (strcmp(table, "lineitem") == 0)
			gen_lineitem(key, scale);
		else
			gen_bench_adv(key);
	}
	if (fflush(stdout) != 0 || ferror(stdout))
	{
		perror("tpch_gen: write");
		return 1;
	}
	return 0;
}
