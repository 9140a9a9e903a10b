/* A tiny check harness for the C99 tests of the C API (one test program per file; each defines
 * main() and ends with `return report("name");`). */
#ifndef STRIDED_TESTS_C_CHECK_H
#define STRIDED_TESTS_C_CHECK_H

#include <stdio.h>
#include <string.h>

#include <strided/directml.h>

static int failures = 0;

static void check(int ok, const char* what, const char* file, int line) {
  if (!ok) {
    ++failures;
    fprintf(stderr, "%s:%d: CHECK(%s) failed\n", file, line, what);
  }
}
#define CHECK(cond) check((cond) ? 1 : 0, #cond, __FILE__, __LINE__)

static void check_status(strided_status got, strided_status expected, const char* what, const char* file, int line) {
  if (got != expected) {
    ++failures;
    fprintf(stderr, "%s:%d: %s gave %d, expected %d (%s)\n", file, line, what, (int)got, (int)expected,
            strided_last_error());
  }
}
#define CHECK_STATUS(call, expected) check_status((call), (expected), #call, __FILE__, __LINE__)

/* This thread's last message contains `text`. */
static void check_message(const char* text, const char* file, int line) {
  if (strstr(strided_last_error(), text) == NULL) {
    ++failures;
    fprintf(stderr, "%s:%d: message \"%s\" lacks \"%s\"\n", file, line, strided_last_error(), text);
  }
}
#define CHECK_MESSAGE(text) check_message((text), __FILE__, __LINE__)

/* A buffer tensor as DirectML samples fill one: packed (Strides NULL) unless strides are given,
 * TotalTensorSizeInBytes worked out by the caller (DMLCalcBufferTensorSize). */
static DML_BUFFER_TENSOR_DESC buffer(DML_TENSOR_DATA_TYPE type, uint32_t dims, const uint32_t* sizes,
                                     const uint32_t* strides, uint64_t total_bytes) {
  DML_BUFFER_TENSOR_DESC b;
  memset(&b, 0, sizeof b);
  b.DataType = type;
  b.Flags = DML_TENSOR_FLAG_NONE;
  b.DimensionCount = dims;
  b.Sizes = sizes;
  b.Strides = strides;
  b.TotalTensorSizeInBytes = total_bytes;
  b.GuaranteedBaseOffsetAlignment = 0;
  return b;
}

static int report(const char* name) {
  if (failures != 0) {
    fprintf(stderr, "%s: %d failure(s)\n", name, failures);
    return 1;
  }
  printf("%s: OK (strided %s)\n", name, strided_version());
  return 0;
}

#endif
