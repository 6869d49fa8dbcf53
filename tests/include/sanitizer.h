/* SPDX-License-Identifier: MIT */
/*
 * sanitizer.h — UNDER_SANITIZER: 1 in a build with AddressSanitizer or ThreadSanitizer
 * (gcc's __SANITIZE_*__, clang's __has_feature, or the project's CUTOFF_TSAN), else 0.
 * A test uses it to run fewer iterations, or to allow a wider bound, where the sanitizer
 * makes every access several times dearer.
 */
#ifndef CUTOFF_TEST_SANITIZER_H
#define CUTOFF_TEST_SANITIZER_H

#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__) || defined(CUTOFF_TSAN)
#define UNDER_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer) || __has_feature(address_sanitizer)
#define UNDER_SANITIZER 1
#endif
#endif
#ifndef UNDER_SANITIZER
#define UNDER_SANITIZER 0
#endif

#endif
