/*-------------------------------------------------------------------------
 *
 * byte_frequency.c
 *	  How common each byte is in typical text (see byte_frequency.h).
 *
 *-------------------------------------------------------------------------
 */
#include <string.h>

#include "program/byte_frequency.h"

/*
 * Letters by English frequency, then space, punctuation, digits, capitals.
 */
int
gl_byte_commonness(uint8_t b)
{
	static const char by_frequency[] = "etaoinshrdlcumwfgypbvkjxqz";
	const char *hit;

	if (b == ' ')
		return 255;
	if (b >= 'a' && b <= 'z')
	{
		hit = strchr(by_frequency, b);
		return 250 - (int) (hit - by_frequency) * 4;
	}
	if (b == '.' || b == ',' || b == '-' || b == '\'')
		return 120;
	if (b >= '0' && b <= '9')
		return 90;
	if (b >= 'A' && b <= 'Z')
		return 80;
	if (b >= 0x80 && b < 0xC0)
		return 70;				/* UTF-8 continuation bytes */
	return 40;
}
