// SPDX-License-Identifier: GPL-2.0
/*
 * The futex typed markers: what include/trace/markers/futex.h declares
 * (each marker's name-wide state, static call and iterator) is defined
 * here, once.
 */
#define CREATE_MARKERS
#include <trace/markers/futex.h>
