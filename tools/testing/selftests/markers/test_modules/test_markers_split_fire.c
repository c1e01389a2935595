// SPDX-License-Identifier: GPL-2.0
/* The site of test_split_event in the object that does not define it. */

#include "test_markers_split.h"

void test_split_fire(int n)
{
	mark_test_split_event(n, 10UL * n);
}
